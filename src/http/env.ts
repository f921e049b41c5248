/** Hono environment of the app: the per-request variables handlers can read. */
import type { DbObject } from "../world/types.ts";
import type { Services } from "../services.ts";

/** Variables set by middleware. */
export interface AppEnv {
  Variables: {
    services: Services;
    /** The authenticated player, set by `requireAuth`/`optionalAuth`. */
    player: DbObject | null;
    /** Client IP address. */
    ip: string;
  };
  Bindings: { remoteAddr?: { hostname?: string } };
}
