/** The one place typed errors become HTTP responses. */
import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import { publicMessage, statusOf } from "../../errors.ts";
import { isConnectionError, UNREADABLE_REQUEST } from "../connection_errors.ts";

/**
 * Maps thrown errors to `{ error }` with the right status; unknown errors are logged as 500,
 * under `where` (a plugin's name) with the method and path when given. A failed connection
 * is the client's doing: a 400, not logged.
 */
export function errorHandler(where?: string): ErrorHandler {
  return (err, c) => {
    if (err instanceof HTTPException) {
      return c.json({ error: err.message || "Bad request" }, err.status as 400);
    }
    // A plugin that reads the body itself meets a dropped connection as a raw Deno error.
    if (isConnectionError(err)) return c.json({ error: UNREADABLE_REQUEST }, 400);
    const status = statusOf(err);
    if (status === 500) {
      if (where) console.error(`${where}: ${c.req.method} ${c.req.path} failed:`, err);
      else console.error("http: unhandled error:", err);
    }
    // Every status statusOf returns carries a body, so the narrowing cast is safe.
    return c.json({ error: publicMessage(err) }, status as 400);
  };
}

/** Unknown paths answer `{ error: "Not Found" }`. */
export function notFound(): NotFoundHandler {
  return (c: Context) => c.json({ error: "Not Found" }, 404);
}
