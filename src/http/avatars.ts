/**
 * Avatars players upload from the portal (docs/web.md, "Character pages"): PNG, JPEG, WebP or
 * GIF, told by their first bytes and never by what the client says (so no SVG, which would run
 * as a page of the game's own site), at most 2 MB. Each is one file in `web.avatarDir` named by
 * its player and a hash of its bytes (`12-<16 hex>.png`), written to a temporary file and
 * renamed into place as wiki assets are, and served with a year's caching: a new picture has a
 * new name.
 */
import { join, resolve } from "node:path";

/** Largest avatar, in bytes. */
export const MAX_AVATAR_BYTES = 2 * 1024 * 1024;

/** Where avatars are served: `/api/v1/avatars/<file>`. */
export const AVATAR_PATH = "/api/v1/avatars/";

/** The picture types taken, by file extension. */
export const AVATAR_TYPES: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
};

/** An avatar's file name: the player's id, a hash of its bytes, its type. */
export const AVATAR_FILE = /^([0-9]{1,15})-[0-9a-f]{16}\.(png|jpg|gif|webp)$/;

const ascii = (b: Uint8Array, at: number, text: string) =>
  [...text].every((ch, i) => b[at + i] === ch.charCodeAt(0));

/** The extension of a PNG, JPEG, GIF or WebP picture by its first bytes, or null. */
export function imageExtension(b: Uint8Array): string | null {
  if (
    b.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((x, i) => b[i] === x)
  ) {
    return "png";
  }
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpg";
  if (b.length >= 6 && (ascii(b, 0, "GIF87a") || ascii(b, 0, "GIF89a"))) return "gif";
  if (b.length >= 12 && ascii(b, 0, "RIFF") && ascii(b, 8, "WEBP")) return "webp";
  return null;
}

/** The avatar files of a game, in the folder `dir()` names (read on every call). */
export class AvatarFiles {
  readonly #dir: () => string;

  constructor(dir: () => string) {
    this.#dir = dir;
  }

  /** Stores a checked picture of `playerId`; answers its file name. */
  async save(playerId: string, bytes: Uint8Array, ext: string): Promise<string> {
    const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as BufferSource));
    const hex = [...hash.slice(0, 8)].map((x) => x.toString(16).padStart(2, "0")).join("");
    const name = `${playerId}-${hex}.${ext}`;
    const dir = resolve(this.#dir());
    await Deno.mkdir(dir, { recursive: true });
    const temp = join(dir, `.avatar-tmp-${crypto.randomUUID()}`);
    try {
      await Deno.writeFile(temp, bytes);
      await Deno.rename(temp, join(dir, name));
    } catch (e) {
      await Deno.remove(temp).catch(() => {});
      throw e;
    }
    return name;
  }

  /** An avatar's bytes and type, or null when there is no such file. */
  async read(name: string): Promise<{ bytes: Uint8Array; type: string } | null> {
    const m = AVATAR_FILE.exec(name);
    if (!m) return null;
    try {
      return {
        bytes: await Deno.readFile(join(resolve(this.#dir()), name)),
        type: AVATAR_TYPES[m[2]],
      };
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return null;
      throw e;
    }
  }

  /** Removes a player's avatar file named by its address on the site (others are left alone). */
  async removeAddress(playerId: string, address: unknown): Promise<void> {
    if (typeof address !== "string" || !address.startsWith(AVATAR_PATH)) return;
    const name = address.slice(AVATAR_PATH.length);
    const m = AVATAR_FILE.exec(name);
    if (!m || m[1] !== playerId) return;
    await Deno.remove(join(resolve(this.#dir()), name)).catch((e) => {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    });
  }
}
