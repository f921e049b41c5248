/**
 * Connection-level failures: the client went away mid-body, sent a body whose framing
 * is broken (a bad chunk size), or the socket was reset. They are the client's doing, not
 * the engine's, so they are answered (if anyone is still listening) without a stack trace.
 */

/** The message a client gets when its request could not be read. */
export const UNREADABLE_REQUEST = "The request could not be read (the connection failed).";

/** Deno's errors for a connection that failed under a request. */
const CONNECTION_ERRORS = [
  Deno.errors.Http,
  Deno.errors.ConnectionReset,
  Deno.errors.ConnectionAborted,
  Deno.errors.BrokenPipe,
  Deno.errors.UnexpectedEof,
  Deno.errors.NotConnected,
];

/**
 * True when `err` (or an error it wraps as `cause`) is a connection-level failure. A
 * `BadResource` counts when it names the request body or connection, which is how Deno
 * reports reading the body of a request whose connection is gone or broken.
 */
export function isConnectionError(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e instanceof Error; depth++) {
    if (CONNECTION_ERRORS.some((c) => e instanceof c)) return true;
    if (e instanceof Deno.errors.BadResource && /request body|connection/i.test(e.message)) {
      return true;
    }
    e = e.cause;
  }
  return false;
}
