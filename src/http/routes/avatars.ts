/**
 * Avatar upload and serving (src/http/avatars.ts): `PUT /me/avatar` takes the picture's bytes,
 * `DELETE /me/avatar` removes it, `GET /avatars/<file>` serves it to anyone (an `<img>` sends
 * no token, and a character's picture is shown wherever the character is).
 */
import { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { me, requireAuth } from "../middleware/auth.ts";
import { readBytesCapped } from "../middleware/body.ts";
import { NotFoundError, RateLimitError, ValidationError } from "../../errors.ts";
import { SlidingWindows } from "../../rate/sliding.ts";
import { AVATAR_PATH, type AvatarFiles, imageExtension, MAX_AVATAR_BYTES } from "../avatars.ts";
import type { ObjectStore } from "../../world/objects.ts";

/** What the avatar routes use. */
export interface AvatarRouteDeps {
  avatars: AvatarFiles;
  objects: Pick<ObjectStore, "update">;
}

/** Pictures one player may store an hour (each is hashed and written to disk). */
export const AVATARS_PER_HOUR = 10;

/** Routes for /api/v1/me/avatar and /api/v1/avatars/:file. */
export function avatarRoutes(s: AvatarRouteDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  const uploads = new SlidingWindows({ limit: AVATARS_PER_HOUR, windowMs: 3_600_000 });

  r.put("/me/avatar", requireAuth(), async (c) => {
    const player = me(c);
    // The slot is taken before the body is read; a refused picture gives it back.
    const release = uploads.reserve(player.id);
    if (!release) {
      throw new RateLimitError(
        `You changed your picture ${AVATARS_PER_HOUR} times this hour; try again later.`,
      );
    }
    let bytes: Uint8Array, ext: string | null;
    try {
      bytes = await readBytesCapped(c.req.raw, MAX_AVATAR_BYTES).catch((e) => {
        throw e instanceof ValidationError && /larger than/.test(e.message)
          ? new ValidationError("An avatar may be at most 2 MB.")
          : e;
      });
      ext = imageExtension(bytes);
      if (!ext) {
        throw new ValidationError("An avatar must be a PNG, JPEG, WebP or GIF picture.");
      }
    } catch (e) {
      release();
      throw e;
    }
    const name = await s.avatars.save(player.id, bytes, ext);
    const avatar = AVATAR_PATH + name;
    let before: unknown;
    await s.objects.update(player.id, (o) => {
      before = o.data.avatar;
      o.data.avatar = avatar;
    });
    if (before !== avatar) await s.avatars.removeAddress(player.id, before);
    return c.json({ avatar });
  });

  r.delete("/me/avatar", requireAuth(), async (c) => {
    const player = me(c);
    let before: unknown;
    await s.objects.update(player.id, (o) => {
      before = o.data.avatar;
      delete o.data.avatar;
    });
    await s.avatars.removeAddress(player.id, before);
    return c.json({ deleted: true });
  });

  r.get("/avatars/:file", async (c) => {
    const found = await s.avatars.read(c.req.param("file"));
    if (!found) throw new NotFoundError("No such avatar.");
    return c.body(found.bytes as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": found.type,
      // A new picture gets a new name, so a stored one never changes.
      "Cache-Control": "public, max-age=31536000, immutable",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    });
  });

  return r;
}
