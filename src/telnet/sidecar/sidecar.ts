/**
 * The telnet sidecar: a TCP listener that keeps every telnet player connected while the engine
 * restarts. It holds no game logic and never opens the database. With a secret, on Linux, each
 * player's socket is handed to the engine, which serves it directly (keeper.ts; docs/telnet.md,
 * "Who holds a telnet socket"); otherwise, and for telnet over TLS, the sidecar runs each
 * player's telnet session itself over its link to the hub. See docs/operations.md.
 */
import { type ClientLimits, DEFAULT_LIMITS } from "../client/limits.ts";
import { type ClientContext, TelnetClient } from "../client/telnet_client.ts";
import { ConnTransport } from "../client/transport.ts";
import { hubAddress, HubWatch } from "./hub_watch.ts";
import { MsspSource } from "../client/mssp_source.ts";
import { encodeText } from "../protocol/text.ts";
import { type TlsListenerOptions, TlsTelnetListener } from "./tls_listener.ts";
import { StartupError } from "../../startup_error.ts";
import { MuxClient } from "./mux_client.ts";
import { HubLink } from "./hub_link.ts";
import { webSocketWires, type WireDialer } from "./wire.ts";
import { RenderMemo } from "../client/render_memo.ts";
import { RateBudgets } from "../../rate/budget.ts";
import { SIDECAR_HEADER } from "../../hub/sidecar_auth.ts";
import net from "node:net";
import { TelnetKeeper } from "../handoff/keeper.ts";
import { handoffUnavailable } from "../handoff/support.ts";
import { RefusalLog } from "../../net/refusal_log.ts";
import { acceptLoop } from "../../net/accept.ts";
import { plainAddress } from "../../net/client_address.ts";
import { AddressCounts } from "../../net/address_counts.ts";
import { NodeListenerWatch } from "../../net/node_listener_watch.ts";

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
  /**
   * Hand plain telnet sockets to the engine (default: whenever there is a secret and the
   * platform allows it; `URSAMU_TELNET_HANDOFF=0` turns it off in telnet.ts).
   */
  handoff?: boolean;
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
  readonly #perIp = new AddressCounts();
  readonly #log: (line: string) => void;
  readonly #watch: HubWatch;
  /**
   * The one link carrying every session; only with a secret (without one the sidecar is an
   * ordinary client and each player keeps a WebSocket of its own, as any client would).
   */
  readonly #mux: MuxClient | null;
  /** Holds the sockets handed to the engine; null: the sidecar serves every player itself. */
  readonly #keeper: TelnetKeeper | null;
  #listener: Deno.TcpListener | null = null;
  #server: net.Server | null = null;
  #acceptWatch: NodeListenerWatch | null = null;
  #accepting: Promise<void> = Promise.resolve();
  #stopping = false;
  #tls: TlsTelnetListener | null = null;
  readonly #refusals: RefusalLog;

  constructor(opts: SidecarOptions) {
    this.#o = opts;
    this.#log = opts.log ?? ((line) => console.log(line));
    this.#refusals = new RefusalLog("telnet", this.#log);
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
    const why = opts.sidecarSecret === null
      ? "no secret"
      : opts.handoff === false
      ? "turned off"
      : handoffUnavailable();
    this.#keeper = why !== null ? null : new TelnetKeeper({
      secret: opts.sidecarSecret!,
      startedAt: Date.now(),
      log: this.#log,
      released: (ip) => this.#uncount(ip),
      counted: (ip) => this.#count(ip),
    });
    if (why !== null && opts.sidecarSecret !== null && opts.handoff !== false) {
      this.#log(`telnet: players' sockets stay in the sidecar (${why})`);
    }
    const mux = this.#mux;
    // Over the link with a secret; without one each player dials a WebSocket of its own.
    const wires: WireDialer = mux
      ? (query, events) => mux.dial(query, events)
      : webSocketWires(opts.hubUrl);
    const limits = { ...DEFAULT_LIMITS, ...opts.limits };
    const linkOptions = {
      trusted: opts.sidecarSecret !== null,
      query: new URL(opts.hubUrl).search.replace(/^\?/, "") || "client=telnet",
      maxRetryMs: limits.maxRetryMs,
    };
    let lastResumeAnswer = 0;
    this.#ctx = {
      resumeProgress: {
        last: () => lastResumeAnswer,
        answered: () => lastResumeAnswer = Date.now(),
      },
      hub: (events, token) => new HubLink(wires, token, events, linkOptions),
      mssp,
      memo: new RenderMemo(),
      // Date.now, as the connections' own budgets: the cheaper clock; a step back is absorbed.
      inputByAddress: new RateBudgets({ now: Date.now }),
      limits,
      log: this.#log,
      closed: (client) => this.#forget(client),
      waiting: () => {
        if (!this.#stopping) this.#watch.start();
      },
    };
  }

  /** Number of open telnet connections. */
  get connections(): number {
    return this.#clients.size + (this.#keeper?.size ?? 0);
  }

  /**
   * Starts listening; returns the bound address. A taken port or a refused address throws a
   * {@linkcode TelnetListenError} that names the setting to change.
   */
  async listen(): Promise<Deno.NetAddr> {
    const addr = this.#keeper ? await this.#listenHandoff(this.#keeper) : this.#listenHere();
    this.#log(
      `telnet: listening on ${addr.hostname}:${addr.port}, hub ${this.#o.hubUrl}` +
        (this.#keeper ? " (sockets handed to the engine)" : ""),
    );
    return addr;
  }

  /** The listener when the sidecar serves its players itself. */
  #listenHere(): Deno.NetAddr {
    let listener: Deno.TcpListener;
    try {
      listener = Deno.listen({ hostname: this.#o.hostname, port: this.#o.port });
    } catch (e) {
      throw this.#listenError(e instanceof Deno.errors.AddrInUse, (e as Error).message);
    }
    this.#listener = listener;
    this.#accepting = acceptLoop(listener, {
      label: "telnet",
      admit: (conn) => this.#admit(conn),
      stopping: () => this.#stopping,
      lost: (e) => this.#o.listenerLost?.(e),
      log: this.#log,
    });
    return listener.addr as Deno.NetAddr;
  }

  /**
   * The listener when sockets go to the engine: Node's, because its sockets can give their
   * descriptor (Deno's cannot), and paused, so nothing is ever read here.
   */
  async #listenHandoff(keeper: TelnetKeeper): Promise<Deno.NetAddr> {
    try {
      keeper.listen();
    } catch (e) {
      throw new TelnetListenError(
        `the telnet handoff channel cannot be opened (${(e as Error).message}): is another ` +
          "sidecar of this game running? Stop it, or give this one its own URSAMU_SIDECAR_SECRET.",
      );
    }
    const server = net.createServer({ pauseOnConnect: true, noDelay: true });
    server.on("connection", (socket) => this.#admitSocket(keeper, socket));
    try {
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen({ host: this.#o.hostname, port: this.#o.port }, () => {
          server.off("error", reject);
          resolve();
        });
      });
    } catch (e) {
      await keeper.shutdown();
      const code = (e as { code?: string }).code;
      throw this.#listenError(code === "EADDRINUSE", (e as Error).message);
    }
    // An accept that fails is one connection's problem (or a passing shortage of descriptors).
    server.on("error", (e) => this.#log(`telnet: accept failed (${e.message})`));
    this.#server = server;
    // Node's listener stops accepting for good once out of descriptors: watched and reopened.
    this.#acceptWatch = new NodeListenerWatch(server, { label: "telnet", log: this.#log });
    const a = server.address() as net.AddressInfo;
    return { transport: "tcp", hostname: a.address, port: a.port };
  }

  #listenError(inUse: boolean, message: string): TelnetListenError {
    const why = inUse ? "is already in use" : `cannot be opened (${message})`;
    return new TelnetListenError(
      `${this.#o.hostname}:${this.#o.port} (server.telnet) ${why}; choose another port with ` +
        "server.telnet in config/config.json or URSAMU_SERVER_TELNET.",
    );
  }

  /**
   * Also serves telnet over TLS (docs/tls.md); a renewed certificate is used for new connections
   * at once. Throws a one-line error when the port or the certificate cannot be used.
   */
  async listenTls(
    opts: Omit<TlsListenerOptions, "admit" | "log" | "maxHandshakesPerIp">,
  ): Promise<Deno.NetAddr> {
    this.#tls = new TlsTelnetListener({
      ...opts,
      log: this.#log,
      maxHandshakesPerIp: this.#o.maxConnectionsPerIp,
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
    this.#acceptWatch?.stop();
    this.#server?.close();
    await this.#keeper?.shutdown();
    await Promise.all([...this.#clients].map((c) => c.shutdown()));
    this.#mux?.stop();
    await this.#accepting;
    this.#refusals.stop();
  }

  #admit(conn: Deno.TcpConn): void {
    const ip = (conn.remoteAddr as Deno.NetAddr).hostname;
    const refusal = this.#refusal(ip);
    if (refusal) {
      this.#refusals.note(refusal.why, ip);
      refuse(conn, refusal.message);
      return;
    }
    const client = new TelnetClient(
      new ConnTransport(conn, this.#ctx.limits.maxOutputBytes),
      this.#ctx,
    );
    this.#count(ip);
    this.#clients.add(client);
    client.start();
  }

  /** A plain telnet connection whose socket goes to the engine (through the keeper). */
  #admitSocket(keeper: TelnetKeeper, socket: net.Socket): void {
    if (this.#acceptWatch?.isOwnDial(socket)) return;
    const ip = plainAddress(socket.remoteAddress ?? "");
    socket.on("error", () => {/* the peer went away before it was handed on */});
    const refusal = this.#refusal(ip);
    if (refusal) {
      this.#refusals.note(refusal.why, ip);
      // end() alone would wait for the client's FIN, which a paused socket never reads: the
      // descriptor would stay open for as long as the client keeps its end (issue 31).
      socket.end(encodeText(refusal.message + "\n"), () => socket.destroy());
      return;
    }
    let fd: number;
    try {
      // A duplicate of the socket's descriptor (Deno's Node layer offers it for IPC); the
      // socket object itself is closed, which leaves the connection to the duplicate.
      // deno-lint-ignore no-explicit-any
      fd = (socket as any)._handle.fdForIpc();
      if (!Number.isInteger(fd) || fd < 0) throw new Error(`no descriptor (${fd})`);
    } catch (e) {
      this.#log(`telnet: connection from ${ip} could not be handed on: ${(e as Error).message}`);
      socket.destroy();
      return;
    }
    socket.destroy();
    this.#count(ip);
    keeper.add(fd, ip);
  }

  /**
   * Why a new connection from `ip` is refused (the caps, a stop): the line the client reads and
   * the reason the log counts; null when it is welcome.
   */
  #refusal(ip: string): { message: string; why: string } | null {
    const { maxConnections, maxConnectionsPerIp } = this.#o;
    if (this.#stopping) return { message: "The server is shutting down.", why: "shutting down" };
    if (maxConnections > 0 && this.connections >= maxConnections) {
      return { message: "The server is full. Please try again later.", why: "server full" };
    }
    if (maxConnectionsPerIp > 0 && this.#perIp.count(ip) >= maxConnectionsPerIp) {
      return { message: "Too many connections from your address.", why: "per-address cap" };
    }
    return null;
  }

  #count(ip: string): void {
    this.#perIp.add(ip);
  }

  #uncount(ip: string): void {
    this.#perIp.remove(ip);
  }

  #forget(client: TelnetClient): void {
    if (this.#clients.delete(client)) this.#uncount(client.ip);
  }
}

/** Writes a one-line refusal and closes, without waiting on a client that may not read. */
function refuse(conn: Deno.Conn, message: string): void {
  conn.write(encodeText(message + "\n")).catch(() => {}).finally(() => {
    try {
      conn.close();
    } catch { /* already closed */ }
  });
}
