/** The Hono environment of the core app: the per-request variables its handlers read. */
import type { DbObject } from "../world/types.ts";

/** Variables of the core app, set by its middleware. */
export interface AppEnv {
  Variables: {
    /** The caller, resolved once from the bearer token (null when none or invalid). */
    player: DbObject | null;
    /** Client IP address. */
    ip: string;
  };
  /** Who sent the request (src/net/http_listener.ts `ClientInfo`); absent in direct calls. */
  Bindings: { remoteAddr?: { hostname?: string }; ip?: string };
}
