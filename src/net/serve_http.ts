/**
 * HTTP on one connection we accepted ourselves: `Deno.serveHttp`. `Deno.serve` owns its accept
 * loop and gives no hook per connection (no header timeout, no close of an idle connection, and
 * its loop ends for good on `Too many open files`), so the engine accepts with `Deno.listen` and
 * hands each connection to this older connection-level server, which Deno 2 still ships (and
 * its WebSocket upgrade with it) but no longer declares in its types. This module is the one
 * place that reaches for it; docs/operations.md ("Connections") says why and what it costs.
 */

/** One request on a connection and the way to answer it. */
export interface RequestEvent {
  readonly request: Request;
  /** Sends the response; rejects when the connection failed first. */
  respondWith(response: Response | Promise<Response>): Promise<void>;
}

/** The HTTP side of one connection. */
export interface HttpConn {
  /** The next request, or null once the connection ended (closed, or upgraded). */
  nextRequest(): Promise<RequestEvent | null>;
  /** Closes the connection (a request being answered fails). */
  close(): void;
}

/** Serves HTTP on an accepted connection. */
export type ServeHttp = (conn: Deno.Conn) => HttpConn;

/** The connection-level server of this runtime, or why there is none. */
export function connectionServer(): ServeHttp | string {
  const serveHttp: unknown = Reflect.get(Deno, "serveHttp");
  if (typeof serveHttp !== "function") {
    return "this Deno has no Deno.serveHttp (the engine needs the Deno that package.json pins)";
  }
  // The runtime's own function, declared here because Deno's types no longer list it.
  return (conn) => serveHttp.call(Deno, conn) as HttpConn;
}
