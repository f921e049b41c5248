/**
 * The hub: accepts WebSocket connections (caps, the sidecar's proof), wires each to the
 * session registry (who is online), inbound handling (frames and limits), sessions (login,
 * logout, MOTD), the idle sweep and fan-out, and answers the engine's HubApi from them.
 */
import type { Services } from "../services.ts";
import type { DbObject } from "../world/types.ts";
import { CloseCode, Connection, type ConnectionHooks } from "./connection.ts";
import { Fanout } from "./fanout.ts";
import type { GmcpMap } from "./gmcp_map.ts";
import { IdleSweep } from "./idle.ts";
import { type Dispatcher, Inbound } from "./inbound.ts";
import { IpCounter } from "./limits.ts";
import { clientKind } from "./protocol.ts";
import { SessionRegistry } from "./registry.ts";
import { Sessions } from "./sessions.ts";
import { checkSidecarProof, SIDECAR_HEADER } from "./sidecar_auth.ts";
import { MuxLink, type MuxSocket } from "./mux_link.ts";
import { LocalLink } from "./local_link.ts";
import type { HubApi, HubConnection, Outbound, PlayerCard, PlayerIds } from "./types.ts";

/** Settings for {@linkcode Hub}. */
export interface HubOptions {
  /**
   * The telnet sidecar's secret (see sidecar_auth.ts); null or absent: no connection is trusted
   * as the sidecar.
   */
  sidecarSecret?: string | null;
  /** Plugin-declared GMCP mappings, applied for telnet clients (see gmcp_map.ts). */
  gmcp?: GmcpMap | null;
}

