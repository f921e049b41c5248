/**
 * The sidecar's end of its one link to the hub: a single WebSocket (`?client=telnet&mux=1`,
 * the sidecar's secret in the handshake) carrying every telnet session. Each session is a
 * {@linkcode MuxSession}: the wire of one attempt of a player's HubLink, so resume, pacing and the
 * outbox stay per player (src/hub/carriers/mux_wire.ts has the format).
 *
 * The link reconnects by itself (100 ms doubling to `maxRetryMs`). While it is down, sessions
 * that dial wait for it; when it opens, every waiting open goes out in one message, and the hub
 * answers them in one message too: a reboot resumes every session in one exchange.
 */
import {
  closePayload,
  decodeRecords,
  encodeRecord,
  type MuxRecord,
  readClose,
  readUnread,
} from "../../hub/carriers/mux_wire.ts";
import { noDelayTo } from "./nodelay.ts";
import { reconnectDelay } from "./hub_link.ts";
import type { Wire, WireEvents } from "./wire.ts";

/** Close code a session sees when the link went away (the HubLink then retries and resumes). */
const LINK_LOST = 1006;

/** Settings for {@linkcode MuxClient}. */
export interface MuxClientOptions {
  /** Hub WebSocket URL with `client=telnet` (the link adds `mux=1`). */
  hubUrl: string;
  /** Handshake headers (the sidecar's secret). */
  headers: Record<string, string>;
  /** Longest wait between link attempts (default 500 ms). */
  maxRetryMs?: number;
  /** Called each time the link opens after having been down (players may redial now). */
  reopened?: () => void;
  log?: (line: string) => void;
}

/** One telnet session on the link: the wire of one attempt of a player's hub session. */
class MuxSession implements Wire {
  #state: "waiting" | "open" | "ended" = "waiting";

  constructor(
    private readonly mux: MuxClient,
    readonly sid: number,
    readonly query: string,
    private readonly events: WireEvents,
  ) {}

  /** True until the hub took the session (its open waits for the link). */
  get waiting(): boolean {
    return this.#state === "waiting";
  }

