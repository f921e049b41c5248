/**
 * The telnet sidecar: a TCP listener whose every connection becomes one hub WebSocket session
 * (client=telnet). It holds no game logic and never opens the database. See docs/operations.md.
 */
import {
  type ClientContext,
  type ClientLimits,
  DEFAULT_LIMITS,
  TelnetClient,
} from "./sidecar_client.ts";
import { hubAddress, HubWatch } from "./hub_watch.ts";
import { MsspSource } from "./sidecar_mssp.ts";
import { encodeText } from "./text.ts";

/** Settings for {@linkcode TelnetSidecar}. */
export interface SidecarOptions {
  /** Address to listen on. */
  hostname: string;
  /** TCP port (0 picks a free one). */
  port: number;
  /** Hub WebSocket URL including `client=telnet`. */
  hubUrl: string;
  /** Engine HTTP base URL (for the MSSP player count). */
  httpBase: string;
  gameName: string;
  /** Most telnet connections at once (0 = no limit). */
  maxConnections: number;
  /** Most telnet connections from one IP (0 = no limit). */
  maxConnectionsPerIp: number;
  limits?: Partial<ClientLimits>;
  log?: (line: string) => void;
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
  #listener: Deno.TcpListener | null = null;
  #accepting: Promise<void> = Promise.resolve();
  #stopping = false;

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
      for (const c of this.#clients) c.redial(REDIAL_SPREAD_MS);
    });
    this.#ctx = {
      hubUrl: opts.hubUrl,
      mssp,
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

  /** Tells every player the server is stopping, closes their sockets and the listener. */
  async shutdown(): Promise<void> {
    if (this.#stopping) return;
    this.#stopping = true;
    this.#watch.stop();
    try {
      this.#listener?.close();
    } catch { /* already closed */ }
    await Promise.all([...this.#clients].map((c) => c.shutdown()));
    await this.#accepting;
  }

  async #accept(listener: Deno.TcpListener): Promise<void> {
    try {
      for await (const conn of listener) this.#admit(conn);
    } catch (e) {
      if (!this.#stopping) this.#log(`telnet: listener failed: ${(e as Error).message}`);
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
    this.#perIp.set(ip, perIp + 1);
    const client = new TelnetClient(conn, this.#ctx);
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

/** Writes a one-line refusal and closes, without waiting on a client that may not read. */
function refuse(conn: Deno.Conn, message: string): void {
  conn.write(encodeText(message + "\n")).catch(() => {}).finally(() => {
    try {
      conn.close();
    } catch { /* already closed */ }
  });
}
