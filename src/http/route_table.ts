/**
 * Routes added at runtime (by plugins): a prefix under /api/v1 and a handler
 * that receives the request and the authenticated user id. Kept apart from the
 * Hono router so a plugin can be removed or reloaded without rebuilding the app.
 */

/** A runtime route handler: the request and the caller's player id (or null). */
export type RouteHandler = (req: Request, userId: string | null) => Response | Promise<Response>;

/** One registered route. */
export interface RouteEntry {
  /** Path prefix such as `/api/v1/notes`; matches itself and anything below it. */
  prefix: string;
  handler: RouteHandler;
  /** Who registered it (plugin name), so everything it added can be released at once. */
  owner: string;
}

/** Prefix routes, matched longest first on a `/` boundary. */
export class RouteTable {
  #entries: RouteEntry[] = [];

  /** Adds a route; a prefix already taken by another owner is refused. */
  add(entry: RouteEntry): void {
    const prefix = normalizePrefix(entry.prefix);
    const clash = this.#entries.find((e) => e.prefix === prefix);
    if (clash) throw new Error(`route ${prefix} is already registered by ${clash.owner}`);
    this.#entries = [...this.#entries, { ...entry, prefix }]
      .sort((a, b) => b.prefix.length - a.prefix.length);
  }

  /** Removes every route of an owner; returns how many went. */
  removeOwner(owner: string): number {
    const before = this.#entries.length;
    this.#entries = this.#entries.filter((e) => e.owner !== owner);
    return before - this.#entries.length;
  }

  /** The route serving `path`, if any. */
  match(path: string): RouteEntry | undefined {
    return this.#entries.find((e) => path === e.prefix || path.startsWith(e.prefix + "/"));
  }

  /** Every registered route. */
  list(): readonly RouteEntry[] {
    return this.#entries;
  }
}

/** `/api/v1/x/` and `/api/v1/x` are the same prefix. */
function normalizePrefix(p: string): string {
  if (!p.startsWith("/api/v1/")) throw new Error(`route prefix must start with /api/v1/: ${p}`);
  return p.replace(/\/+$/, "");
}
