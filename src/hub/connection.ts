/**
 * One client of the hub, whatever carries it (src/hub/session.ts): its identity, its output
 * through its carrier's Session (bounded: output a client has not taken past the bound is dropped,
 * and the client told) and an ordered queue of inbound work. What the carrier calls: `received`
 * (a frame as it came), `line` (a typed line, answered with its acknowledgement), `report` (what
 * a telnet client knows of its player) and `ended` (the transport is gone).
 *
 * Idle connections are the hub's main memory cost, so a connection allocates its queue and close
 * promise only when used.
 */
import { gmcpWanted } from "../text/gmcp_package.ts";
import { EncodedFrame } from "./protocol.ts";
import type { ClientReport, Session, SessionEnd } from "./session.ts";
import type { ClientKind, HubConnection, Outbound } from "./types.ts";
import type { ColourMode } from "../text/colour_mode.ts";
import { setImmediate } from "node:timers";
import { droppedNotice } from "../text/output_dropped.ts";
import type { PlayerTimes } from "./player_times.ts";

/** Bytes the socket may hold unsent; output past them is dropped until the client catches up. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;

/** Inbound work items waiting per connection; beyond this, input is dropped. */
export const MAX_PENDING = 64;

/** Default screen width. */
export const DEFAULT_WIDTH = 78;

/** A queued piece of inbound work: a command line, or a step such as a token login. */
export type Task = string | (() => Promise<void>);

/** What a connection calls back into its hub for. */
export interface ConnectionHooks {
  /** A frame arrived (string, or ArrayBuffer for a binary frame). */
  frame(conn: Connection, data: unknown): void;
  /** A typed line arrived; true when it was read (admitted), which is its acknowledgement. */
  line(conn: Connection, text: string): boolean;
  /** A telnet client reported what it knows of its player. */
  report(conn: Connection, report: ClientReport): void;
  /** A telnet client passed on a GMCP message its player's client sent. */
  gmcp(conn: Connection, pkg: string, data: unknown): void;
  /**
   * Runs one queued task (in order, one at a time per connection); a promise only when the
   * task goes on after the call.
   */
  run(conn: Connection, task: Task): void | Promise<void>;
  /** Called once when the connection closes, from either side. */
  closed(conn: Connection): void;
}

/** Close codes the hub uses. */
export const CloseCode = {
  normal: 1000,
  goingAway: 1001,
  /** Frame data that is not what its type promises (not UTF-8). */
  invalidData: 1007,
  policy: 1008,
  tooBig: 1009,
  restart: 1012,
} as const;

/** A hub connection over its carrier's session. */
export class Connection implements HubConnection, SessionEnd {
  /** Client IP: the socket peer, or the IP the telnet sidecar reports. */
  ip: string;
  playerId: string | null = null;
  /** Player name at login (for messages that must not read the database). */
  name = "";
  width = DEFAULT_WIDTH;
  height = 24;
  /** Terminal type the sidecar reported. */
  ttype = "";
  /** Colours its terminal shows as the telnet client negotiated it (null: not reported). */
  colourDepth: number | null = null;
  /** The player's colour setting as last applied to this connection. */
  colourMode: ColourMode = "auto";
  /** Whether plain text goes out with ANSI colour (decided per connection, not per message). */
  colour = true;
  #lastInput: number;
  /** Command lines run (MUX's command count, `cmds()`). */
  commands = 0;
  /** True once a frame counted as activity (so `lastInput` is our own, not the opening time). */
  inputSeen = false;
  /** When the client was last told a command of it was dropped over the rate (Inbound). */
  toldTooFastAt = -Infinity;
  /** GMCP as the telnet client reported it: null while off (or not a telnet client). */
  gmcpState: { supports: ReadonlySet<string> | null } | null = null;
  #connectedAt: number;
  /**
   * The player's times over all its connections while this one is logged in (the registry sets
   * it): this connection's own are written through to it, so idle() and conn() read them there.
   */
  times: PlayerTimes | null = null;
  /**
   * When this hub connection opened, or was logged out (this engine's clock; the login bound
   * counts from it).
   */
  openedAt: number;
  /** True when the connection proved itself the telnet sidecar (its `client` frames count). */
  sidecar = false;
  /** True once the IP is counted toward the per-IP cap. */
  ipCounted = false;
  /** True from the moment it starts closing; nothing more is sent or run. */
  closed = false;
  /** MUX's OUTPUTPREFIX and OUTPUTSUFFIX: lines sent before and after each command's output. */
  outputPrefix = "";
  outputSuffix = "";
  /** True when the client closed it because its page went away (see `ended`). */
  leaving = false;
  #socketClosed = false;
  /** Frames dropped while the client was behind, not yet told. */
  #dropped = 0;
  #onSocketClosed: (() => void) | null = null;
  #queue: Task[] | null = null;
  /** The task under way (undefined between tasks). */
  #current: Task | undefined = undefined;
  /** Tasks at the head of the queue the hub put there itself (`enqueueNext`), not typed lines. */
  #ownAhead = 0;
  #running = false;
  /** Who waits for this connection's work to be done (see `whenIdle`); made only when asked. */
  #idleWaiters: (() => void)[] | null = null;
  /** The rate key (see `rateKey`), and the player it was made for. */
  #rateKey = "";
  #rateKeyOf: string | null | undefined = undefined;

