/**
 * The sidecar's end of its one link to the hub: a single WebSocket (`?client=telnet&mux=1`,
 * the sidecar's secret in the handshake) carrying every telnet session. Each session is a
 * {@linkcode VirtualSocket}, which a HubLink dials and uses as it would a WebSocket of its own,
 * so resume, pacing and the outbox stay per session (src/hub/mux_wire.ts has the format).
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
} from "../../hub/mux_wire.ts";
import { noDelayTo } from "./nodelay.ts";
import { reconnectDelay } from "./hub_link.ts";

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

/** One telnet session on the link, shaped like the WebSocket a HubLink expects. */
export class VirtualSocket {
  readyState = 0;
  onopen: ((e: Event) => void) | null = null;
  /**
   * Called with `{ data }` rather than a MessageEvent: a fan-out hands one frame to a thousand
   * sessions, and a MessageEvent each was ~330 of the ~2,100 bytes of garbage the sidecar made
   * per delivered line (HubLink reads `data` only).
   */
  onmessage: ((e: Pick<MessageEvent, "data">) => void) | null = null;
  onclose: ((e: CloseEvent) => void) | null = null;
  onerror: ((e: Event) => void) | null = null;

  constructor(private readonly mux: MuxClient, readonly sid: number, readonly query: string) {}

  /** Sends one text frame to the hub. */
  send(text: string): void {
    if (this.readyState !== 1) throw new Error("session is not open");
    this.mux.send(encodeRecord("d", [this.sid], text));
  }

  /** Ends the session (the hub is told). */
  close(code = 1000, reason = ""): void {
    if (this.readyState >= 2) return;
    const wasOpen = this.readyState === 1;
    this.readyState = 2;
    if (wasOpen || this.mux.announced(this.sid)) {
      this.mux.send(encodeRecord("c", [this.sid], closePayload(code, reason.slice(0, 200))));
    }
    this.ended(code, reason);
  }

  /** The hub took the session. */
  opened(): void {
    if (this.readyState !== 0) return;
    this.readyState = 1;
    this.onopen?.(new Event("open"));
  }

  /** A frame from the hub. */
  received(data: string): void {
    if (this.readyState === 1) this.onmessage?.({ data });
  }

  /** The session is over. */
  ended(code: number, reason: string): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.mux.forget(this.sid);
    queueMicrotask(() =>
      this.onclose?.(new CloseEvent("close", { code, reason, wasClean: code !== LINK_LOST }))
    );
  }
}

/** The sidecar's link. */
export class MuxClient {
  readonly #o: MuxClientOptions;
  readonly #url: string;
  #noDelayWarned = false;
  readonly #sessions = new Map<number, VirtualSocket>();
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
   * A new session for `url` (the hub URL a HubLink would dial: its query, with the token of a
   * resume, is what the hub sees). Opens when the hub takes it.
   */
  dial(url: string): WebSocket {
    const sid = ++this.#seq;
    const query = new URL(url).search.replace(/^\?/, "");
    const socket = new VirtualSocket(this, sid, query);
    this.#sessions.set(sid, socket);
    if (this.#open) this.#announce(socket);
    else this.#connect();
    return socket as unknown as WebSocket;
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

  #announce(socket: VirtualSocket): void {
    this.#announced.add(socket.sid);
    this.send(encodeRecord("o", [socket.sid], socket.query));
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
        if (s.readyState === 0 && !this.#announced.has(s.sid)) this.#announce(s);
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
    }
  }
}
