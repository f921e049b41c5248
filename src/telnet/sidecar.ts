/**
 * The telnet sidecar: a TCP listener whose every connection becomes one hub WebSocket session
 * (client=telnet). It holds no game logic and never opens the database. See docs/operations.md.
 */
import { type ClientLimits, DEFAULT_LIMITS } from "./client_limits.ts";
import { type ClientContext, TelnetClient } from "./sidecar_client.ts";
import { hubAddress, HubWatch } from "./hub_watch.ts";
import { MsspSource } from "./sidecar_mssp.ts";
import { encodeText } from "./text.ts";
import { type TlsListenerOptions, TlsTelnetListener } from "./tls_listener.ts";
import { StartupError } from "../startup_error.ts";
import { MuxClient } from "./mux_client.ts";
import { RenderMemo } from "./render_memo.ts";
import { SIDECAR_HEADER } from "../hub/sidecar_auth.ts";

/** Settings for {@linkcode TelnetSidecar}. */
export interface SidecarOptions {
  /** Address to listen on. */
  hostname: string;
  /** TCP port (0 picks a free one). */
  port: number;
  /** Hub WebSocket URL including `client=telnet`. */
  hubUrl: string;
  /** The secret the hub knows the sidecar by (see src/hub/sidecar_auth.ts); null: none. */
  sidecarSecret: string | null;
  /** Engine HTTP base URL (for the MSSP player count). */
  httpBase: string;
  gameName: string;
  /** Most telnet connections at once (0 = no limit). */
  maxConnections: number;
  /** Most telnet connections from one IP (0 = no limit). */
  maxConnectionsPerIp: number;
  limits?: Partial<ClientLimits>;
  log?: (line: string) => void;
  /**
   * Called when the listener is gone while the sidecar is not stopping (nobody can connect any
   * more); `telnet.ts` exits non-zero so the supervisor starts a new sidecar.
   */
  listenerLost?: (e: Error) => void;
}

/** Builds the hub URL the sidecar dials: loopback when the engine listens on every address. */
export function hubUrlFor(host: string, wsPort: number): string {
  const h = host === "" || host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "[::1]" : host;
  return `ws://${h.includes(":") && !h.startsWith("[") ? `[${h}]` : h}:${wsPort}/?client=telnet`;
}

/** Builds the engine's HTTP base URL the same way. */
export function httpBaseFor(host: string, httpPort: number): string {
  const h = host === "" || host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "[::1]" : host;
  return `http://${h.includes(":") && !h.startsWith("[") ? `[${h}]` : h}:${httpPort}`;
}

/** The telnet port could not be opened; the message names the setting to change. */
export class TelnetListenError extends Error {
  override name = "TelnetListenError";
}

/** Players redial within this many ms once the hub is seen back. */
const REDIAL_SPREAD_MS = 50;

/** The running sidecar. */
export class TelnetSidecar {
  readonly #o: SidecarOptions;
  readonly #ctx: ClientContext;
  readonly #clients = new Set<TelnetClient>();
  readonly #perIp = new Map<string, number>();
  readonly #log: (line: string) => void;
  readonly #watch: HubWatch;
  /**
   * The one link carrying every session; only with a secret (without one the sidecar is an
   * ordinary client and each player keeps a WebSocket of its own, as any client would).
   */
  readonly #mux: MuxClient | null;
  #listener: Deno.TcpListener | null = null;
  #accepting: Promise<void> = Promise.resolve();
  #stopping = false;
  #tls: TlsTelnetListener | null = null;