  constructor(
    readonly id: string,
    readonly kind: ClientKind,
    /** The socket peer's address (never changes). */
    readonly peerIp: string,
    private readonly session: Session,
    private readonly hooks: ConnectionHooks,
    now: number,
  ) {
    this.ip = peerIp;
    this.#connectedAt = now;
    this.openedAt = now;
    this.#lastInput = now;
  }

  /** When the client last sent input (ms; the opening time until then). */
  get lastInput(): number {
    return this.#lastInput;
  }

  set lastInput(at: number) {
    this.#lastInput = at;
    this.times?.input(at);
  }

  /** When the client connected (the sidecar may report an earlier time after a restart). */
  get connectedAt(): number {
    return this.#connectedAt;
  }

  set connectedAt(at: number) {
    this.#connectedAt = at;
    this.times?.opened(at);
  }

  /** A frame as the carrier got it (text, or an ArrayBuffer for a binary frame). */
  received(data: unknown): void {
    if (!this.closed) this.hooks.frame(this, data);
  }

  /**
   * A line the client typed, handed over as it is (no frame around it): true when the hub read
   * it, the acknowledgement the telnet client's pacing waits for; false when it was dropped
   * (the command rate, a full queue) or the connection is closed.
   */
  line(text: string): boolean {
    return !this.closed && this.hooks.line(this, text);
  }

  /** What a telnet client reports of its player (see ClientReport). */
  report(report: ClientReport): void {
    if (!this.closed) this.hooks.report(this, report);
  }

  /** A GMCP message the client sent (a plugin's package). */
  gmcp(pkg: string, data: unknown): void {
    if (!this.closed) this.hooks.gmcp(this, pkg, data);
  }

  /**
   * True when this connection's client speaks GMCP and wants `pkg` (it announced the package or
   * a parent with `Core.Supports`, or never announced a list): plugins ask before building one.
   */
  gmcpWants(pkg: string): boolean {
    const g = this.gmcpState;
    return g !== null && gmcpWanted(g.supports, pkg);
  }

  /** Resolves once the socket has closed (close handshake done or connection lost). */
  whenSocketClosed(): Promise<void> {
    if (this.#socketClosed) return Promise.resolve();
    return new Promise((resolve) => {
      const prev = this.#onSocketClosed;
      this.#onSocketClosed = () => {
        prev?.();
        resolve();
      };
    });
  }

  /** Queues a message, encoded for this client's kind. */
  send(out: Outbound): void {
    this.deliver(new EncodedFrame(out));
  }

