/**
 * Static web pages and assets of plugins (a feature's portal pages live in its folder),
 * served at `/plugins/<name>/...`, and the portal sections and panes they declare. Files are
 * read from the plugin's chosen folder only: paths are resolved and checked to stay inside it,
 * and symlinks that lead out are refused.
 */
import { extname, join, resolve, sep } from "node:path";
import { Portal } from "./portal.ts";

/** Content types of the files a plugin may serve; anything else is not served. */
const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
};

/** Largest file served (a page asset, not a download). */
const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** The URL prefix of a plugin's pages. */
export function webPrefix(owner: string): string {
  return `/plugins/${owner}`;
}

/** Plugin web folders by owner (lower-cased plugin name), and what they add to the portal. */
export class PluginWeb {
  readonly #roots = new Map<string, string>();
  /** The portal sections and panes plugins declared (released with their folders). */
  readonly portal = new Portal(webPrefix);

  /** Serves `dir` for `owner`; a second folder for the same owner is refused. */
  add(owner: string, dir: string): void {
    if (this.#roots.has(owner)) throw new Error(`plugin ${owner} already serves web pages`);
    this.#roots.set(owner, resolve(dir));
  }

  /** Stops serving an owner's folder, and drops its portal parts; true when it served one. */
  removeOwner(owner: string): boolean {
    this.portal.removeOwner(owner);
    return this.#roots.delete(owner);
  }

  /** True when `owner` serves a folder. */
  serves(owner: string): boolean {
    return this.#roots.has(owner);
  }

  /** True when `rel` is a file inside the folder `owner` serves (symlinks resolved). */
  hasFile(owner: string, rel: string): boolean {
    const root = this.#roots.get(owner);
    if (!root) return false;
    try {
      const real = Deno.realPathSync(join(root, rel));
      const realRoot = Deno.realPathSync(root);
      return real.startsWith(realRoot + sep) && Deno.statSync(real).isFile;
    } catch {
      return false;
    }
  }

  /** Owners that serve pages. */
  owners(): string[] {
    return [...this.#roots.keys()];
  }

  /**
   * The response for `rest` (the decoded path below `/plugins/<owner>/`), or null when
   * nothing is there. A directory answers its `index.html`.
   */
  async serve(req: Request, owner: string, rest: string): Promise<Response | null> {
    const root = this.#roots.get(owner.toLowerCase());
    if (!root) return null;
    if (rest.split("/").some((s) => s === ".." || s.includes("\\") || s.includes("\0"))) {
      return null;
    }
    const file = await inside(root, join(root, rest));
    if (!file) return null;
    const info = await Deno.stat(file).catch(() => null);
    const target = info?.isDirectory ? await inside(root, join(file, "index.html")) : file;
    if (!target) return null;
    const type = TYPES[extname(target).toLowerCase()];
    const stat = await Deno.stat(target).catch(() => null);
    if (!type || !stat?.isFile || stat.size > MAX_FILE_BYTES) return null;
    // Revalidated every time, as the client's own assets are: a reloaded plugin's pages are seen
    // at once, and an unchanged file is a 304 (its size and time are its version).
    const etag = `W/"${stat.size.toString(36)}-${(stat.mtime?.getTime() ?? 0).toString(36)}"`;
    const headers: Record<string, string> = {
      "content-type": type,
      "cache-control": "no-cache",
      "etag": etag,
    };
    if (req.headers.get("if-none-match") === etag) {
      return new Response(null, { status: 304, headers });
    }
    headers["content-length"] = String(stat.size);
    if (req.method === "HEAD") return new Response(null, { headers });
    return new Response(await Deno.readFile(target), { headers });
  }
}

/** The real path of `path` when it exists and stays inside `root` (symlinks resolved). */
async function inside(root: string, path: string): Promise<string | null> {
  try {
    const [realRoot, real] = await Promise.all([Deno.realPath(root), Deno.realPath(path)]);
    return real === realRoot || real.startsWith(realRoot + sep) ? real : null;
  } catch {
    return null;
  }
}
