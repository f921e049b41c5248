/**
 * The HTTP side of the plugin surface: the Hono app a plugin gets from `ctx.http(prefix)`
 * and the middleware and helpers its handlers use. The engine resolves the caller once
 * and maps typed errors to `{ error }` through the one error handler.
 */
import { type Context, Hono, type MiddlewareHandler } from "hono";
import type { Caller, PluginEnv } from "../http/plugin_env.ts";
import { errorHandler, notFound } from "../http/middleware/errors.ts";
import { parseJsonObject, readTextCapped } from "../http/middleware/body.ts";
import { LIST_PAGE, type Page, pageFromUrl, type PageSizes } from "../http/pagination.ts";
import { ForbiddenError, UnauthorizedError, ValidationError } from "../errors.ts";
import { atLeast, isStaff } from "../world/flags.ts";
import type { DbObject } from "../world/types.ts";

/** A route handler in its plainest form: the request and the caller's player id (or null). */
export type RouteHandler = (req: Request, userId: string | null) => Response | Promise<Response>;

/** A plugin route's Hono context. */
export type PluginHttpContext = Context<PluginEnv>;

/** A plugin's Hono app, as `ctx.http(prefix)` returns it. */
export type PluginApp = Hono<PluginEnv>;

/**
 * A new app serving `prefix` for `owner`: the caller the engine resolved is in
 * `c.var.player` and `c.var.ip`; errors and unknown paths answer like the core routes, and a
 * plugin's untyped error is logged under its name, method and path.
 */
export function createPluginApp(prefix: string, owner: string): PluginApp {
  // Not strict: `/api/v1/x/` is `/api/v1/x`, as it was for every plugin before.
  const app = new Hono<PluginEnv>({ strict: false }).basePath(prefix);
  app.onError(errorHandler(`plugin ${owner}`));
  app.notFound(notFound());
  app.use("*", async (c, next) => {
    c.set("player", c.env.player);
    c.set("ip", c.env.ip);
    await next();
  });
  return app;
}

/** Calls `app` for a request with the caller the engine resolved. */
export function dispatchToPlugin(app: PluginApp, req: Request, caller: Caller): Promise<Response> {
  return Promise.resolve(app.fetch(req, caller));
}

/** Middleware: 401 `Unauthorized` without a valid token. */
export function requireUser(): MiddlewareHandler<PluginEnv> {
  return async (c, next) => {
    if (!c.var.player) throw new UnauthorizedError();
    await next();
  };
}

/** Middleware: 401 without a token, 403 (`message`) unless the caller is admin, wizard or superuser. */
export function requireStaff(message = "Forbidden"): MiddlewareHandler<PluginEnv> {
  return requireLevel(isStaff, message);
}

/** Middleware: 401 without a token, 403 (`message`) unless the caller has `flag`'s level or higher. */
export function requireFlag(flag: string, message = "Forbidden"): MiddlewareHandler<PluginEnv> {
  return requireLevel((flags) => atLeast(flags, flag), message);
}

function requireLevel(
  allowed: (flags: readonly string[]) => boolean,
  message: string,
): MiddlewareHandler<PluginEnv> {
  return async (c, next) => {
    const p = c.var.player;
    if (!p) throw new UnauthorizedError();
    if (!allowed(p.flags)) throw new ForbiddenError(message);
    await next();
  };
}

/** The authenticated caller (401 when there is none). */
export function caller(c: PluginHttpContext): DbObject {
  const p = c.var.player;
  if (!p) throw new UnauthorizedError();
  return p;
}

/** Options of `readJson`. */
export interface ReadJsonOptions {
  /** Largest body accepted, in bytes (default 64 KiB). */
  limit?: number;
  /**
   * The message for a missing, unparsable or non-object body, for a contract that names one
   * message (like notes' `text is required`).
   */
  invalid?: string;
}

/** Reads the body as a JSON object, capped before parsing; 400 for anything else. */
export async function readJson(
  c: PluginHttpContext,
  opts: ReadJsonOptions = {},
): Promise<Record<string, unknown>> {
  return parseJsonObject(await readTextCapped(c.req.raw, opts.limit ?? 64 * 1024), opts.invalid);
}

/**
 * Refuses (400) a change body that sets a field outside `allowed`, naming the first such
 * field, or that sets none: the check every PATCH of a plugin record starts with.
 */
export function onlyFields(body: Record<string, unknown>, allowed: readonly string[]): void {
  const keys = Object.keys(body);
  const bad = keys.find((k) => !allowed.includes(k));
  if (bad !== undefined) {
    throw new ValidationError(
      `unknown field '${bad.slice(0, 40)}'; allowed: ${allowed.join(", ")}`,
    );
  }
  if (!keys.length) throw new ValidationError(`nothing to change; allowed: ${allowed.join(", ")}`);
}

/**
 * The page a list request asks for (`?limit=&offset=`): default 50, more than the maximum
 * (200) lowered to it, a negative or non-numeric value a 400; `sizes` sets other sizes.
 */
export function page(c: PluginHttpContext, sizes: PageSizes = LIST_PAGE): Page {
  return pageFromUrl(c.req.url, sizes);
}
