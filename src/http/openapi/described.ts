/**
 * Where a route's description rides: on the middleware `describe()` makes (src/plugins/
 * route_doc.ts), so the API document is read from the routes a plugin registered.
 */
import type { ApiDocs, ApiOperation } from "./types.ts";

/** The property of a described route's middleware that holds its description. */
export const ROUTE_DOC: unique symbol = Symbol.for("ursamu.routeDoc");

/** The description a handler carries, if it is a described route's middleware. */
export function routeDocOf(handler: unknown): ApiOperation | undefined {
  return typeof handler === "function"
    ? (handler as { [ROUTE_DOC]?: ApiOperation })[ROUTE_DOC]
    : undefined;
}

/** The descriptions an app's routes carry, by `METHOD /path` as registered. */
export function docsOfRoutes(
  routes: readonly { method: string; path: string; handler: unknown }[],
): ApiDocs {
  const out: ApiDocs = {};
  for (const r of routes) {
    const doc = routeDocOf(r.handler);
    if (doc) out[`${r.method} ${r.path}`] = doc;
  }
  return out;
}
