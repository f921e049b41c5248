/** CORS for the origins in `server.corsOrigins` only; no wildcard unless configured. */
import type { MiddlewareHandler } from "hono";
import type { Config } from "../../config/load.ts";

const ALLOW_METHODS = "GET, POST, PUT, PATCH, DELETE, OPTIONS";
const ALLOW_HEADERS = "Authorization, Content-Type";

/** Answers preflights and tags responses for allowed origins; reads the live config each time. */
export function cors(config: Config): MiddlewareHandler {
  return async (c, next) => {
    const origin = c.req.header("origin");
    const allowed = config.value.server.corsOrigins;
    const ok = origin !== undefined && (allowed.includes(origin) || allowed.includes("*"));
    if (c.req.method === "OPTIONS" && origin !== undefined) {
      if (!ok) return c.json({ error: "Origin not allowed" }, 403);
      return new Response(null, {
        status: 204,
        headers: {
          "Access-Control-Allow-Origin": origin,
          "Access-Control-Allow-Methods": ALLOW_METHODS,
          "Access-Control-Allow-Headers": ALLOW_HEADERS,
          "Access-Control-Max-Age": "600",
          "Vary": "Origin",
        },
      });
    }
    await next();
    if (ok) {
      c.res.headers.set("Access-Control-Allow-Origin", origin);
      c.res.headers.append("Vary", "Origin");
    }
  };
}
