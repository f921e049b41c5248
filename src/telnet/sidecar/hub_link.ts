/** One telnet player's WebSocket to the hub, reconnecting by itself while the engine restarts. */
import { type FrameObject, type HubInput, isFrameObject, lineFrame } from "../client/hub_frames.ts";

/** Close codes after which the hub meant it (quit, @boot, abuse): the player is disconnected. */
const FINAL_CLOSE_CODES: ReadonlySet<number> = new Set([1000, 1003, 1007, 1008, 1009]);

/** Close code of an engine that is stopping or restarting. */
const RESTART_CODE = 1012;

/** True when a close code means "gone on purpose" rather than "the engine went away". */
export function isFinalClose(code: number): boolean {
  return FINAL_CLOSE_CODES.has(code) || (code >= 4000 && code <= 4999);
}

/** Delay before reconnect attempt `attempt` (0-based): 100 ms doubling to `max`, with jitter. */
export function reconnectDelay(attempt: number, max: number, random: () => number): number {
  const base = Math.min(max, 100 * 2 ** Math.min(attempt, 16));
  // Up to 25% jitter so hundreds of players do not hit the new engine in the same millisecond.
  return Math.round(base * (1 + random() * 0.25));
}

/** What the link reports to its telnet client. */
export interface HubLinkHandlers {
  /** The socket is open; `reconnected` is false the first time. */
  onOpen(reconnected: boolean): void;
  /** One frame from the hub (its text, or the frame itself from an in-memory link). */
  onFrame(frame: HubInput): void;
  /** The hub is unreachable or went away; the link keeps retrying. `wasOpen`: it had been up. */
  onDown(wasOpen: boolean): void;
  /** The hub closed the session on purpose; the link stops. */
  onFinal(code: number, reason: string): void;
}

/**
 * Takes frame objects from an in-memory link at once, from inside the hub's own call: true
 * when taken (only writing the player's socket), false to have the frame through `onFrame`.
 */
export interface FrameTaker {
  takeFrame(frame: FrameObject): boolean;
  /**
   * The hub read the line sent with `id` (its `ack`, handed over without a frame). Called from
   * inside the hub's own call, like `takeFrame`: it must not call the hub back.
   */
  takeAck?(id: number): void;
}

/** A socket that takes typed lines as they are, not as JSON frames (an in-memory link). */
interface LineSocket {
  sendLine(text: string, ack: number | null): void;
}

/** True for a socket that takes typed lines as they are. */
function takesLines(ws: WebSocket): ws is WebSocket & LineSocket {
  return typeof (ws as Partial<LineSocket>).sendLine === "function";
}

/** A socket that can hand frames over at once (src/hub/local_link.ts's LocalSocket). */
interface TakingSocket {
  taker: FrameTaker | null;
}

/** True for a socket that offers frames at once. */
function offersFrames(ws: WebSocket): ws is WebSocket & TakingSocket {
  return "taker" in ws;
}

/** Settings for {@linkcode HubLink}. */
export interface HubLinkOptions {
  /** Longest wait between reconnect attempts (default 500 ms). */
  maxRetryMs?: number;
  /** An attempt that has not opened after this long is abandoned (default 5 s). */
  connectTimeoutMs?: number;
  /** Random source for jitter (tests pass a fixed one). */
  random?: () => number;
  /** Headers sent with every handshake (the sidecar's secret). */
  headers?: Record<string, string>;
  /**
   * Opens the socket for `url` (default: a WebSocket of its own); the sidecar passes a
   * session of its one link to the hub (mux_client.ts).
   */
  dial?: (url: string) => WebSocket;
  /** Takes frames at once where the socket offers them (an in-memory link). */
  taker?: FrameTaker;
}

/** A WebSocket that comes back after the engine restarts. */
export class HubLink {
  readonly #url: () => string;
  readonly #h: HubLinkHandlers;
  readonly #maxRetry: number;
  readonly #connectTimeout: number;
  readonly #random: () => number;
  readonly #headers: Record<string, string> | undefined;
  readonly #dialer: ((url: string) => WebSocket) | undefined;
  readonly #taker: FrameTaker | null;
  #ws: WebSocket | null = null;
  #open = false;
  #everOpen = false;
  #attempt = 0;
  #closed = false;
  #downReported = false;
  /** The hub said this socket's session is over; its close is final unless coded 1012. */
  #endAnnounced = false;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** `url` is asked again before every attempt (a resumed session adds its token). */
  constructor(url: () => string, handlers: HubLinkHandlers, opts: HubLinkOptions = {}) {
    this.#url = url;
    this.#h = handlers;
    this.#maxRetry = opts.maxRetryMs ?? 500;
    this.#connectTimeout = opts.connectTimeoutMs ?? 5_000;
    this.#random = opts.random ?? Math.random;
    this.#headers = opts.headers;
    this.#dialer = opts.dial;
    this.#taker = opts.taker ?? null;
  }

