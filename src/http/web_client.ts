/**
 * The browser client and portal (the repository's `web/` folder): its shell page for the
 * client's own paths, its assets under `/assets/`, and the HTML 404 for browsers. The folder
 * is found next to this module, so a compiled engine that includes `web/` finds it too.
 */
import { extname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { CORE_CLIENT_PATHS } from "./portal.ts";

/** Where the client's files live (repository root `web/`). */
export const WEB_ROOT = fileURLToPath(new URL("../../web/", import.meta.url));

/**
 * The policy of every page: scripts, styles, images and connections from the engine only;
 * no inline script or style, no eval, no framing, no plugins.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
};

interface Cached {
  body: Uint8Array;
  etag: string;
  type: string;
}

/** Serves the client's files, each with a content-hash ETag computed once per engine. */
export class WebClient {
  readonly #root: string;
  readonly #cache = new Map<string, Cached>();
  readonly #section: (first: string) => boolean;

  /**
   * `section(first)` says whether a path's first segment is a plugin's portal section (its deep
   * links serve the shell too).
   */
  constructor(root: string = WEB_ROOT, section: (first: string) => boolean = () => false) {
    this.#root = resolve(root);
    this.#section = section;
  }

  /** True when `path` (a URL path) is one of the client's own pages or a portal section's. */
  isClientPath(path: string): boolean {
    if (path === "/") return true;
    const first = path.split("/")[1] ?? "";
    return CORE_CLIENT_PATHS.includes(first) || this.#section(first);
  }

  /** The shell page for a client path. */
  async shell(req: Request): Promise<Response> {
    return await this.#respond(req, "index.html", 200) ??
      new Response("The web client is missing (no web/index.html).", {
        status: 500,
        headers: pageHeaders("text/plain; charset=utf-8"),
      });
  }

  /** An asset below `/assets/` (`rest` is the decoded rest of the path), or null. */
  asset(req: Request, rest: string): Promise<Response | null> {
    if (rest.split("/").some((s) => s === "" || s.startsWith(".") || s.includes("\\"))) {
      return Promise.resolve(null);
    }
    return this.#respond(req, join("assets", rest), 200);
  }

  /** The HTML 404 page. */
  async notFound(req: Request): Promise<Response> {
    return await this.#respond(req, "404.html", 404) ??
      new Response("Not Found", { status: 404, headers: pageHeaders("text/plain; charset=utf-8") });
  }

  async #respond(req: Request, rel: string, status: number): Promise<Response | null> {
    const file = await this.#load(rel);
    if (!file) return null;
    const headers: Record<string, string> = {
      ...pageHeaders(file.type),
      "etag": file.etag,
      // Revalidate every time: the ETag makes that a cheap 304, and an updated engine's
      // files are seen at once without renaming them.
      "cache-control": "no-cache",
    };
    if (status === 200 && req.headers.get("if-none-match") === file.etag) {
      return new Response(null, { status: 304, headers });
    }
    headers["content-length"] = String(file.body.byteLength);
    const body = req.method === "HEAD" ? null : file.body;
    return new Response(body as BodyInit | null, { status, headers });
  }

  async #load(rel: string): Promise<Cached | null> {
    const hit = this.#cache.get(rel);
    if (hit) return hit;
    const type = TYPES[extname(rel).toLowerCase()];
    if (!type) return null;
    const path = resolve(this.#root, rel);
    if (!path.startsWith(this.#root + sep)) return null;
    let body: Uint8Array;
    try {
      const real = await Deno.realPath(path);
      if (!real.startsWith((await Deno.realPath(this.#root)) + sep)) return null;
      body = await Deno.readFile(real);
    } catch {
      return null;
    }
    const digest = await crypto.subtle.digest("SHA-256", body as BufferSource);
    const file = { body, type, etag: `"${hex(digest).slice(0, 32)}"` };
    this.#cache.set(rel, file);
    return file;
  }
}

/** Headers of every page and asset: its type and the content security policy. */
export function pageHeaders(type: string): Record<string, string> {
  return { "content-type": type, "content-security-policy": CONTENT_SECURITY_POLICY };
}

/** True when a request prefers an HTML answer (a browser navigating). */
export function wantsHtml(req: Request): boolean {
  return (req.headers.get("accept") ?? "").includes("text/html");
}

function hex(buf: ArrayBuffer): string {
  return [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
