/**
 * The hub: every open connection, player → connections and room → players in
 * memory, fan-out, login and logout, inbound frames and the limits on them.
 */
import type { Services } from "../services.ts";
import { hasFlag, isStaff } from "../world/flags.ts";
import type { DbObject } from "../world/types.ts";
import type { ObjectChange } from "../world/objects.ts";
import { PlayerCards } from "./cards.ts";
import { CloseCode, Connection, type ConnectionHooks, type Task } from "./connection.ts";
import { CommandRateLimiter, idleSweepMs, IpCounter, looksLikeIp } from "./limits.ts";
import { type LoginHost, preLogin } from "./login.ts";
import {
  binaryText,
  clientKind,
  EncodedFrame,
  type InboundFrame,
  MAX_FRAME_BYTES,
  parseFrame,
  textTooLarge,
} from "./protocol.ts";
import { RoomIndex } from "./rooms.ts";
import { checkSidecarProof, SIDECAR_HEADER } from "./sidecar_auth.ts";
import type { HubApi, HubConnection, Outbound, OutboundData, PlayerCard } from "./types.ts";
import { wantsColour } from "../text/colour_mode.ts";
import { HUH, MAX_LINE } from "../commands/limits.ts";

/** Runs one command line of a logged-in connection (the command engine's `dispatch`). */
export type Dispatcher = (conn: HubConnection, line: string) => Promise<void>;

/** Connections that have not logged in are closed after this long without input. */
export const LOGIN_TIMEOUT_MS = 10 * 60 * 1000;

/** Times the sidecar reports are believed back this far (a year); older ones are ignored. */
const REPORTED_TIME_LIMIT_MS = 365 * 24 * 60 * 60 * 1000;

/** Used until the command engine is wired in: every line is unknown. */
function noCommands(conn: HubConnection): Promise<void> {
  conn.send({ msg: HUH, data: { type: "error" } });
  return Promise.resolve();
}

function errorOut(msg: string): Outbound {
  return { msg, data: { type: "error" } };
}

/** Settings for {@linkcode Hub}. */
export interface HubOptions {
  /**
   * The telnet sidecar's secret (see sidecar_auth.ts); null or absent: no connection is trusted
   * as the sidecar.
   */
  sidecarSecret?: string | null;
}

