/**
 * The hub: the clients of the game, whatever carries them (src/hub/carriers/). A carrier opens
 * each client's session with `connect` (caps and the stop are checked there); the hub wires it
 * to inbound handling (frames, lines and their limits), sessions (login, logout, the connect
 * screen), the registry (who is online and where) and the idle sweep, and closes them all at a
 * stop or restart. Delivery and presence are the registry's other two faces (delivery.ts,
 * presence.ts), built beside the hub by the engine.
 */
import type { DbObject } from "../world/types.ts";
import { CloseCode, Connection, type ConnectionHooks } from "./connection.ts";
import type { Delivery } from "./types.ts";
import { IdleSweep } from "./idle.ts";
import { type Dispatcher, type GmcpReceiver, Inbound } from "./inbound.ts";
import { AddressCounts } from "../net/address_counts.ts";
import type { SessionRegistry } from "./registry.ts";
import type { Session, SessionHub, SessionOpening } from "./session.ts";
import { type SessionDeps, Sessions } from "./sessions.ts";

/** What the hub needs of the engine. */
export interface HubDeps extends SessionDeps {
  /** Who is online and where (shared with delivery and presence). */
  registry: SessionRegistry;
  /** The engine's one delivery (the hub's own messages go through it too). */
  delivery: Delivery;
  /** Runs a logged-in connection's command line (the command engine's `dispatch`). */
  run: Dispatcher;
  /** Hands a logged-in player's inbound GMCP message to the plugin that handles its package. */
  gmcpIn: GmcpReceiver;
}

/** Told to a connection whose login was still being checked when the engine stopped. */
export const LOGIN_CUT_SHORT =
  "Your login did not finish before the server stopped. Please log in again.";

