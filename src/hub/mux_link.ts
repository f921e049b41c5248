/**
 * The hub's end of the sidecar link: one WebSocket from the telnet sidecar carrying every
 * telnet session, each a {@linkcode MuxSocket} that a hub Connection uses exactly like a
 * WebSocket of its own. So logins, limits, pacing and the idle sweep stay per session, and
 * nothing a telnet client sends can name another session: session ids are the sidecar's,
 * numbered per link, and identity still comes only from the hub's own session tokens.
 *
 * Output is gathered until the end of the current task and sent as one link message; the same
 * text to many sessions (a room's fan-out, encoded once) becomes one record listing them.
 */
import { setImmediate } from "node:timers";
import { closePayload, decodeRecords, encodeRecord, readClose } from "./mux_wire.ts";
import type { TypedLine } from "./protocol.ts";

/** A session the link opens: its socket and the query it was opened with. */
export type MuxOpen = (socket: MuxSocket, query: URLSearchParams) => void;

/** Close code for a session the link no longer carries (link lost). */
const LINK_LOST = 1006;

/** Largest link message read; a larger one closes the link (its sessions then resume). */
export const MAX_LINK_MESSAGE = 16 * 1024 * 1024;

/** Output the link may hold unsent before the sidecar counts as stalled and the link is closed. */
export const MAX_LINK_BUFFERED = 64 * 1024 * 1024;

/** What carries a {@linkcode MuxSocket}'s traffic: the sidecar link, or the engine's own telnet. */
export interface SessionCarrier {
  /** Queues a frame for session `sid`. */
  queue(sid: number, text: string): void;
  /** Queues the session's close. */
  closing(sid: number, code: number, reason: string): void;
  /** Drops a finished session. */
  forget(sid: number, socket: MuxSocket): void;
}

/** One telnet session on the link, shaped like the WebSocket a Connection expects. */
export class MuxSocket extends EventTarget {
  readyState = 0;
  /** Output waits in the link, bounded there; a session never counts as stalled by itself. */
  readonly bufferedAmount = 0;
  binaryType = "arraybuffer";
  onopen: ((e: Event) => void) | null = null;
  onclose: ((e: Event) => void) | null = null;

  constructor(private readonly link: SessionCarrier, readonly sid: number) {
    super();
  }

  /** Sends one text frame to this session. */
  send(text: string): void {
    if (this.readyState !== 1) throw new Error("session is not open");
    this.link.queue(this.sid, text);
  }

  /** Closes this session (the sidecar is told; the close event follows at once). */
  close(code = 1000, reason = ""): void {
    if (this.readyState >= 2) return;
    this.readyState = 2;
    this.link.closing(this.sid, code, reason);
    queueMicrotask(() => this.ended(code, reason));
  }

  /** Marks the session open and tells the Connection. */
  opened(): void {
    if (this.readyState !== 0) return;
    this.readyState = 1;
    const e = new Event("open");
    this.onopen?.(e);
    this.dispatchEvent(e);
  }

  /**
   * The listener object of "message" events (the Connection), called directly: the runtime's
   * event dispatch and a MessageEvent per line were a fifth of a telnet command's hub side.
   */
  #onMessage: EventListenerObject | null = null;

  /** Like EventTarget's, except that a listener object of "message" is held to be called directly. */
  override addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions,
  ): void {
    if (type === "message" && listener && typeof listener === "object" && !options) {
      this.#onMessage = listener;
      return;
    }
    super.addEventListener(type, listener, options);
  }

  /** Like EventTarget's, for the listener held directly too. */
  override removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | EventListenerOptions,
  ): void {
    if (type === "message" && listener === this.#onMessage) this.#onMessage = null;
    else super.removeEventListener(type, listener, options);
  }

  /** A frame for this session: from the sidecar, or a line from the engine's own telnet client. */
  received(data: string | TypedLine): void {
    if (this.readyState !== 1) return;
    if (this.#onMessage) this.#onMessage.handleEvent({ type: "message", data } as MessageEvent);
    else this.dispatchEvent(new MessageEvent("message", { data }));
  }

  /** The session is over (either side, or the link went away). */
  ended(code: number, reason: string): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.link.forget(this.sid, this);
    const e = new CloseEvent("close", { code, reason, wasClean: code !== LINK_LOST });
    this.onclose?.(e);
    this.dispatchEvent(e);
  }
}

/** Counters for tests and the benchmark. */
export interface MuxLinkStats {
  sessions: number;
  messagesIn: number;
  messagesOut: number;
  recordsOut: number;
  badRecords: number;
  unknownSessions: number;
}

