/** Security headers on every response. */
import type { MiddlewareHandler } from "hono";

/** Adds nosniff, frame-deny and referrer-policy headers to every response, errors included. */
export function securityHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    c.res.headers.set("X-Content-Type-Options", "nosniff");
    c.res.headers.set("X-Frame-Options", "DENY");
    c.res.headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  };
}