  /** Queues an already-encoded message (fan-out encodes once per kind). */
  deliver(frame: EncodedFrame): void {
    if (this.closed) return;
    const session = this.session;
    if (session.buffered > MAX_BUFFERED_BYTES) {
      // Buffering more would let one client exhaust memory; dropping the client (as before)
      // let one player's burst of output (a `think` emitting 1.4 MB to a room in one turn)
      // disconnect everyone who heard it, however fast they read. So, as MUX's output_limit,
      // output is dropped until the client catches up, and it is told then.
      this.#dropped++;
      return;
    }
    try {
      if (this.#dropped > 0) {
        session.deliver(new EncodedFrame({ msg: droppedNotice(this.#dropped) }), this.colour);
        this.#dropped = 0;
      }
      session.deliver(frame, this.colour);
    } catch {
      this.#shut(CloseCode.goingAway, "send failed");
    }
  }

  /**
   * The key its commands count under: the player's once logged in (their connections share
   * the limit), its own before. Made once per login, not per command: a new string would be
   * hashed afresh for every lookup.
   */
  rateKey(): string {
    const pid = this.playerId;
    if (this.#rateKeyOf !== pid) {
      this.#rateKeyOf = pid;
      this.#rateKey = pid ? `p:${pid}` : `c:${this.id}`;
    }
    return this.#rateKey;
  }

  /** Sends `reason` if given, then closes. */
  close(reason?: string, code: number = CloseCode.normal): void {
    if (this.closed) return;
    if (reason) this.send({ msg: reason, data: { type: "disconnect" } });
    this.#shut(code, "");
  }

  /** Adds work to the back of the queue; false when the queue is full (the item is dropped). */
  enqueue(task: Task): boolean {
    if (this.closed) return false;
    const q = this.#queue ??= [];
    if (q.length >= MAX_PENDING) return false;
    q.push(task);
    this.#pump();
    return true;
  }

  /** Puts work at the front of the queue (it runs next). */
  enqueueNext(task: Task): void {
    if (this.closed) return;
    (this.#queue ??= []).unshift(task);
    this.#ownAhead++;
    this.#pump();
  }

  /**
   * Resolves once no task runs or waits (at once when none does) or the connection has closed:
   * a restarting hub lets the work it has acknowledged finish (a login in its password check,
   * the lines read behind it) before it hands the player to the next engine.
   */
  whenIdle(): Promise<void> {
    if (!this.#running || this.closed) return Promise.resolve();
    return new Promise((resolve) => (this.#idleWaiters ??= []).push(resolve));
  }

  /** True while the task under way is a line the client typed (not a step of the hub's own). */
  get runningTyped(): boolean {
    return typeof this.#current === "string" && !this.closed;
  }

  /** Number of queued tasks not yet started. */
  get pending(): number {
    return this.#queue?.length ?? 0;
  }

  /** The carrier's transport is gone (closed by either side, or lost). */
  ended(leaving = false): void {
    if (!this.closed) this.leaving = leaving;
    if (!this.#socketClosed) {
      this.#socketClosed = true;
      this.#onSocketClosed?.();
      this.#onSocketClosed = null;
    }
    if (this.closed) return;
    this.closed = true;
    this.#queue = null;
    this.#wake();
    this.hooks.closed(this);
  }

  #pump(): void {
    if (this.#running) return;
    this.#running = true;
    // Each connection drains its own queue, so a slow command delays only its own client.
    queueMicrotask(this.#drainNow);
  }

  readonly #drainNow = (): void => this.#drain();
  readonly #afterTaskNow = (): void => this.#afterTask();
  readonly #afterFailure = (e: unknown): void => {
    this.#failed(e);
    this.#afterTask();
  };

  /**
   * Runs the next queued task. Most commands finish in the call, and then no promise is made
   * for them: one that goes on continues the queue when it settles.
   */
  #drain(): void {
    const task = this.closed ? undefined : this.#queue?.shift();
    const own = task !== undefined && this.#ownAhead > 0;
    if (own) this.#ownAhead--;
    if (task === undefined) return this.#idle();
    // A line the hub put first itself is its own step, whatever its text (a login's look).
    this.#current = own ? undefined : task;
    let running: void | Promise<void> = undefined;
    try {
      running = this.hooks.run(this, task);
    } catch (e) {
      this.#failed(e);
    }
    if (running === undefined) return this.#afterTask();
    running.then(this.#afterTaskNow, this.#afterFailure);
  }

  #afterTask(): void {
    this.#current = undefined;
    // Lines that came together (a paste) yield between them, so the command queue (run on an
    // immediate) takes its turn after each, as MUX runs its queue between commands: an
    // installer's next line sees what its @switch just set.
    if (!this.closed && this.#queue?.length) setImmediate(this.#drainNow);
    else this.#idle();
  }

  #idle(): void {
    this.#running = false;
    if (this.#queue?.length) {
      this.#pump();
    } else {
      // An idle connection keeps no queue around.
      this.#queue = null;
      this.#wake();
    }
  }

  /** Tells whoever waits in `whenIdle`. */
  #wake(): void {
    const waiters = this.#idleWaiters;
    if (waiters === null) return;
    this.#idleWaiters = null;
    for (const resolve of waiters) resolve();
  }

  #failed(e: unknown): void {
    console.error(`hub: connection ${this.id}: ${(e as Error)?.stack ?? e}`);
  }

  #shut(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    const queue = this.#queue;
    this.#queue = null;
    this.#wake();
    // Closed for a restart with typed lines read and not run: the carrier may keep them for the
    // next engine (a login's own welcome and look are the hub's, not the player's).
    if (code === CloseCode.restart && this.playerId !== null && queue && this.session.unread) {
      const typed = queue.slice(this.#ownAhead).filter((t): t is string => typeof t === "string");
      if (typed.length) this.session.unread(typed);
    }
    try {
      this.session.close(code, reason);
    } catch { /* already closing */ }
    // The hub forgets the connection now, not when the close handshake ends: a stalled
    // client may never answer it.
    this.hooks.closed(this);
  }
}
