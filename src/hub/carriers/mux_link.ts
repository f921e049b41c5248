/**
 * The sidecar link carrier: one WebSocket from the telnet sidecar carrying every telnet session
 * the sidecar serves itself (docs/protocol.md, "The sidecar link"; mux_wire.ts has the format).
 * Each session is a {@linkcode MuxSession}, a hub session of its own: logins, limits, pacing and
 * the idle sweep stay per session, and nothing a telnet client sends can name another session
 * (session ids are the sidecar's, numbered per link, and identity still comes only from the
 * hub's own session tokens).
 *
 * Output is gathered until the end of the current turn of the event loop and sent as one link
 * message; the same text to many sessions (a room's fan-out, encoded once) becomes one record
 * listing them.
 */
import { setImmediate } from "node:timers";
import { closePayload, decodeRecords, encodeRecord, unreadPayload } from "./mux_wire.ts";
import { clientKind, type EncodedFrame } from "../protocol.ts";
import type { Session, SessionEnd, SessionHub } from "../session.ts";
import type { ClientKind } from "../types.ts";

/** Largest link message read; a larger one closes the link (its sessions then resume). */
export const MAX_LINK_MESSAGE = 16 * 1024 * 1024;

/** Output the link may hold unsent before the sidecar counts as stalled and the link is closed. */
export const MAX_LINK_BUFFERED = 64 * 1024 * 1024;

/** Longest query an open record may carry (the rest is ignored). */
const MAX_QUERY = 8192;

/** Who the link's sessions are: the link's address, and whether it proved itself the sidecar. */
export interface LinkPeer {
  ip: string;
  trusted: boolean;
}

/** One telnet session on the link, as the hub sees it. */
class MuxSession implements Session {
  /** The hub's end, once open. */
  end: SessionEnd | null = null;
  #open = true;
  /** Output waits in the link, bounded there; a session never counts as stalled by itself. */
  readonly buffered = 0;

  constructor(
    private readonly link: MuxLink,
    readonly sid: number,
    private readonly kind: ClientKind,
  ) {}

  /** Queues a frame for this session, in the form its kind reads. */
  deliver(frame: EncodedFrame, colour: boolean): void {
    if (!this.#open) return;
    const text = frame.for(this.kind, colour);
    if (text !== null) this.link.queue(this.sid, text);
  }

  /**
   * Lines read and not run as the hub closes the session for a restart: they go to the sidecar
   * just before the close, and its telnet client sends them to the next engine first.
   */
  unread(lines: string[]): void {
    if (this.#open) this.link.unread(this.sid, lines);
  }

  /** The hub closes the session: the sidecar is told after its last frames. */
  close(code: number, reason: string): void {
    if (!this.#open) return;
    this.#open = false;
    this.link.closing(this.sid, code, reason);
    this.link.forget(this);
    // Not from inside the hub's call (it may be opening this very session).
    queueMicrotask(() => this.end?.ended());
  }

  /** The sidecar closed it, or the link went away. */
  ended(): void {
    if (!this.#open) return;
    this.#open = false;
    this.link.forget(this);
    this.end?.ended();
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
export class MuxLink {
  readonly #socket: WebSocket;
  readonly #hub: SessionHub;
  readonly #peer: LinkPeer;
  readonly #log: (line: string) => void;
  readonly #sessions = new Map<number, MuxSession>();
  /** The message being gathered: acks first, then data records, then closes. */
  #acks: number[] = [];
  #data: { text: string; ids: number[] }[] = [];
  /** The last data record of each text, and of each session (to keep each session's order). */
  #byText = new Map<string, number>();
  #lastOf = new Map<number, number>();
  #closes: string[] = [];
  #flushQueued = false;
  #closed = false;
  /** Takes the link off the hub's stop list. */
  readonly #unstop: () => void;
  #stats = {
    messagesIn: 0,
    messagesOut: 0,
    recordsOut: 0,
    badRecords: 0,
    unknownSessions: 0,
  };

  /** The hub end of the link on `socket` (an upgraded WebSocket), opening sessions with `hub`. */
  constructor(socket: WebSocket, hub: SessionHub, peer: LinkPeer, log: (line: string) => void) {
    this.#socket = socket;
    this.#hub = hub;
    this.#peer = peer;
    this.#log = log;
    socket.onmessage = (e) => {
      if (typeof e.data === "string") this.#receive(e.data);
    };
    socket.onclose = () => this.#lost();
    socket.onerror = () => {/* a close event follows */};
    // A stopping hub closes its sessions first, then the link (whose last message carries them).
    this.#unstop = hub.onStop(() => this.close(1012, "engine stopping"));
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

  /** Queues the lines a session hands back (with the closes: after its last frames, before its own). */
  unread(sid: number, lines: readonly string[]): void {
    this.#closes.push(encodeRecord("u", [sid], unreadPayload(lines)));
    this.#schedule();
  }

  /** Drops a finished session. */
  forget(session: MuxSession): void {
    if (this.#sessions.get(session.sid) === session) this.#sessions.delete(session.sid);
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
        if (r.type === "d") s.end?.received(r.payload);
        else s.ended();
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
    const q = new URLSearchParams(query.slice(0, MAX_QUERY));
    const kind = clientKind(q.get("client"));
    const session = new MuxSession(this, sid, kind);
    this.#sessions.set(sid, session);
    // The ack goes first in the message, before any frame of the session.
    this.#acks.push(sid);
    this.#schedule();
    session.end = this.#hub.connect(session, {
      kind,
      ip: this.#peer.ip,
      trusted: this.#peer.trusted,
      token: q.get("token"),
      resume: /^(1|true|yes)$/i.test(q.get("resume") ?? ""),
    });
  }

  #lost(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#unstop();
    this.#reset();
    for (const s of [...this.#sessions.values()]) s.ended();
    this.#sessions.clear();
  }
}