  constructor(opts: SidecarOptions) {
    this.#o = opts;
    this.#log = opts.log ?? ((line) => console.log(line));
    const mssp = new MsspSource({
      gameName: opts.gameName,
      httpBase: opts.httpBase,
      port: opts.port,
      startedAt: Date.now(),
    });
    this.#watch = new HubWatch(hubAddress(opts.hubUrl), () => {
      // With the link, its reopening makes every player redial at once (one message).
      if (this.#mux) this.#mux.connectNow();
      else for (const c of this.#clients) c.redial(REDIAL_SPREAD_MS);
    });
    this.#mux = opts.sidecarSecret === null ? null : new MuxClient({
      hubUrl: opts.hubUrl,
      headers: { [SIDECAR_HEADER]: opts.sidecarSecret },
      maxRetryMs: opts.limits?.maxRetryMs,
      log: this.#log,
      // The link is back: every waiting player redials now, so all resumes share one message.
      reopened: () => {
        for (const c of this.#clients) c.redial(0);
      },
    });
    const mux = this.#mux;
    let lastResumeAnswer = 0;
    this.#ctx = {
      resumeProgress: {
        last: () => lastResumeAnswer,
        answered: () => lastResumeAnswer = Date.now(),
      },
      ...(mux ? { dial: (url: string) => mux.dial(url) } : {}),
      hubUrl: opts.hubUrl,
      sidecarSecret: opts.sidecarSecret,
      mssp,
      memo: new RenderMemo(),
      limits: { ...DEFAULT_LIMITS, ...opts.limits },
      log: this.#log,
      closed: (client) => this.#forget(client),
      waiting: () => {
        if (!this.#stopping) this.#watch.start();
      },
    };
  }

  /** Number of open telnet connections. */
  get connections(): number {
    return this.#clients.size;
  }

  /**
   * Starts listening; returns the bound address. A taken port or a refused address throws a
   * {@linkcode TelnetListenError} that names the setting to change.
   */
  listen(): Deno.NetAddr {
    let listener: Deno.TcpListener;
    try {
      listener = Deno.listen({ hostname: this.#o.hostname, port: this.#o.port });
    } catch (e) {
      const why = e instanceof Deno.errors.AddrInUse
        ? "is already in use"
        : `cannot be opened (${(e as Error).message})`;
      throw new TelnetListenError(
        `${this.#o.hostname}:${this.#o.port} (server.telnet) ${why}; choose another port with ` +
          "server.telnet in config/config.json or URSAMU_SERVER_TELNET.",
      );
    }
    this.#listener = listener;
    const addr = listener.addr as Deno.NetAddr;
    this.#log(`telnet: listening on ${addr.hostname}:${addr.port}, hub ${this.#o.hubUrl}`);
    this.#accepting = this.#accept(listener);
    return addr;
  }

  /**
   * Also serves telnet over TLS (docs/tls.md); a renewed certificate is used for new connections
   * at once. Throws a one-line error when the port or the certificate cannot be used.
   */
  async listenTls(opts: Omit<TlsListenerOptions, "admit" | "log">): Promise<Deno.NetAddr> {
    this.#tls = new TlsTelnetListener({
      ...opts,
      log: this.#log,
      // The client code takes a TCP socket; TLS ones have no TCP_NODELAY switch (ignored).
      admit: (conn) =>
        this.#admit(
          Object.assign(conn, { setNoDelay() {}, setKeepAlive() {} }) as unknown as Deno.TcpConn,
        ),
    });
    try {
      return await this.#tls.start();
    } catch (e) {
      if (e instanceof StartupError) throw e; // the key or certificate: its own one line
      const why = e instanceof Deno.errors.AddrInUse
        ? "is already in use"
        : `cannot be opened (${(e as Error).message.split("\n")[0]})`;
      throw new TelnetListenError(
        `${opts.hostname}:${opts.port} (server.telnetTls) ${why}; choose another port with ` +
          "server.telnetTls in config/config.json or URSAMU_SERVER_TELNETTLS.",
      );
    }
  }

  /** Tells every player the server is stopping, closes their sockets and the listener. */
  async shutdown(): Promise<void> {
    if (this.#stopping) return;
    this.#stopping = true;
    this.#tls?.stop();
    this.#watch.stop();
    try {
      this.#listener?.close();
    } catch { /* already closed */ }
    await Promise.all([...this.#clients].map((c) => c.shutdown()));
    this.#mux?.stop();
    await this.#accepting;
  }

  /**
   * Accepts until the listener is closed. A failed accept is one connection's problem (reset
   * before we took it) or a passing shortage (out of file descriptors): it is retried, never
   * the end of the loop. Only a listener that is gone ends it, and then `listenerLost` decides.
   */
  async #accept(listener: Deno.TcpListener): Promise<void> {
    let failures = 0;
    while (!this.#stopping) {
      let conn: Deno.TcpConn;
      try {
        conn = await listener.accept();
      } catch (e) {
        if (this.#stopping) return;
        if (e instanceof Deno.errors.BadResource || e instanceof Deno.errors.Interrupted) {
          this.#log(`telnet: the listener is gone: ${(e as Error).message}`);
          this.#o.listenerLost?.(e as Error);
          return;
        }
        // The client hung up between the handshake and accept(): nothing to wait for.
        if (isConnectionGone(e)) continue;
        const wait = acceptRetryDelay(failures++);
        this.#log(`telnet: accept failed (${(e as Error).message}); retrying in ${wait} ms`);
        await new Promise((r) => setTimeout(r, wait));
        continue;
      }
      failures = 0;
      try {
        this.#admit(conn);
      } catch (e) {
        // A socket that died between accept() and its setup (remote address, TCP_NODELAY).
        if (!isConnectionGone(e)) {
          this.#log(`telnet: connection setup failed: ${(e as Error).message}`);
        }
        try {
          conn.close();
        } catch { /* already closed */ }
      }
    }
  }

  #admit(conn: Deno.TcpConn): void {
    const ip = (conn.remoteAddr as Deno.NetAddr).hostname;
    const { maxConnections, maxConnectionsPerIp } = this.#o;
    const perIp = this.#perIp.get(ip) ?? 0;
    let refusal: string | null = null;
    if (this.#stopping) refusal = "The server is shutting down.";
    else if (maxConnections > 0 && this.#clients.size >= maxConnections) {
      refusal = "The server is full. Please try again later.";
    } else if (maxConnectionsPerIp > 0 && perIp >= maxConnectionsPerIp) {
      refusal = "Too many connections from your address.";
    }
    if (refusal) {
      refuse(conn, refusal);
      return;
    }
    const client = new TelnetClient(conn, this.#ctx);
    this.#perIp.set(ip, perIp + 1);
    this.#clients.add(client);
    client.run().catch((e) => this.#log(`telnet: client ${ip} failed: ${(e as Error)?.stack}`));
  }

  #forget(client: TelnetClient): void {
    if (!this.#clients.delete(client)) return;
    const n = (this.#perIp.get(client.ip) ?? 1) - 1;
    if (n > 0) this.#perIp.set(client.ip, n);
    else this.#perIp.delete(client.ip);
  }
}

/** Delay before retrying after the `failures`-th accept error in a row: 10 ms doubling to 1 s. */
export function acceptRetryDelay(failures: number): number {
  return Math.min(1_000, 10 * 2 ** Math.min(failures, 7));
}

/** True for errors that mean the peer is already gone (reset, aborted, not connected). */
function isConnectionGone(e: unknown): boolean {
  return e instanceof Deno.errors.NotConnected || e instanceof Deno.errors.ConnectionReset ||
    e instanceof Deno.errors.ConnectionAborted || e instanceof Deno.errors.BrokenPipe;
}

/** Writes a one-line refusal and closes, without waiting on a client that may not read. */
function refuse(conn: Deno.Conn, message: string): void {
  conn.write(encodeText(message + "\n")).catch(() => {}).finally(() => {
    try {
      conn.close();
    } catch { /* already closed */ }
  });
}