/** The hub (see docs/protocol.md for what clients send and get). */
export class Hub implements SessionHub {
  readonly #deps: HubDeps;
  readonly #registry: SessionRegistry;
  readonly #sessions: Sessions;
  readonly #inbound: Inbound;
  readonly #idle: IdleSweep;
  readonly #ips = new AddressCounts();
  #seq = 0;
  #stopping = false;
  /** Set with `#stopping`: whether the engine is coming back. */
  #restarting = false;
  /** What carriers asked to have closed when the hub stops (the sidecar's links). */
  readonly #onStop = new Set<() => void>();
  readonly #hooks: ConnectionHooks = {
    frame: (conn, data) => this.#inbound.frame(conn, data),
    line: (conn, text) => this.#inbound.line(conn, text),
    report: (conn, report) => this.#inbound.report(conn, report),
    gmcp: (conn, pkg, data) => this.#inbound.gmcp(conn, pkg, data),
    run: (conn, task) => this.#inbound.run(conn, task),
    closed: (conn) => this.#closed(conn),
  };

  constructor(deps: HubDeps) {
    this.#deps = deps;
    this.#registry = deps.registry;
    this.#sessions = new Sessions(
      deps,
      { stopping: () => this.#stopping, loggedIn: (conn) => this.#inbound.loggedIn(conn) },
      deps.registry,
      deps.delivery,
    );
    this.#inbound = new Inbound(deps, this.#ips, this.#sessions, deps.run, deps.gmcpIn);
    this.#idle = new IdleSweep(deps.registry, () => deps.config);
  }

  /** True once the hub is stopping (a carrier refuses new links then). */
  get stopping(): boolean {
    return this.#stopping;
  }

  /**
   * Opens a client's session, once its carrier can send to it. A session over a cap, or opened
   * while the hub stops, is told why and closed at once (the connection returned is closed).
   */
  connect(session: Session, o: SessionOpening): Connection {
    const conn = new Connection(`c${++this.#seq}`, o.kind, o.ip, session, this.#hooks, Date.now());
    conn.sidecar = o.trusted;
    const refusal = this.#stopping ? "The server is shutting down." : this.#capProblem(conn);
    if (refusal) {
      // While stopping, 1012 like the connections being closed: a client that reconnects as
      // soon as its socket closes (a telnet client) must try again, not give up (1008).
      if (this.#stopping) {
        conn.send({ msg: refusal, data: { type: "disconnect", restart: this.#restarting } });
        conn.close(undefined, CloseCode.restart);
      } else conn.close(refusal, CloseCode.policy);
      return conn;
    }
    this.#registry.open(conn);
    // The telnet sidecar's connections all come from its own address; each counts under the
    // IP it reports for its player instead (see inbound.ts, reports).
    if (!conn.sidecar) {
      this.#ips.add(conn.ip);
      conn.ipCounted = true;
    }
    this.#sessions.opened(conn, o.token ? { token: o.token, resume: o.resume === true } : null);
    this.#idle.arm();
    return conn;
  }

  /**
   * Runs `close` when the hub stops, after every connection was told and closed (a carrier's
   * link, which would keep the listener's own shutdown waiting); returns its remover.
   */
  onStop(close: () => void): () => void {
    this.#onStop.add(close);
    return () => this.#onStop.delete(close);
  }

  #capProblem(conn: Connection): string | null {
    const cfg = this.#deps.config.value.server;
    if (cfg.maxConnections > 0 && this.#registry.connectionCount >= cfg.maxConnections) {
      return "The server has too many connections right now. Please try again later.";
    }
    if (
      !conn.sidecar && cfg.maxConnectionsPerIp > 0 &&
      this.#ips.count(conn.ip) >= cfg.maxConnectionsPerIp
    ) return "Too many connections from your address.";
    return null;
  }

  #closed(conn: Connection): void {
    if (!this.#registry.close(conn)) return;
    if (conn.ipCounted) this.#ips.remove(conn.ip);
    this.#inbound.closed(conn);
    this.#sessions.loggedOut(conn);
    if (this.#registry.connectionCount === 0) this.#idle.disarm();
  }

  /** Logs a connection in as `player` (see sessions.ts). */
  login(
    conn: Connection,
    player: DbObject,
    resumed: boolean,
    generation?: number,
  ): Promise<boolean> {
    return this.#sessions.login(conn, player, resumed, generation);
  }

  /**
   * Closes every connection (engine stop or restart) with close code 1012, so clients such as
   * the telnet sidecar know to reconnect; no room messages are sent, only `reason` as each
   * connection's `disconnect` frame, whose `restart` says whether the engine is coming back
   * (a telnet client words its notice by it). Resolves when the transports have closed, or
   * after `waitMs`: closing the listeners first would cut them off with a different code.
   */
  async shutdown(
    reason = "The server is shutting down.",
    waitMs = 1000,
    restart = false,
  ): Promise<void> {
    // The first call decides (the listeners' own shutdown calls again without a reason).
    const first = !this.#stopping;
    if (first) this.#restarting = restart;
    this.#stopping = true;
    this.#idle.stop();
    this.#sessions.stop();
    // Work already acknowledged (a login in its password check, lines read behind a slow
    // command) finishes first: a login typed as the restart began ends logged in and is resumed,
    // instead of being lost without a word. The engine's telnet players type nothing more into
    // this hub meanwhile (their carrier keeps their lines for the next engine).
    if (first) await this.#settle([...this.#registry.connections()], waitMs);
    const conns = [...this.#registry.connections()];
    for (const c of conns) {
      // Before login, a typed line still under way is a `connect` or `create`: it did not finish.
      if (c.runningTyped && !c.playerId) c.send({ msg: LOGIN_CUT_SHORT, data: { type: "error" } });
      c.send({ msg: reason, data: { type: "disconnect", restart } });
      c.close(undefined, CloseCode.restart);
    }
    // The sessions' last lines and closes go out on each link, then the link closes too.
    for (const close of this.#onStop) close();
    if (!conns.length) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.all(conns.map((c) => c.whenSocketClosed())),
      new Promise((r) => timer = setTimeout(r, waitMs)),
    ]);
    clearTimeout(timer);
  }

  /** Waits until `conns` have no work left, or `ms` passed. */
  async #settle(conns: Connection[], ms: number): Promise<void> {
    const busy = conns.map((c) => c.whenIdle());
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.all(busy),
      new Promise((r) => timer = setTimeout(r, ms)),
    ]);
    clearTimeout(timer);
  }
}
