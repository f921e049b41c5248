/**
 * One client socket: its identity, a bounded outbound buffer (a client that
 * stops reading is dropped) and an ordered queue of inbound work.
 *
 * Idle connections are the hub's main memory cost, so a connection is its own
 * socket event listener (no closures per socket) and allocates its queue and
 * close promise only when used.
 */
import { EncodedFrame } from "./protocol.ts";
import type { ClientKind, HubConnection, Outbound } from "./types.ts";
import type { ColourMode } from "../text/colour_mode.ts";

/** Bytes the socket may hold unsent before the client counts as stalled and is dropped. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;

/** Inbound work items waiting per connection; beyond this, input is dropped. */
export const MAX_PENDING = 64;

/** Default screen width. */
export const DEFAULT_WIDTH = 78;

/** Runtime socket errors that only mean the client went away. */
const VANISHED = /unexpected eof|reset|broken pipe|not connected/i;

/** A socket that takes frames rather than their text (see src/hub/local_link.ts). */
export interface FrameSink {
  /** Delivers one frame, in order with the others. */
  deliverFrame(frame: EncodedFrame): void;
  /**
   * Tells the client its frame `id` was read, without a frame (it only paces the client's
   * lines, so it need not wait behind output); false: send the `ack` frame instead.
   */
  acknowledge?(id: number): boolean;
}

/** A queued piece of inbound work: a command line, or a step such as a token login. */
export type Task = string | (() => Promise<void>);

/** What a connection calls back into its hub for. */
export interface ConnectionHooks {
  /** The socket opened. */
  opened(conn: Connection): void;
  /** A frame arrived (string, or ArrayBuffer for a binary frame). */
  frame(conn: Connection, data: unknown): void;
  /** Runs one queued task (in order, one at a time per connection). */
  run(conn: Connection, task: Task): Promise<void>;
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

/** A hub connection over a WebSocket. */
export class Connection implements HubConnection, EventListenerObject {
  /** Client IP: the socket peer, or the IP the telnet sidecar reports. */
  ip: string;
  playerId: string | null = null;
  /** Player name at login (for messages that must not read the database). */
  name = "";
  width = DEFAULT_WIDTH;
  height = 24;
  /** Terminal type the sidecar reported. */
  ttype = "";
  /** The player's colour setting as last applied to this connection. */
  colourMode: ColourMode = "auto";
  /** Whether plain text goes out with ANSI colour (decided per connection, not per message). */
  colour = true;
  lastInput: number;
  /** True once a frame counted as activity (so `lastInput` is our own, not the opening time). */
  inputSeen = false;
  /** When the client connected (the sidecar may report an earlier time after a restart). */
  connectedAt: number;
  /** True when the connection proved itself the telnet sidecar (its `client` frames count). */
  sidecar = false;
  /** True once the IP is counted toward the per-IP cap. */
  ipCounted = false;
  /** True from the moment it starts closing; nothing more is sent or run. */
  closed = false;
  /** Login requested in the URL (`?token=`, `&resume=1`), used once the socket opens. */
  pendingLogin: { token: string; resume: boolean } | null = null;
  #socketClosed = false;
  readonly #frameSink: FrameSink | null;
  #onSocketClosed: (() => void) | null = null;
  #queue: Task[] | null = null;
  #running = false;
  /** The rate key (see `rateKey`), and the player it was made for. */
  #rateKey = "";
  #rateKeyOf: string | null | undefined = undefined;

  constructor(
    readonly id: string,
    readonly kind: ClientKind,
    /** The socket peer's address (never changes). */
    readonly peerIp: string,
    private readonly socket: WebSocket,
    private readonly hooks: ConnectionHooks,
    now: number,
  ) {
    this.ip = peerIp;
    this.connectedAt = now;
    this.lastInput = now;
    const sink = socket as unknown as Partial<FrameSink>;
    this.#frameSink = typeof sink.deliverFrame === "function" ? sink as FrameSink : null;
  }

  /** Subscribes to the socket's events. */
  listen(): void {
    const s = this.socket;
    s.binaryType = "arraybuffer";
    s.addEventListener("open", this);
    s.addEventListener("message", this);
    s.addEventListener("close", this);
    s.addEventListener("error", this);
  }

  /** Socket events (the connection is its own listener object). */
  handleEvent(e: Event): void {
    switch (e.type) {
      case "message":
        this.hooks.frame(this, (e as MessageEvent).data);
        return;
      case "open":
        this.hooks.opened(this);
        return;
      case "close":
        this.lost();
        return;
      case "error": {
        // Always followed by "close". Deno reports here why it dropped the socket without
        // a close frame: a client that just vanished (not worth a line), or a frame it
        // refused, such as text that is not UTF-8 ("Invalid UTF-8").
        const why = String((e as ErrorEvent).message ?? "");
        if (!this.closed && !VANISHED.test(why)) {
          console.warn(`hub: connection ${this.id} (${this.ip}) dropped by the runtime: ${why}`);
        }
        return;
      }
    }
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
    if (this.#frameSink !== null) {
      // An in-memory socket (the engine's own telnet players) takes the frame itself.
      this.#frameSink.deliverFrame(frame);
      return;
    }
    const text = frame.for(this.kind, this.colour);
    if (text === null) return;
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      // The client stopped reading: buffering more would let one client exhaust memory.
      this.#shut(CloseCode.policy, "client too slow");
      return;
    }
    try {
      this.socket.send(text);
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

  /** Tells the client its frame `id` was read (the `ack` the telnet client paces its lines by). */
  acknowledge(id: number | string): void {
    if (this.closed) return;
    const sink = this.#frameSink;
    if (typeof id === "number" && sink?.acknowledge !== undefined && sink.acknowledge(id)) return;
    this.send({ msg: "", data: { type: "ack", id } });
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
    this.#pump();
  }

  /** Number of queued tasks not yet started. */
  get pending(): number {
    return this.#queue?.length ?? 0;
  }

  /** Records that the socket is closed, whichever side began it. */
  lost(): void {
    if (!this.#socketClosed) {
      this.#socketClosed = true;
      this.#onSocketClosed?.();
      this.#onSocketClosed = null;
    }
    if (this.closed) return;
    this.closed = true;
    this.#queue = null;
    this.hooks.closed(this);
  }

  #pump(): void {
    if (this.#running) return;
    this.#running = true;
    // Each connection drains its own queue, so a slow command delays only its own client.
    queueMicrotask(() => this.#drain());
  }

  async #drain(): Promise<void> {
    try {
      let task: Task | undefined;
      while (!this.closed && (task = this.#queue?.shift()) !== undefined) {
        try {
          await this.hooks.run(this, task);
        } catch (e) {
          console.error(`hub: connection ${this.id}: ${(e as Error)?.stack ?? e}`);
        }
      }
    } finally {
      this.#running = false;
      if (this.#queue?.length) {
        this.#pump();
      } else if (this.#queue) {
        // An idle connection keeps no queue around.
        this.#queue = null;
      }
    }
  }

  #shut(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.#queue = null;
    try {
      this.socket.close(code, reason);
    } catch { /* already closing */ }
    // The hub forgets the connection now, not when the close handshake ends: a stalled
    // client may never answer it.
    this.hooks.closed(this);
  }
}
