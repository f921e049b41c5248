/**
 * The engine's side of the telnet handoff (docs/telnet.md, "Who holds a telnet socket"): the
 * sidecar accepts each telnet player and hands the engine a duplicate of the socket's descriptor
 * over a Unix channel; the engine serves the player on it directly, with the same TelnetClient
 * the sidecar would run, its hub session the hub's own (src/hub/carriers/telnet.ts, wired in by
 * main.ts). A typed line then crosses one process, not three. The sidecar keeps its own
 * descriptor, so the connection outlives the engine: at a restart the engine hands each player's
 * state back (`stop`) and the next engine goes on from it; after a crash the sidecar has the
 * state the engine last sent.
 */
import { createHmac } from "node:crypto";
import type { HubDialer } from "../client/hub_port.ts";
import { Adopter } from "./adopted.ts";
import { type ClientLimits, DEFAULT_LIMITS } from "../client/limits.ts";
import {
  decodeMessage,
  encodeMessage,
  HANDOFF_VERSION,
  handoffName,
  type OpenSession,
  packMessages,
  packWithFds,
  stateJson,
} from "./messages.ts";
import { RenderMemo } from "../client/render_memo.ts";
import { RateBudgets } from "../../rate/budget.ts";
import { type ClientContext, TelnetClient } from "../client/telnet_client.ts";
import { MsspSource } from "../client/mssp_source.ts";
import { closeFd, currentUid, type Libc, openLibc, sendNow, SeqPacketConn } from "./unix_fds.ts";

/** Most players' states sent in one turn of the event loop (about half a millisecond's work). */
const SYNC_SLICE = 100;

/** Pause between two slices, for everything else to run. */
const SYNC_SLICE_GAP_MS = 10;

/** Settings for {@linkcode EngineHost}. */
export interface EngineHostOptions {
  /** The secret the sidecar and the engine share (URSAMU_SIDECAR_SECRET). */
  secret: string;
  /** Opens each player's hub session (the hub's telnet carrier). */
  hub: HubDialer;
  /** For MSSP: the game's name, the telnet port, and how many players are online. */
  gameName: string;
  port: number;
  online: () => number;
  limits?: Partial<ClientLimits>;
  log?: (line: string) => void;
  /** Wait between attempts to reach the sidecar (default 250 ms). */
  retryMs?: number;
  /** Longest wait for a negotiation change to reach the sidecar (default 1 s). */
  syncMs?: number;
  /** Longest wait for the time of a typed line to reach it (default 30 s). */
  idleSyncMs?: number;
}

/** One player served here, with the sidecar's id for it. */
interface Served {
  sid: number;
  client: TelnetClient;
  /** The channel it came over (a sidecar that restarted knows nothing of it). */
  channel: SeqPacketConn;
}

/** The engine's telnet players on handed-over sockets. */
export class EngineHost {
  readonly #o: EngineHostOptions;
  readonly #log: (line: string) => void;
  readonly #libc: Libc;
  readonly #adopter: Adopter;
  readonly #ctx: ClientContext;
  readonly #served = new Map<TelnetClient, Served>();
  readonly #dirty = new Set<TelnetClient>();
  #ended: number[] = [];
  #channel: SeqPacketConn | null = null;
  /** Messages the sidecar could not take yet (it is busy), in order. */
  #backlog: Uint8Array[] = [];
  #backlogTimer: ReturnType<typeof setTimeout> | undefined;
  #syncTimer: ReturnType<typeof setTimeout> | undefined;
  #syncDue = 0;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #stopping = false;
  #startedAt = Date.now();

