/** Security headers on every response. */
import type { MiddlewareHandler } from "hono";
import { CONTENT_SECURITY_POLICY } from "../web_client.ts";

/**
 * Adds nosniff, frame-deny and referrer-policy headers to every response, errors included,
 * and the content security policy to HTML pages.
 */
export function securityHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    c.res.headers.set("X-Content-Type-Options", "nosniff");
    c.res.headers.set("X-Frame-Options", "DENY");
    c.res.headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
    // Every HTML page (plugins' pages too) gets the client's policy unless it set its own.
    const type = c.res.headers.get("content-type") ?? "";
    if (type.startsWith("text/html") && !c.res.headers.has("Content-Security-Policy")) {
      c.res.headers.set("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    }
  };
}