/** The hub's end of one sidecar link. */
export class MuxLink implements SessionCarrier {
  readonly #socket: WebSocket;
  readonly #open: MuxOpen;
  readonly #log: (line: string) => void;
  readonly #sessions = new Map<number, MuxSocket>();
  /** The message being gathered: acks first, then data records, then closes. */
  #acks: number[] = [];
  #data: { text: string; ids: number[] }[] = [];
  /** The last data record of each text, and of each session (to keep each session's order). */
  #byText = new Map<string, number>();
  #lastOf = new Map<number, number>();
  #closes: string[] = [];
  #flushQueued = false;
  #closed = false;
  #stats = {
    messagesIn: 0,
    messagesOut: 0,
    recordsOut: 0,
    badRecords: 0,
    unknownSessions: 0,
  };

  constructor(socket: WebSocket, open: MuxOpen, log: (line: string) => void) {
    this.#socket = socket;
    this.#open = open;
    this.#log = log;
    socket.onmessage = (e) => {
      if (typeof e.data === "string") this.#receive(e.data);
    };
    socket.onclose = () => this.#lost();
    socket.onerror = () => {/* a close event follows */};
  }

  /** Sessions and traffic. */
  stats(): MuxLinkStats {
    return { sessions: this.#sessions.size, ...this.#stats };
  }

  /** Queues a frame for a session (sent with everything else of this task). */
  queue(sid: number, text: string): void {
    // Joins the record already carrying this text unless the session has a later one: the
    // session's frames must arrive in the order they were sent.
    const at = this.#byText.get(text);
    if (at !== undefined && (this.#lastOf.get(sid) ?? -1) <= at) {
      this.#data[at].ids.push(sid);
      this.#lastOf.set(sid, at);
    } else {
      const index = this.#data.push({ text, ids: [sid] }) - 1;
      this.#byText.set(text, index);
      this.#lastOf.set(sid, index);
    }
    this.#schedule();
  }

  /** Queues a session's close. */
  closing(sid: number, code: number, reason: string): void {
    this.#closes.push(encodeRecord("c", [sid], closePayload(code, reason.slice(0, 200))));
    this.#schedule();
  }

  /** Drops a finished session. */
  forget(sid: number, socket: MuxSocket): void {
    if (this.#sessions.get(sid) === socket) this.#sessions.delete(sid);
  }

  /** Sends what is queued, then closes the link (engine stopping: sessions were closed first). */
  close(code = 1012, reason = "engine stopping"): void {
    this.#flush();
    if (this.#closed) return;
    try {
      this.#socket.close(code, reason);
    } catch { /* already closing */ }
  }

  #schedule(): void {
    if (this.#flushQueued) return;
    this.#flushQueued = true;
    // At the end of this turn of the event loop, once its microtasks have run (an immediate,
    // not a timer: timers are clamped to 1-4 ms). A fan-out's many sends, the acks of one
    // message's opens, and a typed line's ack together with the reply of a command that needed
    // no I/O go out as one message: a microtask sent the ack alone, and the reply after it cost
    // the sidecar a second read and wake-up per command.
    setImmediate(() => this.#flush());
  }

  #flush(): void {
    this.#flushQueued = false;
    if (!this.#acks.length && !this.#data.length && !this.#closes.length) return;
    const parts: string[] = [];
    // Acks before data (a session's first lines follow its opening), closes after (its last
    // lines arrive before it ends).
    if (this.#acks.length) parts.push(encodeRecord("a", this.#acks));
    for (const r of this.#data) parts.push(encodeRecord("d", r.ids, r.text));
    parts.push(...this.#closes);
    this.#stats.recordsOut += parts.length;
    this.#reset();
    if (this.#closed || this.#socket.readyState !== WebSocket.OPEN) return;
    if (this.#socket.bufferedAmount > MAX_LINK_BUFFERED) {
      // The sidecar stopped reading: closing lets it reconnect and resume every session.
      this.#log("hub: sidecar link stopped reading; closed");
      this.#dropLink(1008, "link too slow");
      return;
    }
    try {
      this.#socket.send(parts.join(""));
      this.#stats.messagesOut++;
    } catch { /* the close event follows */ }
  }

  #reset(): void {
    this.#acks = [];
    this.#data = [];
    this.#byText = new Map();
    this.#lastOf = new Map();
    this.#closes = [];
  }

  #dropLink(code: number, reason: string): void {
    try {
      this.#socket.close(code, reason);
    } catch { /* already closing */ }
    this.#lost();
  }

  #receive(text: string): void {
    this.#stats.messagesIn++;
    if (text.length > MAX_LINK_MESSAGE) {
      this.#log("hub: sidecar link sent an oversized message; closed");
      this.#dropLink(1009, "message too large");
      return;
    }
    const { records, error } = decodeRecords(text);
    for (const r of records) {
      if (r.type === "o") this.#opening(r.ids[0], r.payload);
      else if (r.type === "d" || r.type === "c") {
        const sid = r.ids[0];
        const s = sid === undefined ? undefined : this.#sessions.get(sid);
        if (!s) {
          // Not ours (closed meanwhile, or never opened): the sidecar is told it is gone.
          this.#stats.unknownSessions++;
          if (sid !== undefined && r.type === "d") this.closing(sid, 1008, "unknown session");
          continue;
        }
        if (r.type === "d") s.received(r.payload);
        else {
          const { code, reason } = readClose(r.payload);
          s.ended(code, reason);
        }
      } else this.#stats.badRecords++;
    }
    if (error) {
      this.#stats.badRecords++;
      this.#log(`hub: sidecar link: ${error}; the rest of that message was dropped`);
    }
  }

  #opening(sid: number | undefined, query: string): void {
    if (sid === undefined || this.#closed) return;
    if (this.#sessions.has(sid)) {
      this.closing(sid, 1008, "session id in use");
      return;
    }
    const socket = new MuxSocket(this, sid);
    this.#sessions.set(sid, socket);
    this.#open(socket, new URLSearchParams(query.slice(0, 8192)));
    // After the Connection has subscribed (as a WebSocket opens after its upgrade returns).
    queueMicrotask(() => {
      if (socket.readyState !== 0) return;
      this.#acks.push(sid);
      this.#schedule();
      socket.opened();
    });
  }

  #lost(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#reset();
    for (const s of [...this.#sessions.values()]) s.ended(LINK_LOST, "sidecar link lost");
    this.#sessions.clear();
  }
}