  /** Throws when this process cannot take descriptors (see unix_fds.ts, adopted.ts). */
  constructor(opts: EngineHostOptions) {
    this.#o = opts;
    this.#log = opts.log ?? ((line) => console.log(line));
    this.#libc = openLibc();
    this.#adopter = new Adopter((fd, bytes) => sendNow(this.#libc, fd, bytes));
    const mssp = new MsspSource({
      gameName: opts.gameName,
      httpBase: "",
      port: opts.port,
      startedAt: this.#startedAt,
      count: opts.online,
    });
    let lastResumeAnswer = 0;
    this.#ctx = {
      hub: opts.hub,
      // The sidecar's start is the game's uptime (it outlives engines).
      mssp: {
        table: () => ({ ...mssp.table(), UPTIME: String(Math.floor(this.#startedAt / 1000)) }),
        refresh: () => {},
      },
      memo: new RenderMemo(),
      // Date.now, as the connections' own budgets: the cheaper clock; a step back is absorbed.
      inputByAddress: new RateBudgets({ now: Date.now }),
      limits: { ...DEFAULT_LIMITS, ...opts.limits },
      log: this.#log,
      closed: (client) => this.#closed(client),
      waiting: () => {/* only while the engine stops: `stop` takes over */},
      resumeProgress: {
        last: () => lastResumeAnswer,
        answered: () => lastResumeAnswer = Date.now(),
      },
      changed: (client, when) => this.#changed(client, when),
    };
  }

  /** Players served here. */
  get players(): number {
    return this.#served.size;
  }

  /** True while the channel to the sidecar is up. */
  get connected(): boolean {
    return this.#channel !== null;
  }

  /** Reaches for the sidecar, and again whenever the channel is lost, until `stop`. */
  start(): void {
    this.#connect();
  }

  /**
   * The engine is going: every player's state goes to the sidecar, which holds the sockets
   * until the next engine (a restart, or one started by hand beside a sidecar that stays up).
   * `restart` says which the players were told; on a stop the supervisor then stops the
   * sidecar, which disconnects them without a second goodbye. With no sidecar to take them,
   * the players are disconnected here. Resolves once the sidecar has it all (bounded by `ms`,
   * within the 3 s the engine gives each exit hook).
   */
  async stop(restart: boolean, ms = 2_500): Promise<void> {
    if (this.#stopping) return;
    this.#stopping = true;
    clearTimeout(this.#retryTimer);
    clearTimeout(this.#syncTimer);
    const channel = this.#channel;
    const served = [...this.#served.values()];
    if (channel !== null) {
      const states = await Promise.all(served.map((s) => s.client.freeze(ms / 2)));
      const items = served.flatMap((s, i) =>
        s.channel === channel ? [`{"sid":${s.sid},"state":${stateJson(states[i])}}`] : []
      );
      this.#flushEnded();
      for (const m of packMessages('{"t":"state","sessions":[', items, "]}")) this.#send(m);
      this.#send(encodeMessage({ t: "bye", restart }));
      await this.#drain(ms / 2);
      // Our descriptors only: the sidecar's keep the connections up.
      for (const s of served) s.client.release();
    } else {
      await Promise.all(served.map((s) => s.client.close()));
    }
    this.#served.clear();
    channel?.close();
    this.#channel = null;
  }

  #connect(): void {
    if (this.#stopping || this.#channel !== null) return;
    let channel: SeqPacketConn;
    try {
      channel = SeqPacketConn.connect(this.#libc, handoffName(this.#o.secret));
    } catch {
      // No sidecar listening yet (it starts beside us) or any more (it is being restarted).
      this.#retry();
      return;
    }
    this.#run(channel).catch((e) => {
      this.#log(`telnet: handoff channel failed: ${(e as Error)?.message ?? e}`);
    }).finally(() => {
      channel.close();
      if (this.#channel === channel) this.#channel = null;
      this.#backlog = [];
      this.#retry();
    });
  }

  #retry(): void {
    if (this.#stopping) return;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = setTimeout(() => this.#connect(), this.#o.retryMs ?? 250);
  }

  /** Proves who we are, then takes the sockets the sidecar hands over until the channel ends. */
  async #run(channel: SeqPacketConn): Promise<void> {
    // A process of another user must not learn the proof (nor get its players).
    if (channel.peerUid() !== currentUid(this.#libc)) {
      throw new Error("the process at the handoff address runs as another user; not used");
    }
    const hello = await this.#next(channel);
    if (hello === null) return;
    if (hello.t !== "hello" || hello.v !== HANDOFF_VERSION) {
      throw new Error("the sidecar speaks another version of the handoff channel");
    }
    const mac = createHmac("sha256", this.#o.secret).update(hello.nonce).digest("hex");
    if (channel.send(encodeMessage({ t: "auth", v: HANDOFF_VERSION, mac })) !== "sent") return;
    this.#channel = channel;
    this.#startedAt = hello.startedAt;
    this.#log("telnet: serving telnet players directly (descriptors from the sidecar)");
    const kept = this.#reshare(channel);
    for (;;) {
      const got = await channel.recv();
      if (got === null) return;
      const m = decodeMessage(got.bytes);
      if (m?.t === "open" && m.sessions.length === got.fds.length && !this.#stopping) {
        m.sessions.forEach((s, i) => this.#take(channel, s, got.fds[i]));
        continue;
      }
      for (const fd of got.fds) closeFd(this.#libc, fd);
      if (m?.t === "kept") {
        // Answers come in the order the players went.
        for (const sid of m.sids) {
          const s = kept.shift();
          if (s && this.#served.get(s.client) === s) {
            s.sid = sid;
            s.channel = channel;
          }
        }
        continue;
      }
      if (!this.#stopping) this.#log(`telnet: handoff channel: unexpected message; ignored`);
    }
  }

  /**
   * Players served here whom this sidecar does not hold (the one that handed them over is gone:
   * it was restarted while this engine ran): each goes to it with a descriptor and its state,
   * so a later restart of the engine keeps them too. Returns them in the order sent.
   */
  #reshare(channel: SeqPacketConn): Served[] {
    const entries = [];
    for (const s of this.#served.values()) {
      if (s.channel === channel || s.client.fd < 0) continue;
      entries.push({ item: `{"state":${stateJson(s.client.state())}}`, fd: s.client.fd, of: s });
    }
    const sent: Served[] = [];
    for (const m of packWithFds('{"t":"keep","sessions":[', entries, "]}")) {
      if (channel.send(m.bytes, m.fds) === "sent") sent.push(...m.of);
    }
    if (sent.length > 0) {
      const who = sent.length === 1 ? "1 player" : `${sent.length} players`;
      this.#log(`telnet: ${who} handed to the new sidecar to hold`);
    }
    return sent;
  }

  /** The next message of the handshake; null when the channel ended. */
  async #next(channel: SeqPacketConn) {
    const got = await channel.recv();
    if (got === null) return null;
    for (const fd of got.fds) closeFd(this.#libc, fd);
    return decodeMessage(got.bytes);
  }

  #take(channel: SeqPacketConn, s: OpenSession, fd: number): void {
    let client: TelnetClient;
    try {
      const transport = this.#adopter.adopt(fd, s.ip, this.#ctx.limits.maxOutputBytes);
      client = new TelnetClient(transport, this.#ctx, s.state ?? undefined, s.waited);
    } catch (e) {
      closeFd(this.#libc, fd);
      this.#log(`telnet: could not take over a connection from ${s.ip}: ${(e as Error).message}`);
      this.#ended.push(s.sid);
      this.#queueSync("now");
      return;
    }
    this.#served.set(client, { sid: s.sid, client, channel });
    client.start();
  }

  #closed(client: TelnetClient): void {
    const s = this.#served.get(client);
    if (!s) return;
    this.#served.delete(client);
    this.#dirty.delete(client);
    if (s.channel !== this.#channel) return;
    this.#ended.push(s.sid);
    this.#queueSync("now");
  }

  #changed(client: TelnetClient, when: "now" | "soon" | "later"): void {
    // Every typed line says `later`: once the client waits for a sync already due, nothing to do.
    if (when === "later" && this.#syncTimer !== undefined && this.#dirty.has(client)) return;
    if (this.#stopping || !this.#served.has(client)) return;
    this.#dirty.add(client);
    this.#queueSync(when);
  }

  /**
   * Sends what changed, all of it at once: at the end of this turn for a login or a departure,
   * within `syncMs` for negotiation, within `idleSyncMs` when only a typed line's time changed.
   */
  #queueSync(when: "now" | "soon" | "later"): void {
    const ms = when === "now"
      ? 0
      : when === "soon"
      ? this.#o.syncMs ?? 1_000
      : this.#o.idleSyncMs ?? 30_000;
    const due = Date.now() + ms;
    if (this.#syncTimer !== undefined && this.#syncDue <= due) return;
    clearTimeout(this.#syncTimer);
    this.#syncDue = due;
    this.#syncTimer = setTimeout(() => this.#sync(), ms);
  }

  #sync(): void {
    this.#syncTimer = undefined;
    // While stopping, `stop` sends what is left itself.
    if (this.#stopping) return;
    if (this.#channel === null) {
      this.#dirty.clear();
      this.#ended = [];
      return;
    }
    this.#flushEnded();
    // A slice at a time: after a login storm every player's first line makes them all due at
    // once, and 10,000 states in one go held the event loop for tens of milliseconds.
    const items: string[] = [];
    for (const client of this.#dirty) {
      if (items.length === SYNC_SLICE) break;
      this.#dirty.delete(client);
      const s = this.#served.get(client);
      if (s && s.channel === this.#channel && !client.frozen) {
        items.push(`{"sid":${s.sid},"state":${stateJson(client.state())}}`);
      }
    }
    for (const m of packMessages('{"t":"state","sessions":[', items, "]}")) this.#send(m);
    if (this.#dirty.size > 0) {
      this.#syncDue = Date.now() + SYNC_SLICE_GAP_MS;
      this.#syncTimer = setTimeout(() => this.#sync(), SYNC_SLICE_GAP_MS);
    }
  }

  #flushEnded(): void {
    if (this.#ended.length === 0) return;
    const sids = this.#ended;
    this.#ended = [];
    for (const m of packMessages('{"t":"end","sids":[', sids.map(String), "]}")) this.#send(m);
  }

  /** Sends a message, or keeps it (in order) while the sidecar is not reading. */
  #send(bytes: Uint8Array): void {
    if (this.#channel === null) return;
    if (this.#backlog.length > 0) {
      this.#backlog.push(bytes);
      return;
    }
    if (this.#channel.send(bytes) === "busy") {
      this.#backlog.push(bytes);
      this.#backlogTimer ??= setTimeout(() => this.#retryBacklog(), 5);
    }
  }

  #retryBacklog(): void {
    this.#backlogTimer = undefined;
    while (this.#backlog.length > 0 && this.#channel !== null) {
      const r = this.#channel.send(this.#backlog[0]);
      if (r === "busy") break;
      this.#backlog.shift();
    }
    if (this.#backlog.length > 0 && this.#channel !== null) {
      this.#backlogTimer = setTimeout(() => this.#retryBacklog(), 5);
    } else this.#backlog = [];
  }

  /** Waits until every message is with the sidecar, or `ms` passed. */
  async #drain(ms: number): Promise<void> {
    const end = Date.now() + ms;
    while (this.#backlog.length > 0 && this.#channel !== null && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}
