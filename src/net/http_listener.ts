/**
 * One HTTP listener of the engine (the HTTP port, the WebSocket port, the sidecar link): our own
 * accept loop (src/net/accept.ts) in front of the connection-level HTTP server
 * (src/net/serve_http.ts), so that each connection is counted and capped per address when it
 * is accepted, closed when it sends no request in time (src/net/http_connections.ts), and a
 * full descriptor table only pauses accepting. Plain TCP or TLS (`server.ssl`); WebSocket
 * upgrades pass through the handler as before (`Deno.upgradeWebSocket`).
 */
import { acceptLoop } from "./accept.ts";
import { plainAddress, type TrustedProxies } from "./client_address.ts";
import type { HttpConnections, TrackedConnection } from "./http_connections.ts";
import type { HttpConn, RequestEvent, ServeHttp } from "./serve_http.ts";
import { TlsAborter } from "./tls_abort.ts";

/** Who a request comes from. */
export interface ClientInfo {
  /** The socket's peer. */
  remoteAddr: Deno.NetAddr;
  /** The client's address: the peer, or what a trusted proxy forwarded (client_address.ts). */
  ip: string;
}

/** Answers one request. */
export type ServeHandler = (req: Request, info: ClientInfo) => Response | Promise<Response>;

/** Settings of one listener. */
export interface HttpListenerOptions {
  hostname: string;
  port: number;
  /** Key and certificate (PEM) for TLS; absent: plain TCP. */
  tls?: { key: string; cert: string };
  /** Starts its log lines, e.g. `engine: HTTP`. */
  label: string;
  handler: ServeHandler;
  /** The answer when the handler throws. */
  onError: (e: unknown) => Response;
  /** The engine's HTTP connections (shared by its listeners). */
  connections: HttpConnections;
  /** The trusted proxies now (read per request). */
  trusted: () => TrustedProxies;
  serveHttp: ServeHttp;
  log: (line: string) => void;
  /** The listener is gone while not stopping. */
  lost: (e: Error) => void;
}

/** The JSON body of a connection refused over the per-address cap. */
const CAP_BODY = JSON.stringify({ error: "Too many connections from your address." });

/** The whole answer written to a refused plain connection before it is closed. */
const CAP_RESPONSE = new TextEncoder().encode(
  "HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\n" +
    "x-content-type-options: nosniff\r\nx-frame-options: DENY\r\n" +
    "referrer-policy: strict-origin-when-cross-origin\r\nconnection: close\r\n" +
    `content-length: ${CAP_BODY.length}\r\n\r\n${CAP_BODY}`,
);

/**
 * The answer to a request over its address's share of requests under way (HTTP/2 carries many
 * on one connection; see HttpConnections.busy).
 */
function busyResponse(): Response {
  return new Response(
    JSON.stringify({ error: "Too many requests at once from your address; try again shortly." }),
    {
      status: 429,
      headers: {
        "content-type": "application/json",
        "retry-after": "1",
        "x-content-type-options": "nosniff",
      },
    },
  );
}

/** A running listener. */
export class HttpListener {
  readonly #o: HttpListenerOptions;
  readonly #listener: Deno.Listener;
  readonly #accepting: Promise<void>;
  /** Requests being answered on this listener (a stop waits for them, briefly). */
  readonly #answering = new Set<Promise<void>>();
  /** Ends TLS connections dropped before their handshake (Deno's close() does not). */
  readonly #aborter: TlsAborter | null;
  #stopping = false;