/** The WebSocket hub (see docs/protocol.md for the wire format). */
export class Hub implements HubApi {
  readonly #sidecarSecret: string | null;
  /** A wrong sidecar secret was reported (once per run: a misconfiguration, or someone probing). */
  #wrongSecretLogged = false;
  #services: Services | null = null;
  readonly #registry = new SessionRegistry();
  readonly #fanout: Fanout;
  readonly #sessions: Sessions;
  readonly #idle: IdleSweep;
  #inbound: Inbound | null = null;
  readonly #ips = new IpCounter();
  #unfollow: (() => void) | null = null;
  #seq = 0;
  /** Open sidecar links (each carries many telnet sessions). */
  readonly #links = new Set<MuxLink>();
  #stopping = false;
  /** Set with `#stopping`: whether the engine is coming back. */
  #restarting = false;
  readonly #hooks: ConnectionHooks = {
    opened: (conn) => this.#sessions.opened(conn),
    frame: (conn, data) => this.#in.frame(conn, data),
    run: (conn, task) => this.#in.run(conn, task),
    closed: (conn) => this.#closed(conn),
  };

  constructor(opts: HubOptions = {}) {
    this.#sidecarSecret = opts.sidecarSecret ?? null;
    this.#fanout = new Fanout(this.#registry, opts.gmcp ?? null);
    this.#sessions = new Sessions(
      {
        services: () => this.services,
        stopping: () => this.#stopping,
        loggedIn: (conn) => this.#in.loggedIn(conn),
      },
      this.#registry,
      this.#fanout,
    );
    this.#idle = new IdleSweep(this.#registry, () => this.services.config);
  }

  /** Wires the hub to the engine's services (they hold the hub too, hence after construction). */
  start(services: Services, dispatch: Dispatcher): void {
    this.#services = services;
    this.#inbound = new Inbound(services, this.#ips, this.#sessions, dispatch);
    this.#unfollow?.();
    this.#unfollow = services.objects.onChange((change) => {
      const card = this.#registry.changed(change);
      if (card) this.#sessions.applyColour(card.id);
    });
  }

  /** The services (throws if `start` was not called). */
  get services(): Services {
    if (!this.#services) throw new Error("hub: start() was not called");
    return this.#services;
  }

  get #in(): Inbound {
    if (!this.#inbound) throw new Error("hub: start() was not called");
    return this.#inbound;
  }

  // ---- accepting connections ------------------------------------------------------------

  /** Upgrades an HTTP request to a hub WebSocket; `peerIp` is the socket's remote address. */
  accept(req: Request, peerIp: string): Response {
    const url = new URL(req.url);
    const kind = clientKind(url.searchParams.get("client"));
    const token = url.searchParams.get("token");
    const resume = /^(1|true|yes)$/i.test(url.searchParams.get("resume") ?? "");
    // Before the upgrade, which makes the request's headers unreadable.
    const sidecar = kind === "telnet" && this.#provesSidecar(req, peerIp);
    if (url.searchParams.get("mux") === "1") return this.#acceptLink(req, peerIp, sidecar);
    let upgraded: { socket: WebSocket; response: Response };
    try {
      // No per-socket ping timer (it costs ~3 KiB per idle connection): the hub's one idle
      // sweep closes silent connections instead (docs/protocol.md, "Limits").
      upgraded = Deno.upgradeWebSocket(req, { idleTimeout: 0 });
    } catch {
      return Response.json({ error: "Expected a WebSocket upgrade." }, { status: 400 });
    }
    const { socket, response } = upgraded;
    this.#attach(socket, kind, peerIp, sidecar, token, resume);
    return response;
  }

  /**
   * The sidecar's one link for all its telnet sessions (`?client=telnet&mux=1`). Its sessions
   * are the sidecar's when the link's handshake carried the secret; without it (a sidecar
   * started apart with a wrong secret) they are ordinary clients of the link's address, each
   * counted and capped as if it had a socket of its own.
   */
  #acceptLink(req: Request, peerIp: string, sidecar: boolean): Response {
    if (this.#stopping) {
      return Response.json({ error: "The server is shutting down." }, { status: 503 });
    }
    let upgraded: { socket: WebSocket; response: Response };
    try {
      upgraded = Deno.upgradeWebSocket(req, { idleTimeout: 0 });
    } catch {
      return Response.json({ error: "Expected a WebSocket upgrade." }, { status: 400 });
    }
    const link = new MuxLink(upgraded.socket, (socket: MuxSocket, query) => {
      const token = query.get("token");
      const resume = /^(1|true|yes)$/i.test(query.get("resume") ?? "");
      const kind = clientKind(query.get("client"));
      this.#attach(socket as unknown as WebSocket, kind, peerIp, sidecar, token, resume);
    }, (line) => console.warn(line));
    this.#links.add(link);
    upgraded.socket.addEventListener("close", () => this.#links.delete(link));
    return upgraded.response;
  }

  /**
   * The carrier of the telnet players the engine serves itself, on sockets the sidecar handed
   * over (src/telnet/handoff/engine_host.ts). Its sessions are trusted as the sidecar's are: the
   * sidecar proved itself on the channel the sockets came through.
   */
  openLocal(): LocalLink {
    return new LocalLink((socket, query) => {
      const token = query.get("token");
      const resume = /^(1|true|yes)$/i.test(query.get("resume") ?? "");
      this.#attach(socket as unknown as WebSocket, "telnet", "127.0.0.1", true, token, resume);
    });
  }

  /** Wires one client socket (its own WebSocket, or a session of a sidecar link) to the hub. */
  #attach(
    socket: WebSocket,
    kind: ReturnType<typeof clientKind>,
    peerIp: string,
    sidecar: boolean,
    token: string | null,
    resume: boolean,
  ): void {
    const conn = new Connection(
      `c${++this.#seq}`,
      kind,
      peerIp,
      socket,
      this.#hooks,
      Date.now(),
    );
    conn.sidecar = sidecar;
    const refusal = this.#stopping ? "The server is shutting down." : this.#capProblem(conn);
    if (refusal) {
      // While stopping, 1012 like the connections being closed: a client that reconnects as
      // soon as its socket closes (the telnet sidecar) must try again, not give up (1008).
      if (this.#stopping) {
        socket.onopen = () => {
          conn.send({ msg: refusal, data: { type: "disconnect", restart: this.#restarting } });
          conn.close(undefined, CloseCode.restart);
        };
      } else socket.onopen = () => conn.close(refusal, CloseCode.policy);
      socket.onclose = () => conn.lost();
      return;
    }
    this.#registry.open(conn);
    // The telnet sidecar's connections all come from its own address; each counts under the
    // IP it reports for its player instead (see inbound.ts, client frames).
    if (!conn.sidecar) {
      this.#ips.add(conn.ip);
      conn.ipCounted = true;
    }
    if (token) conn.pendingLogin = { token, resume };
    conn.listen();
    this.#idle.arm();
  }

  /** True when the upgrade request carries the sidecar's secret; a wrong one is logged once. */
  #provesSidecar(req: Request, peerIp: string): boolean {
    const proof = checkSidecarProof(req.headers.get(SIDECAR_HEADER), this.#sidecarSecret);
    if (proof === "wrong" && !this.#wrongSecretLogged) {
      this.#wrongSecretLogged = true;
      console.warn(
        `hub: a client=telnet connection from ${peerIp} presented a wrong sidecar secret; it is ` +
          "treated as an ordinary client (a sidecar started apart from the engine needs the " +
          "engine's URSAMU_SIDECAR_SECRET). Logged once.",
      );
    }
    return proof === "sidecar";
  }

  #capProblem(conn: Connection): string | null {
    const cfg = this.services.config.value.server;
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
    this.#inbound?.closed(conn);
    this.#sessions.loggedOut(conn);
    if (this.#registry.connectionCount === 0) this.#idle.disarm();
  }

  // ---- HubApi ----------------------------------------------------------------------------

  /** Logs a connection in as `player` (see sessions.ts). */
  login(
    conn: Connection,
    player: DbObject,
    resumed: boolean,
    generation?: number,
  ): Promise<boolean> {
    return this.#sessions.login(conn, player, resumed, generation);
  }

  /** Sends to every connection of a player. */
  send(playerId: string, out: Outbound): void {
    this.#fanout.toPlayer(playerId, out);
  }

  /** Sends to each listed player that is connected, once each; encodes once per client kind. */
  sendToPlayers(playerIds: PlayerIds, out: Outbound): void {
    this.#fanout.toPlayers(playerIds, out);
  }

  /** Sends to every connected player in a room except `exclude`; encodes once per client kind. */
  sendToRoom(roomId: string, out: Outbound, exclude: readonly string[] = []): void {
    this.#fanout.toRoom(roomId, out, exclude);
  }

  /** Sends to every logged-in connection. */
  broadcast(out: Outbound): void {
    this.#fanout.toAll(out);
  }

  /** Open connections of a player. */
  connections(playerId: string): readonly HubConnection[] {
    const set = this.#registry.connectionsOf(playerId);
    return set ? [...set] : [];
  }

  /** True when the player has at least one connection. */
  isOnline(playerId: string): boolean {
    return this.#registry.isOnline(playerId);
  }

  /** Ids of connected players in a room. */
  playersIn(roomId: string): readonly string[] {
    const members = this.#registry.members(roomId);
    return members ? [...members] : [];
  }

  /** Ids of connected players, in order of login. */
  onlinePlayers(): readonly string[] {
    return [...this.#registry.sessions().keys()];
  }

  /** A connected player's card (name, moniker, flags, owner), from memory. */
  playerCard(playerId: string): PlayerCard | undefined {
    return this.#registry.card(playerId);
  }

  /** The card of the connected player with this name (any case), from memory. */
  playerCardByName(name: string): PlayerCard | undefined {
    return this.#registry.cardByName(name);
  }

  /**
   * Offers a fresh read of a player to its card (ignored when offline or not newer). A newer
   * read also corrects the room index: it saw a change the store's events did not bring.
   */
  refreshCard(player: DbObject): void {
    if (this.#registry.refresh(player)) this.#sessions.applyColour(player.id);
  }

  /** The room a connected player is in (from memory), or undefined. */
  roomOf(playerId: string): string | undefined {
    return this.#registry.roomOf(playerId);
  }

  /** Closes every connection of a player, telling it why, except `keep` when given. */
  disconnect(playerId: string, reason: string, keep?: HubConnection): void {
    const set = this.#registry.connectionsOf(playerId);
    if (!set) return;
    for (const c of [...set]) if (c !== keep) c.close(reason);
  }

  /** Gives one of a player's connections a new session token (see sessions.ts). */
  renewSession(conn: HubConnection, token: string): void {
    const own = conn.playerId ? this.#registry.connectionsOf(conn.playerId) : undefined;
    for (const c of own ?? []) if (c === conn) this.#sessions.renew(c, token);
  }

  /**
   * Closes every connection (engine stop or restart) with close code 1012, so clients such as
   * the telnet sidecar know to reconnect; no room messages are sent, only `reason` as each
   * connection's `disconnect` frame, whose `restart` says whether the engine is coming back
   * (the sidecar words its notice by it). Resolves when the sockets have closed, or after
   * `waitMs`: closing the listeners first would cut them off with a different code.
   */
  async shutdown(
    reason = "The server is shutting down.",
    waitMs = 1000,
    restart = false,
  ): Promise<void> {
    // The first call decides (the listeners' own shutdown calls again without a reason).
    if (!this.#stopping) this.#restarting = restart;
    this.#stopping = true;
    this.#idle.stop();
    this.#unfollow?.();
    this.#unfollow = null;
    const conns = [...this.#registry.connections()];
    for (const c of conns) {
      c.send({ msg: reason, data: { type: "disconnect", restart } });
      c.close(undefined, CloseCode.restart);
    }
    // The sessions' last lines and closes go out on each link, then the link closes too (an
    // open upgraded socket would keep the listener's shutdown waiting).
    for (const link of this.#links) link.close(CloseCode.restart, "engine stopping");
    if (!conns.length) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.all(conns.map((c) => c.whenSocketClosed())),
      new Promise((r) => timer = setTimeout(r, waitMs)),
    ]);
    clearTimeout(timer);
  }
}