  /** Sends one text frame to the hub. */
  send(text: string): void {
    if (this.#state !== "open") throw new Error("session is not open");
    this.mux.send(encodeRecord("d", [this.sid], text));
  }

  /** Ends the session (the hub is told). */
  close(code: number, reason: string): void {
    if (this.#state === "ended") return;
    if (this.#state === "open" || this.mux.announced(this.sid)) {
      this.mux.send(encodeRecord("c", [this.sid], closePayload(code, reason.slice(0, 200))));
    }
    this.ended(code, reason);
  }

  /** The hub took the session. */
  opened(): void {
    if (this.#state !== "waiting") return;
    this.#state = "open";
    this.events.open();
  }

  /** A frame from the hub. */
  received(text: string): void {
    if (this.#state === "open") this.events.message(text);
  }

  /** Lines the hub hands back before it closes the session for a restart. */
  unread(lines: string[]): void {
    if (this.#state === "open") this.events.unread?.(lines);
  }

  /** The session is over (either side, or the link went away). */
  ended(code: number, reason: string): void {
    if (this.#state === "ended") return;
    this.#state = "ended";
    this.mux.forget(this.sid);
    // Never from inside the call that closed it.
    queueMicrotask(() => this.events.closed(code, reason));
  }
}

/** The sidecar's link. */
export class MuxClient {
  readonly #o: MuxClientOptions;
  readonly #url: string;
  #noDelayWarned = false;
  readonly #sessions = new Map<number, MuxSession>();
  /** Sessions whose open went out on the current link. */
  readonly #announced = new Set<number>();
  #ws: WebSocket | null = null;
  #open = false;
  #everOpen = false;
  #attempt = 0;
  #seq = 0;
  #stopped = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #out: string[] = [];
  #flushQueued = false;

  constructor(opts: MuxClientOptions) {
    this.#o = opts;
    const url = new URL(opts.hubUrl);
    url.searchParams.set("mux", "1");
    this.#url = url.toString();
  }

  /** True while the link is open. */
  get open(): boolean {
    return this.#open;
  }

  /** Sessions carried. */
  get sessions(): number {
    return this.#sessions.size;
  }

  /**
   * A new session with `query` (what a WebSocket URL would carry: `client=telnet`, and a
   * resume's token), the wire of one attempt of a player's HubLink. Opens when the hub takes it.
   */
  dial(query: string, events: WireEvents): Wire {
    const sid = ++this.#seq;
    const session = new MuxSession(this, sid, query, events);
    this.#sessions.set(sid, session);
    if (this.#open) this.#announce(session);
    else this.#connect();
    return session;
  }

  /** True when the hub was told of the session on this link. */
  announced(sid: number): boolean {
    return this.#announced.has(sid);
  }

  /** Queues one record (sent with the rest of this task's records). */
  send(record: string): void {
    if (!this.#open) return;
    this.#out.push(record);
    if (this.#flushQueued) return;
    this.#flushQueued = true;
    // At the end of the current task (a microtask: a timer would add 1-4 ms to every line).
    queueMicrotask(() => this.#flush());
  }

  /** Drops a finished session. */
  forget(sid: number): void {
    this.#sessions.delete(sid);
    this.#announced.delete(sid);
  }

  /** The hub was seen answering: dials the link now instead of at the end of its backoff. */
  connectNow(): void {
    if (this.#stopped || this.#ws !== null) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#connect();
  }

  /** Closes the link for good (sidecar stopping). */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#flush();
    const ws = this.#ws;
    this.#ws = null;
    this.#open = false;
    try {
      ws?.close(1000, "sidecar stopping");
    } catch { /* already closed */ }
  }

  #announce(session: MuxSession): void {
    this.#announced.add(session.sid);
    this.send(encodeRecord("o", [session.sid], session.query));
  }

  #flush(): void {
    this.#flushQueued = false;
    if (!this.#out.length) return;
    const text = this.#out.join("");
    this.#out = [];
    if (!this.#open || !this.#ws) return;
    try {
      this.#ws.send(text);
    } catch { /* the close event follows */ }
  }

  #connect(): void {
    if (this.#stopped || this.#ws !== null || this.#timer !== undefined) return;
    let ws: WebSocket;
    try {
      ws = new WebSocket(this.#url, { headers: this.#o.headers });
    } catch {
      this.#retry();
      return;
    }
    this.#ws = ws;
    ws.onopen = () => {
      if (this.#ws !== ws) return;
      // Before the first frame: Deno's client leaves Nagle on (src/telnet/sidecar/nodelay.ts).
      this.#noDelay();
      const reopened = this.#everOpen;
      this.#open = true;
      this.#everOpen = true;
      this.#attempt = 0;
      // Players waiting to retry dial now (synchronously), and with every session already
      // waiting for the link they go out in this one message: one exchange for all resumes.
      if (reopened) this.#o.reopened?.();
      for (const s of this.#sessions.values()) {
        if (s.waiting && !this.#announced.has(s.sid)) this.#announce(s);
      }
      this.#flush();
    };
    ws.onmessage = (e) => {
      if (this.#ws === ws && typeof e.data === "string") this.#receive(e.data);
    };
    ws.onerror = () => {/* a close event follows */};
    ws.onclose = () => {
      if (this.#ws !== ws) return;
      this.#ws = null;
      this.#open = false;
      this.#out = [];
      this.#announced.clear();
      // Every session sees its hub go away; each HubLink redials, and resumes, on its own.
      for (const s of [...this.#sessions.values()]) s.ended(LINK_LOST, "sidecar link lost");
      this.#retry();
    };
  }

  /** Turns Nagle's algorithm off on the link's socket; says once if it cannot. */
  #noDelay(): void {
    const port = Number(new URL(this.#url).port) || 80;
    const r = noDelayTo(port);
    if (r.error && !this.#noDelayWarned) {
      this.#noDelayWarned = true;
      this.#o.log?.(`telnet: the hub link keeps Nagle's algorithm on (${r.error})`);
    }
  }

  #retry(): void {
    this.#ws = null;
    if (this.#stopped) return;
    clearTimeout(this.#timer);
    const delay = reconnectDelay(this.#attempt++, this.#o.maxRetryMs ?? 500, Math.random);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#connect();
    }, delay);
  }

  #receive(text: string): void {
    const { records, error } = decodeRecords(text);
    for (const r of records) this.#record(r);
    if (error) this.#o.log?.(`telnet: hub link: ${error}; the rest of that message was dropped`);
  }

  #record(r: MuxRecord): void {
    if (r.type === "a") {
      for (const sid of r.ids) this.#sessions.get(sid)?.opened();
    } else if (r.type === "d") {
      for (const sid of r.ids) this.#sessions.get(sid)?.received(r.payload);
    } else if (r.type === "c") {
      const { code, reason } = readClose(r.payload);
      for (const sid of r.ids) this.#sessions.get(sid)?.ended(code, reason);
    } else if (r.type === "u") {
      const lines = readUnread(r.payload);
      if (lines === null || r.ids.length !== 1) {
        this.#o.log?.("telnet: hub link: a malformed record of unrun lines; ignored");
        return;
      }
      this.#sessions.get(r.ids[0])?.unread(lines);
    }
  }
}