  /** Opens the port (throws Deno's error when it cannot) and starts accepting. */
  constructor(opts: HttpListenerOptions) {
    this.#o = opts;
    this.#listener = opts.tls
      ? Deno.listenTls({
        hostname: opts.hostname,
        port: opts.port,
        key: opts.tls.key,
        cert: opts.tls.cert,
        alpnProtocols: ["h2", "http/1.1"],
      })
      : Deno.listen({ hostname: opts.hostname, port: opts.port });
    this.#aborter = opts.tls ? new TlsAborter() : null;
    this.#accepting = acceptLoop(this.#listener, {
      label: opts.label,
      admit: (conn) => this.#admit(conn),
      stopping: () => this.#stopping,
      lost: opts.lost,
      log: opts.log,
    });
  }

  /** The bound address. */
  get addr(): Deno.NetAddr {
    return this.#listener.addr as Deno.NetAddr;
  }

  /**
   * Stops accepting; requests being answered get up to `waitMs` to finish. Connections are
   * closed by the caller through the shared {@linkcode HttpConnections}.
   */
  async shutdown(waitMs = 1_000): Promise<void> {
    if (this.#stopping) return;
    this.#stopping = true;
    try {
      this.#listener.close();
    } catch { /* already closed */ }
    await this.#accepting;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.all(this.#answering),
      new Promise((r) => timer = setTimeout(r, waitMs)),
    ]);
    clearTimeout(timer);
    this.#aborter?.pass();
    this.#aborter?.stop();
  }

  #admit(conn: Deno.Conn): void {
    const remoteAddr = conn.remoteAddr as Deno.NetAddr;
    const peer = plainAddress(remoteAddr.hostname);
    const tracked = this.#stopping ? null : this.#o.connections.open(peer);
    if (!tracked) {
      // A TLS one is dropped unanswered: answering would mean waiting for a handshake first.
      if (this.#aborter) this.#aborter.abort(conn);
      else refuse(conn);
      return;
    }
    if (this.#aborter) void this.#secure(conn as Deno.TlsConn, this.#aborter, tracked, remoteAddr);
    else this.#start(conn, tracked, remoteAddr);
  }

  /**
   * Serves a TLS connection once its handshake is done. Until then it counts as a connection
   * with no request yet, so `server.headerTimeout` and a stop end it like one (the aborter,
   * since close() alone would leave a silent client's socket open).
   */
  async #secure(
    conn: Deno.TlsConn,
    aborter: TlsAborter,
    t: TrackedConnection,
    remoteAddr: Deno.NetAddr,
  ): Promise<void> {
    let dropped = false;
    t.close = () => {
      dropped = true;
      aborter.abort(conn);
    };
    try {
      await conn.handshake();
    } catch {
      // A client that is not speaking TLS, or our own drop (which rejects the handshake).
      if (!dropped) t.close();
    }
    if (!dropped && this.#stopping) t.close();
    if (dropped) {
      this.#o.connections.closed(t);
      return;
    }
    this.#start(conn, t, remoteAddr);
  }

  #start(conn: Deno.Conn, tracked: TrackedConnection, remoteAddr: Deno.NetAddr): void {
    // Replies go out at once, not held back for the next one (TLS sockets have no switch).
    if (isTcp(conn)) conn.setNoDelay(true);
    const http = this.#o.serveHttp(conn);
    tracked.close = () => {
      try {
        http.close();
      } catch { /* already closed */ }
    };
    void this.#serve(http, tracked, remoteAddr);
  }

  /** Reads requests until the connection ends; each is answered as it comes (HTTP/2 in turn). */
  async #serve(http: HttpConn, t: TrackedConnection, remoteAddr: Deno.NetAddr): Promise<void> {
    try {
      for (;;) {
        const ev = await http.nextRequest();
        if (ev === null) break;
        if (!this.#o.connections.busy(t)) {
          ev.respondWith(busyResponse()).catch(() => {/* the client went away first */});
          continue;
        }
        const answer = this.#answer(ev, t, remoteAddr);
        this.#answering.add(answer);
        answer.finally(() => this.#answering.delete(answer));
      }
    } catch {
      // The connection failed (reset, a malformed request, closed by the sweep): nobody to tell.
    } finally {
      this.#o.connections.closed(t);
    }
  }

  async #answer(ev: RequestEvent, t: TrackedConnection, remoteAddr: Deno.NetAddr): Promise<void> {
    // The request is counted against its address until idle(): whatever fails below, idle() runs,
    // or the address would be refused at its cap until the engine restarts.
    try {
      const response = await this.#respond(ev, t, remoteAddr);
      // The socket is the WebSocket's from here: the hub counts it and closes it when idle.
      if (response.status === 101) this.#o.connections.handOver(t);
      else uncompressed(response);
      await ev.respondWith(response);
    } catch {
      /* the client went away first */
    } finally {
      this.#o.connections.idle(t);
    }
  }

  /** The handler's response; onError's for what it throws; a bare 500 if onError throws too. */
  async #respond(
    ev: RequestEvent,
    t: TrackedConnection,
    remoteAddr: Deno.NetAddr,
  ): Promise<Response> {
    try {
      const trusted = this.#o.trusted();
      const ip = trusted.empty
        ? t.peer
        : trusted.client(t.peer, ev.request.headers.get("x-forwarded-for"));
      return await this.#o.handler(ev.request, { remoteAddr, ip });
    } catch (e) {
      try {
        return this.#o.onError(e);
      } catch {
        return new Response(JSON.stringify({ error: "internal error" }), {
          status: 500,
          headers: { "content-type": "application/json" },
        });
      }
    }
  }
}

/**
 * Keeps the connection-level server from compressing the body on its own (it brotli-compresses
 * every compressible answer, even a 30-byte one, which costs more CPU than the request): the
 * engine answers uncompressed, as it did under `Deno.serve`. `no-transform` is the header that
 * server checks; a proxy in front may still be told to compress by its own configuration.
 */
function uncompressed(response: Response): void {
  try {
    const cc = response.headers.get("cache-control");
    if (cc === null) response.headers.set("cache-control", "no-transform");
    else if (!/no-transform/i.test(cc)) {
      response.headers.set("cache-control", `${cc}, no-transform`);
    }
  } catch { /* immutable headers (a redirect): compressed, which is harmless */ }
}

function isTcp(conn: Deno.Conn): conn is Deno.TcpConn {
  return "setNoDelay" in conn;
}

/**
 * Turns away a plain connection over the cap at once: a 429 is written (if its buffer takes it;
 * the client's request is never read) and it is closed.
 */
function refuse(conn: Deno.Conn): void {
  conn.write(CAP_RESPONSE).catch(() => {}).finally(() => {
    try {
      conn.close();
    } catch { /* already closed */ }
  });
}