  /** True while the socket is open. */
  get open(): boolean {
    return this.#open;
  }

  /** Opens the first connection. */
  connect(): void {
    if (!this.#closed && this.#ws === null) this.#dial();
  }

  /** Sends one text frame; false (nothing sent) when the socket is not open. */
  send(text: string): boolean {
    if (!this.#open || this.#ws === null) return false;
    try {
      this.#ws.send(text);
      return true;
    } catch {
      return false;
    }
  }

  /** Sends one typed line with its pacing id; false (nothing sent) when the socket is not open. */
  sendLine(text: string, ack: number | null): boolean {
    const ws = this.#ws;
    if (!this.#open || ws === null) return false;
    try {
      if (takesLines(ws)) ws.sendLine(text, ack);
      else ws.send(lineFrame(text, ack));
      return true;
    } catch {
      return false;
    }
  }

  /**
   * The hub announced that it is ending this session (its closing `disconnect` frame for quit,
   * `@boot`, idle or a cap): the close that follows is final even if it does not arrive with a
   * final code. Deno reports a close that crosses one of our own sends as code 0, and
   * taking that for a restart would resume a session the hub had just ended. Only 1012 (restart)
   * still means "come back".
   */
  expectEnd(): void {
    if (this.#open) this.#endAnnounced = true;
  }

  /** While waiting to retry, dials after `ms` instead (the hub was seen coming back). */
  retrySoon(ms: number): void {
    if (this.#closed || this.#ws !== null) return;
    clearTimeout(this.#timer);
    if (ms <= 0) {
      this.#dial();
      return;
    }
    this.#timer = setTimeout(() => {
      if (!this.#closed && this.#ws === null) this.#dial();
    }, ms);
  }

  /** Stops for good: closes the socket (1000) and cancels any retry. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#timer);
    const ws = this.#ws;
    this.#ws = null;
    this.#open = false;
    if (ws) {
      try {
        ws.close(1000, "telnet client left");
      } catch { /* already closing */ }
    }
  }

  #dial(): void {
    let ws: WebSocket;
    try {
      ws = this.#dialer
        ? this.#dialer(this.#url())
        : new WebSocket(this.#url(), this.#headers ? { headers: this.#headers } : undefined);
    } catch {
      this.#lost(null);
      return;
    }
    this.#ws = ws;
    this.#endAnnounced = false;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      if (this.#ws === ws && !this.#open) {
        try {
          ws.close();
        } catch { /* ignore */ }
        this.#lost(ws);
      }
    }, this.#connectTimeout);
    ws.onopen = () => {
      if (this.#ws !== ws) return;
      clearTimeout(this.#timer);
      const reconnected = this.#everOpen;
      this.#open = true;
      this.#everOpen = true;
      this.#attempt = 0;
      this.#downReported = false;
      this.#h.onOpen(reconnected);
    };
    ws.onmessage = (ev) => {
      if (this.#ws !== ws) return;
      if (typeof ev.data === "string" || isFrameObject(ev.data)) this.#h.onFrame(ev.data);
    };
    if (this.#taker !== null && offersFrames(ws)) ws.taker = this.#taker;
    ws.onerror = () => {/* a close event always follows */};
    ws.onclose = (ev) => {
      if (this.#ws !== ws) return;
      const ended = this.#endAnnounced && ev.code !== RESTART_CODE;
      if (this.#open && (ended || isFinalClose(ev.code))) {
        this.#closed = true;
        this.#ws = null;
        this.#open = false;
        clearTimeout(this.#timer);
        this.#h.onFinal(ev.code, ev.reason);
        return;
      }
      this.#lost(ws);
    };
  }

  #lost(ws: WebSocket | null): void {
    if (this.#closed || (ws !== null && this.#ws !== ws)) return;
    const wasOpen = this.#open;
    this.#ws = null;
    this.#open = false;
    if (ws) {
      ws.onopen = ws.onmessage = ws.onclose = null;
      if (offersFrames(ws)) ws.taker = null;
    }
    if (!this.#downReported) {
      this.#downReported = true;
      this.#h.onDown(wasOpen);
    }
    clearTimeout(this.#timer);
    const delay = reconnectDelay(this.#attempt++, this.#maxRetry, this.#random);
    this.#timer = setTimeout(() => {
      if (!this.#closed) this.#dial();
    }, delay);
  }
}
