/**
 * The Hono environment of plugin apps: the caller the engine resolved, nothing of the engine's
 * insides (so the plugin side of HTTP does not depend on the services).
 */
import type { DbObject } from "../world/types.ts";

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