/** The WebSocket hub (see docs/protocol.md for the wire format). */
export class Hub implements HubApi, LoginHost {
  readonly #sidecarSecret: string | null;
  /** A wrong sidecar secret was reported (once per run: a misconfiguration, or someone probing). */
  #wrongSecretLogged = false;
  #services: Services | null = null;
  #dispatch: Dispatcher = noCommands;
  readonly #conns = new Map<string, Connection>();
  readonly #players = new Map<string, Set<Connection>>();
  readonly #rooms = new RoomIndex();
  readonly #ips = new IpCounter();
  readonly #rate = new CommandRateLimiter();
  /** Name, moniker, flags and owner of each connected player, kept current from the store. */
  readonly #cards = new PlayerCards();
  #unfollow: (() => void) | null = null;
  #idleTimer: ReturnType<typeof setTimeout> | null = null;
  #seq = 0;
  #stopping = false;
  /** Set with `#stopping`: whether the engine is coming back. */
  #restarting = false;
  readonly #hooks: ConnectionHooks = {
    opened: (conn) => this.#opened(conn),
    frame: (conn, data) => this.#frame(conn, data),
    run: (conn, task) => this.#run(conn, task),
    closed: (conn) => this.#closed(conn),
  };

  constructor(opts: HubOptions = {}) {
    this.#sidecarSecret = opts.sidecarSecret ?? null;
  }

  /** Wires the hub to the engine's services (they hold the hub too, hence after construction). */
  start(services: Services, dispatch?: Dispatcher): void {
    this.#services = services;
    if (dispatch) this.#dispatch = dispatch;
    this.#unfollow?.();
    this.#unfollow = services.objects.onChange((change) => this.#objectChanged(change));
  }

  /**
   * A committed change to a connected player (from any writer: commands, REST, plugins)
   * refreshes its card and, when it moved, its place in the room index.
   */
  #objectChanged(change: ObjectChange): void {
    const card = this.#cards.apply(change);
    const to = change.after?.location;
    if (card && to && this.#rooms.has(card.id)) this.#rooms.place(card.id, to);
    if (card) this.#applyColour(card.id);
  }

  /**
   * Brings each connection of a player in line with its colour setting: plain connections
   * render by it; JSON clients (web, the telnet sidecar) are told with a `colour` frame and
   * decide themselves (the sidecar knows the terminal). Only on a change, never per message.
   */
  #applyColour(playerId: string): void {
    const mode = this.#cards.get(playerId)?.colour;
    const set = this.#players.get(playerId);
    if (!mode || !set) return;
    for (const c of set) {
      if (c.colourMode === mode) continue;
      c.colourMode = mode;
      // A plain WebSocket client says nothing of its terminal: colour unless switched off.
      c.colour = wantsColour(mode, true);
      c.send({ msg: "", data: { type: "colour", mode } });
    }
  }

  /** Replaces the command dispatcher (the command engine, once built). */
  setDispatcher(dispatch: Dispatcher): void {
    this.#dispatch = dispatch;
  }

  /** The services (throws if `start` was not called). */
  get services(): Services {
    if (!this.#services) throw new Error("hub: start() was not called");
    return this.#services;
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
    let upgraded: { socket: WebSocket; response: Response };
    try {
      // No per-socket ping timer (it costs ~3 KiB per idle connection): the hub's one idle
      // sweep closes silent connections instead (docs/protocol.md, "Limits").
      upgraded = Deno.upgradeWebSocket(req, { idleTimeout: 0 });
    } catch {
      return Response.json({ error: "Expected a WebSocket upgrade." }, { status: 400 });
    }
    const { socket, response } = upgraded;
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
      return response;
    }
    this.#conns.set(conn.id, conn);
    // The telnet sidecar's connections all come from its own address; each counts under the
    // IP it reports for its player instead (see #clientFrame).
    if (!conn.sidecar) {
      this.#ips.add(conn.ip);
      conn.ipCounted = true;
    }
    if (token) conn.pendingLogin = { token, resume };
    conn.listen();
    this.#armIdle();
    return response;
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
    if (cfg.maxConnections > 0 && this.#conns.size >= cfg.maxConnections) {
      return "The server has too many connections right now. Please try again later.";
    }
    if (
      !conn.sidecar && cfg.maxConnectionsPerIp > 0 &&
      this.#ips.count(conn.ip) >= cfg.maxConnectionsPerIp
    ) return "Too many connections from your address.";
    return null;
  }

  #opened(conn: Connection): void {
    const login = conn.pendingLogin;
    conn.pendingLogin = null;
    if (login) conn.enqueue(() => this.#tokenLogin(conn, login.token, login.resume, true));
    else this.#connectScreen(conn);
  }

  #connectScreen(conn: Connection): void {
    const screen = this.services.texts.get("connect").trimEnd();
    // server.banner (set with @site) is a notice for everyone about to log in.
    const banner = this.services.config.value.server.banner.trim();
    conn.send({ msg: banner ? `${screen}\n\n${banner}` : screen, data: { type: "connect" } });
  }

  async #tokenLogin(
    conn: Connection,
    token: string,
    resume: boolean,
    atOpen: boolean,
  ): Promise<void> {
    const s = this.services;
    if (conn.playerId) {
      conn.send(errorOut("You are already logged in."));
      return;
    }
    const id = await s.tokens.verify(token);
    const player = id ? await s.objects.get(id) : null;
    if (conn.closed) return;
    if (!player || !hasFlag(player.flags, "player")) {
      conn.send(errorOut("Invalid or expired token."));
      if (atOpen) this.#connectScreen(conn);
      return;
    }
    await this.login(conn, player, resume);
  }

  // ---- inbound frames --------------------------------------------------------------------

  #frame(conn: Connection, data: unknown): void {
    if (conn.closed) return;
    if (typeof data !== "string") {
      if (!(data instanceof ArrayBuffer) || data.byteLength > MAX_FRAME_BYTES) {
        return this.#tooLarge(conn);
      }
      // A binary frame is read as UTF-8 text. Text frames never get here with bad UTF-8:
      // the runtime drops such a socket itself (docs/protocol.md).
      const text = binaryText(data);
      if (text === null) return this.#notUtf8(conn);
      return this.#handle(conn, parseFrame(text));
    }
    if (textTooLarge(data)) return this.#tooLarge(conn);
    this.#handle(conn, parseFrame(data));
  }

  #notUtf8(conn: Connection): void {
    console.warn(`hub: closing ${conn.id} (${conn.ip}): a frame that is not valid UTF-8`);
    conn.close("Frames must be UTF-8 text.", CloseCode.invalidData);
  }

  #tooLarge(conn: Connection): void {
    console.warn(`hub: closing ${conn.id} (${conn.ip}): frame over ${MAX_FRAME_BYTES} bytes`);
    conn.close(`Frame too large (limit ${MAX_FRAME_BYTES} bytes).`, CloseCode.tooBig);
  }

  #handle(conn: Connection, f: InboundFrame): void {
    switch (f.kind) {
      case "lines": {
        let admitted = false;
        for (const line of f.lines) {
          if (this.#admit(conn)) admitted = conn.enqueue(line) || admitted;
        }
        for (let i = 0; i < f.tooLong; i++) {
          if (this.#admit(conn)) {
            admitted = true;
            conn.send(errorOut(`That line is too long (the limit is ${MAX_LINE} characters).`));
          }
        }
        // Read (not yet run): what the telnet sidecar paces by. A dropped frame gets no ack.
        if (f.ack !== undefined && admitted) {
          conn.send({ msg: "", data: { type: "ack", id: f.ack } });
        }
        return;
      }
      case "auth":
        if (this.#admit(conn)) {
          conn.enqueue(() => this.#tokenLogin(conn, f.token, f.resume, false));
        }
        return;
      case "window":
        if (f.width !== null) conn.width = f.width;
        if (f.height !== null) conn.height = f.height;
        return;
      case "client":
        return this.#clientFrame(conn, f);
      case "ping":
        // A keepalive (the hub sends no WebSocket pings): answered, but not activity. The pong
        // echoes the id, so a client (the telnet sidecar's pacing) knows what has been read.
        if (this.#admit(conn, false)) {
          conn.send({
            msg: "",
            data: f.id === null ? { type: "pong" } : { type: "pong", id: f.id },
          });
        }
        return;
      case "bad":
        if (this.#admit(conn)) conn.send(errorOut(f.error));
        return;
    }
  }

  /**
   * The sidecar reports its telnet client's IP, terminal, and when it connected and last typed
   * (so `who` and the idle limit see through engine restarts); trusted only from a connection
   * that proved itself the sidecar with its secret.
   */
  #clientFrame(conn: Connection, f: Extract<InboundFrame, { kind: "client" }>): void {
    if (!conn.sidecar) {
      if (this.#admit(conn)) {
        conn.send(errorOut("Client frames are accepted only from the telnet sidecar."));
      }
      return;
    }
    const { ip, ttype } = f;
    if (ttype) conn.ttype = ttype;
    const now = Date.now();
    const past = (t: number | null) => t !== null && t <= now && t > now - REPORTED_TIME_LIMIT_MS;
    if (past(f.connectedAt)) conn.connectedAt = Math.min(conn.connectedAt, f.connectedAt!);
    // Until this connection has had input of its own, the sidecar knows better.
    if (past(f.lastInput) && !conn.inputSeen) {
      conn.lastInput = Math.max(f.lastInput!, conn.connectedAt);
    }
    if (!ip || !looksLikeIp(ip) || ip === conn.ip) return;
    if (conn.ipCounted) this.#ips.remove(conn.ip);
    conn.ip = ip;
    const cap = this.services.config.value.server.maxConnectionsPerIp;
    this.#ips.add(ip);
    conn.ipCounted = true;
    if (cap > 0 && this.#ips.count(ip) > cap) {
      conn.close("Too many connections from your address.", CloseCode.policy);
    }
  }

  /**
   * Counts one command against the rate limit (per player once logged in, so
   * several connections share it; per connection before). False means drop it.
   */
  #admit(conn: Connection, activity = true): boolean {
    const now = Date.now();
    const pid = conn.playerId;
    if (activity) {
      conn.lastInput = now;
      conn.inputSeen = true;
      if (pid) this.services.presence.touch(pid);
    }
    const key = pid ? `p:${pid}` : `c:${conn.id}`;
    if (this.#rate.allow(key, now)) return true;
    if (this.#rate.shouldReport(key, now)) {
      this.services.securityLog.write("WS_RATE_LIMITED", {
        actor: pid,
        ip: conn.ip,
        detail: "commands over 10 per second dropped",
      });
    }
    return false;
  }

  async #run(conn: Connection, task: Task): Promise<void> {
    if (typeof task !== "string") return await task();
    if (!conn.playerId) return await preLogin(this, conn, task);
    if (task.trim().toLowerCase() === "quit") return conn.close("Goodbye!");
    try {
      await this.#dispatch(conn, task);
    } catch (e) {
      console.error(`hub: command failed for #${conn.playerId}: ${(e as Error)?.stack ?? e}`);
      conn.send(errorOut("Something went wrong running that command."));
    }
  }

  // ---- login and logout ------------------------------------------------------------------

  /** Why a new non-staff player could not log in now, or null. */
  fullProblem(): string | null {
    const max = this.services.config.value.game.maxPlayers;
    if (max > 0 && this.services.presence.size >= max) {
      return `The game is full (${max} players). Please try again later.`;
    }
    return null;
  }

  /** Logs a connection in as `player`; `resumed` is the silent resume after an engine restart. */
  async login(conn: Connection, player: DbObject, resumed: boolean): Promise<boolean> {
    const s = this.services;
    if (conn.closed) return false;
    if (conn.playerId) {
      conn.send(errorOut("You are already logged in."));
      return false;
    }
    const staff = isStaff(player.flags);
    if (!resumed && !staff && !s.presence.isOnline(player.id)) {
      const full = this.fullProblem();
      if (full) {
        conn.send(errorOut(full));
        return false;
      }
    }
    // Everything up to presence.add is synchronous, so two logins cannot both pass the cap.
    const id = player.id;
    conn.playerId = id;
    conn.name = player.name;
    let set = this.#players.get(id);
    if (!set) {
      set = new Set();
      this.#players.set(id, set);
    }
    set.add(conn);
    this.#cards.offer(player);
    const colour = this.#cards.get(id)?.colour ?? "auto";
    conn.colourMode = colour;
    conn.colour = wantsColour(colour, true);
    if (!this.#rooms.has(id)) this.#rooms.place(id, player.location);
    this.#rate.forget(`c:${conn.id}`);
    let justOnline = false;
    try {
      justOnline = await s.presence.add(id);
    } catch (e) {
      console.error(`hub: presence.add(${id}): ${(e as Error).message}`);
    }
    if (conn.closed) return false;
    if (conn.kind !== "plain") {
      conn.send({
        msg: "",
        data: {
          type: "session",
          token: await s.tokens.sign(id),
          player: { id, name: player.name },
          resumed,
          colour,
        },
      });
    }
    if (resumed) return true;
    if (justOnline) {
      const room = this.#rooms.roomOf(id);
      if (room) {
        this.sendToRoom(room, {
          msg: `${player.name} has connected.`,
          data: { type: "connect", player: { id, name: player.name } },
        }, [id]);
      }
    }
    const game = s.config.value.game;
    this.#text(conn, s.texts.get("motd"), "motd");
    this.#text(conn, game.loginMessage, "motd");
    this.#text(conn, s.texts.get("welcome"), "welcome");
    this.#text(conn, game.welcomeMessage, "welcome");
    conn.enqueueNext("look");
    return true;
  }

  #text(conn: Connection, text: string, type: string): void {
    const msg = text.replace(/\s+$/, "");
    if (msg) conn.send({ msg, data: { type } });
  }

  #closed(conn: Connection): void {
    if (this.#conns.get(conn.id) !== conn) return;
    this.#conns.delete(conn.id);
    if (conn.ipCounted) this.#ips.remove(conn.ip);
    this.#rate.forget(`c:${conn.id}`);
    const pid = conn.playerId;
    if (pid) {
      const set = this.#players.get(pid);
      set?.delete(conn);
      if (set && set.size === 0) {
        this.#players.delete(pid);
        // The card follows renames, so the room hears the current name without a read.
        const name = this.#cards.get(pid)?.name ?? conn.name;
        this.#cards.delete(pid);
        const room = this.#rooms.roomOf(pid);
        this.#rooms.remove(pid);
        if (room && !this.#stopping) {
          this.sendToRoom(room, {
            msg: `${name} has disconnected.`,
            data: { type: "disconnect", player: { id: pid, name } },
          }, [pid]);
        }
      }
      this.services.presence.remove(pid).catch((e) => {
        if (!this.#stopping) console.error(`hub: presence.remove(${pid}): ${e.message}`);
      });
    }
    if (this.#conns.size === 0) this.#disarmIdle();
  }

  // ---- idle timeout: one timer for all connections ---------------------------------------

  #armIdle(): void {
    if (this.#idleTimer !== null || this.#stopping || this.#conns.size === 0) return;
    const ms = idleSweepMs(this.services.config.value.game.idleTimeout);
    this.#idleTimer = setTimeout(() => {
      this.#idleTimer = null;
      try {
        this.#sweepIdle();
      } catch (e) {
        console.error(`hub: idle sweep: ${e}`);
      }
      this.#armIdle();
    }, ms);
  }

  #disarmIdle(): void {
    if (this.#idleTimer !== null) clearTimeout(this.#idleTimer);
    this.#idleTimer = null;
  }

  #sweepIdle(): void {
    const now = Date.now();
    const loginCutoff = now - LOGIN_TIMEOUT_MS;
    for (const c of this.#conns.values()) {
      // Sockets have no ping timer, so silent pre-login connections (half-open ones included)
      // end here.
      if (!c.playerId && c.lastInput < loginCutoff) {
        c.close("Connection timed out (no login within 10 minutes).");
      }
    }
    const limit = this.services.config.value.game.idleTimeout;
    if (limit <= 0) return;
    const cutoff = now - limit * 1000;
    const idle = [...this.#conns.values()].filter((c) =>
      c.playerId && !c.closed && c.lastInput < cutoff &&
      !isStaff(this.#cards.get(c.playerId)?.flags ?? [])
    );
    for (const c of idle) {
      c.close(`You have been idle for more than ${formatSeconds(limit)}. Goodbye!`);
    }
  }

  // ---- HubApi ----------------------------------------------------------------------------

  /** Sends to every connection of a player. */
  send(playerId: string, out: Outbound): void {
    const set = this.#players.get(playerId);
    if (!set) return;
    const frame = new EncodedFrame(out);
    for (const c of set) c.deliver(frame);
  }

  /** Sends to every connected player in a room except `exclude`; encodes once per client kind. */
  sendToRoom(roomId: string, out: Outbound, exclude: readonly string[] = []): void {
    const members = this.#rooms.members(roomId);
    if (!members) return;
    const frame = new EncodedFrame(out);
    for (const pid of members) {
      if (exclude.length && exclude.includes(pid)) continue;
      const set = this.#players.get(pid);
      if (set) { for (const c of set) c.deliver(frame); }
    }
  }

  /** Sends to every logged-in connection. */
  broadcast(out: Outbound): void {
    const frame = new EncodedFrame(out);
    for (const set of this.#players.values()) {
      for (const c of set) c.deliver(frame);
    }
  }

  /** Open connections of a player. */
  connections(playerId: string): readonly HubConnection[] {
    const set = this.#players.get(playerId);
    return set ? [...set] : [];
  }

  /** Every open connection, logged in or not. */
  allConnections(): readonly HubConnection[] {
    return [...this.#conns.values()];
  }

  /** Ids of connected players in a room. */
  playersIn(roomId: string): readonly string[] {
    const members = this.#rooms.members(roomId);
    return members ? [...members] : [];
  }

  /** Ids of connected players, in order of login. */
  onlinePlayers(): readonly string[] {
    return [...this.#players.keys()];
  }

  /** A connected player's card (name, moniker, flags, owner), from memory. */
  playerCard(playerId: string): PlayerCard | undefined {
    return this.#cards.get(playerId);
  }

  /**
   * Offers a fresh read of a player to its card (ignored when offline or not newer). A newer
   * read also corrects the room index: it saw a change the store's events did not bring.
   */
  refreshCard(player: DbObject): void {
    if (!this.#cards.refresh(player)) return;
    this.#applyColour(player.id);
    if (player.location && this.#rooms.has(player.id)) {
      this.#rooms.place(player.id, player.location);
    }
  }

  /** The room a connected player is in (from memory), or undefined. */
  roomOf(playerId: string): string | undefined {
    return this.#rooms.roomOf(playerId);
  }

  /** Keeps the room index right after a connected player moved. */
  moved(playerId: string, _from: string, to: string): void {
    if (this.#rooms.has(playerId)) this.#rooms.place(playerId, to);
  }

  /** Closes every connection of a player, telling it why. */
  disconnect(playerId: string, reason: string): void {
    const set = this.#players.get(playerId);
    if (!set) return;
    for (const c of [...set]) c.close(reason);
  }

  /** Sends a structured error to one connection. */
  error(conn: HubConnection, msg: string, data?: Omit<OutboundData, "type">): void {
    conn.send({ msg, data: { ...data, type: "error" } });
  }

  /** Number of open connections. */
  get size(): number {
    return this.#conns.size;
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
    this.#disarmIdle();
    this.#unfollow?.();
    this.#unfollow = null;
    const conns = [...this.#conns.values()];
    for (const c of conns) {
      c.send({ msg: reason, data: { type: "disconnect", restart } });
      c.close(undefined, CloseCode.restart);
    }
    if (!conns.length) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.all(conns.map((c) => c.whenSocketClosed())),
      new Promise((r) => timer = setTimeout(r, waitMs)),
    ]);
    clearTimeout(timer);
  }
}

/** "90 minutes", "1 hour", "45 seconds". */
function formatSeconds(s: number): string {
  if (s % 3600 === 0) return s === 3600 ? "1 hour" : `${s / 3600} hours`;
  if (s % 60 === 0) return s === 60 ? "1 minute" : `${s / 60} minutes`;
  return s === 1 ? "1 second" : `${s} seconds`;
}
