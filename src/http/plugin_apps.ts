/**
 * The Hono apps of plugins, by path prefix. Kept apart from the core router so a plugin's
 * whole app can be mounted, swapped on reload and removed at runtime: a request below a
 * prefix is handed to that prefix's current app, so no route of an unloaded plugin answers.
 */
import type { Hono } from "hono";
import { inspectRoutes } from "hono/dev";
import type { PluginEnv } from "./plugin_env.ts";
import type { ApiDocs } from "./openapi/types.ts";
import { docsOfRoutes } from "./openapi/described.ts";

/** One mounted app. */
export interface MountedApp {
  /** Path prefix such as `/api/v1/kettle`; serves itself and everything below it. */
  prefix: string;
  /** Who mounted it (lower-cased plugin name), so all it added goes at once. */
  owner: string;
  app: Hono<PluginEnv>;
}

/** One route of the API description. */
export interface RouteInfo {
  method: string;
  path: string;
  /** `core` or the plugin's name. */
  owner: string;
}

/** Prefix-mounted plugin apps, matched longest prefix first on a `/` boundary. */
export class PluginApps {
  #entries: MountedApp[] = [];

  /** The descriptions the mounted apps' routes carry (`describe()` beside each route). */
  docs(): ApiDocs {
    return Object.assign({}, ...this.#entries.map((e) => docsOfRoutes(e.app.routes)));
  }

  /** Mounts an app; a prefix another owner holds is refused. */
  add(entry: MountedApp): void {
    const prefix = entry.prefix.replace(/\/+$/, "");
    if (!prefix.startsWith("/api/v1/")) {
      throw new Error(`route prefix must start with /api/v1/: ${entry.prefix}`);
    }
    const clash = this.#entries.find((e) => e.prefix === prefix);
    if (clash) throw new Error(`route ${prefix} is already registered by ${clash.owner}`);
    this.#entries = [...this.#entries, { ...entry, prefix }]
      .sort((a, b) => b.prefix.length - a.prefix.length);
  }

  /** Unmounts every app of an owner; returns how many went. */
  removeOwner(owner: string): number {
    const before = this.#entries.length;
    this.#entries = this.#entries.filter((e) => e.owner !== owner);
    return before - this.#entries.length;
  }

  /** The app serving `path`, if any. */
  match(path: string): MountedApp | undefined {
    return this.#entries.find((e) => path === e.prefix || path.startsWith(e.prefix + "/"));
  }

  /** Every mounted app. */
  list(): readonly MountedApp[] {
    return this.#entries;
  }

  /** The routes (not middleware) of every mounted app, with their methods. */
  routes(): RouteInfo[] {
    return this.#entries.flatMap((e) => routesOf(e.app, e.owner));
  }
}

/** The routes of one Hono app, without middleware and duplicates. */
// deno-lint-ignore no-explicit-any
export function routesOf(app: Hono<any>, owner: string): RouteInfo[] {
  const seen = new Set<string>();
  const out: RouteInfo[] = [];
  for (const r of inspectRoutes(app)) {
    if (r.isMiddleware) continue;
    const key = `${r.method} ${r.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ method: r.method, path: r.path, owner });
  }
  return out;
}
