/** Bearer-token authentication middleware. */
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../env.ts";
import { ForbiddenError, UnauthorizedError } from "../../errors.ts";
import type { DbObject } from "../../world/types.ts";
import type { TokenService } from "../../auth/tokens.ts";
import type { ObjectStore } from "../../world/objects.ts";

/** What finding a request's caller needs: its token checked, its player read. */
export interface CallerDeps {
  tokens: Pick<TokenService, "verify">;
  objects: Pick<ObjectStore, "get">;
}

/** Extracts the bearer token of a request, or null. */
export function bearerToken(req: Request): string | null {
  const h = req.headers.get("authorization");
  if (!h) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(h.trim());
  return m ? m[1] : null;
}

/** The player a request's token names, or null when missing, invalid or no longer a player. */
export async function playerFromRequest(
  deps: CallerDeps,
  req: Request,
): Promise<DbObject | null> {
  const token = bearerToken(req);
  if (!token) return null;
  const id = await deps.tokens.verify(token);
  if (!id) return null;
  const player = await deps.objects.get(id);
  return player && player.flags.includes("player") ? player : null;
}

/** Requires a valid token (401 otherwise): the caller the app resolved once, in `player`. */
export function requireAuth(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!c.var.player) throw new UnauthorizedError();
    await next();
  };
}

/** The authenticated player of a request that passed `requireAuth`. */
export function me(c: Context<AppEnv>): DbObject {
  const p = c.var.player;
  if (!p) throw new UnauthorizedError();
  return p;
}

/** Throws 403 unless `allowed` is true. */
export function ensure(allowed: boolean, message = "Forbidden"): void {
  if (!allowed) throw new ForbiddenError(message);
}
