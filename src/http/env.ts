/** Hono environments: the per-request variables handlers can read. */
import type { DbObject } from "../world/types.ts";
import type { Services } from "../services.ts";

/** Variables of the core app, set by its middleware. */
export interface AppEnv {
  Variables: {
    services: Services;
    /** The caller, resolved once from the bearer token (null when none or invalid). */
    player: DbObject | null;
    /** Client IP address. */
    ip: string;
  };
  Bindings: { remoteAddr?: { hostname?: string } };
}

/** What the engine resolved for a request before handing it to a plugin app. */
export interface Caller {
  /** The caller, resolved once from the bearer token (null when none or invalid). */
  player: DbObject | null;
  /** Client IP address. */
  ip: string;
}

/** Environment of a plugin's Hono app: the caller, nothing of the engine's insides. */
export interface PluginEnv {
  Variables: Caller;
  Bindings: Caller;
}
