/**
 * One telnet player's hub session in the sidecar (the sidecar serves its players itself: TLS, or
 * no descriptor passing): a {@linkcode Wire} for each attempt, a session of the sidecar's one link
 * or a WebSocket of its own, and a new one while the engine restarts, resuming with the player's
 * token. Lines go out as JSON frames with their pacing id; the hub's `ack` frames answer them.
 */
import type { HubEvents, HubPort, PlayerReport, Sent } from "../client/hub_port.ts";
import {
  clientFrame,
  gmcpFrame,
  lineFrame,
  pingFrame,
  supportsFrame,
  windowFrame,
  type Wire,
  type WireDialer,
} from "./wire.ts";
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

/** Settings for {@linkcode HubLink}. */
export interface HubLinkOptions {
  /**
   * The sidecar has the secret that makes the hub believe its reports of a player's address,
   * terminal and times; without it they are not sent (the hub would refuse them).
   */
  trusted: boolean;
  /** The query every attempt starts from (`client=telnet`); a resume adds its token. */
  query?: string;
  /** Longest wait between reconnect attempts (default 500 ms). */
  maxRetryMs?: number;
  /** An attempt that has not opened after this long is abandoned (default 5 s). */
  connectTimeoutMs?: number;
  /** Random source for jitter (tests pass a fixed one). */
  random?: () => number;
}

/** A hub session that comes back after the engine restarts. */
export class HubLink implements HubPort {
  readonly #wires: WireDialer;
  readonly #token: () => string | null;
  readonly #events: HubEvents;
  readonly #trusted: boolean;
  readonly #query: string;
  readonly #maxRetry: number;
  readonly #connectTimeout: number;
  readonly #random: () => number;
  #wire: Wire | null = null;
  #open = false;
  #attempt = 0;
  #closed = false;
  #downReported = false;
  /** The hub said this wire's session is over; its close is final unless coded 1012. */
  #endAnnounced = false;
  /** Lines the hub handed back before closing this wire's session for a restart. */
  #unread: string[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** `token` is asked before every attempt: a resumed session sends it with `resume=1`. */
  constructor(
    wires: WireDialer,
    token: () => string | null,
    events: HubEvents,
    opts: HubLinkOptions,
  ) {
    this.#wires = wires;
    this.#token = token;
    this.#events = events;
    this.#trusted = opts.trusted;
    this.#query = opts.query ?? "client=telnet";
    this.#maxRetry = opts.maxRetryMs ?? 500;
    this.#connectTimeout = opts.connectTimeoutMs ?? 5_000;
    this.#random = opts.random ?? Math.random;
  }

  /** True while the session is open. */
  get open(): boolean {
    return this.#open;
  }

  /** Opens the first connection. */
  connect(): void {
    if (!this.#closed && this.#wire === null) this.#dial();
  }

  /** Sends a typed line with its pacing id; its `ack` comes back as a frame. */
  line(text: string, id: number | null): Sent {
    return this.#send(lineFrame(text, id));
  }

  /** Sends a ping whose pong confirms everything sent before it. */
  ping(id: number): Sent {
    return this.#send(pingFrame(id));
  }

  /** Sends what the client knows of its player (its address and times only when trusted). */
  report(report: PlayerReport): void {
    const client = this.#trusted ? clientFrame(report) : null;
    if (client !== null) this.#send(client);
    const window = windowFrame(report);
    if (window !== null) this.#send(window);
    // The player's own choice of packages: believed from anyone, it concerns only them.
    const supports = supportsFrame(report);
    if (supports !== null) this.#send(supports);
  }

  /** Passes on a GMCP message from the client (a plugin's package). */
  gmcp(pkg: string, data: unknown): void {
    const frame = gmcpFrame(pkg, data);
    if (frame !== null) this.#send(frame);
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
    if (this.#closed || this.#wire !== null) return;
    clearTimeout(this.#timer);
    if (ms <= 0) {
      this.#dial();
      return;
    }
    this.#timer = setTimeout(() => {
      if (!this.#closed && this.#wire === null) this.#dial();
    }, ms);
  }

  /** Stops for good: closes the wire (1000) and cancels any retry. */
  end(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#timer);
    const wire = this.#wire;
    this.#wire = null;
    this.#open = false;
    if (wire) {
      try {
        wire.close(1000, "telnet client left");
      } catch { /* already closing */ }
    }
  }

  #send(text: string): Sent {
    const wire = this.#wire;
    if (!this.#open || wire === null) return "failed";
    try {
      wire.send(text);
      return "sent";
    } catch {
      return "failed";
    }
  }

  /** The query of the next attempt: with a session, its token and `resume=1`. */
  #attemptQuery(): string {
    const token = this.#token();
    if (token === null) return this.#query;
    const q = new URLSearchParams(this.#query);
    q.set("token", token);
    q.set("resume", "1");
    return q.toString();
  }

  #dial(): void {
    let wire: Wire | null = null;
    const live = () => wire !== null && this.#wire === wire;
    try {
      wire = this.#wires(this.#attemptQuery(), {
        open: () => {
          if (!live()) return;
          clearTimeout(this.#timer);
          this.#open = true;
          this.#attempt = 0;
          this.#downReported = false;
          this.#events.hubOpened();
        },
        message: (text) => {
          if (live()) this.#events.hubFrame(text);
        },
        unread: (lines) => {
          if (live()) this.#unread = lines;
        },
        closed: (code, reason) => {
          if (!live()) return;
          const ended = this.#endAnnounced && code !== RESTART_CODE;
          if (this.#open && (ended || isFinalClose(code))) {
            this.#closed = true;
            this.#wire = null;
            this.#open = false;
            clearTimeout(this.#timer);
            this.#events.hubEnded(code, reason);
            return;
          }
          this.#lost(wire);
        },
      });
    } catch {
      this.#lost(null);
      return;
    }
    this.#wire = wire;
    this.#endAnnounced = false;
    this.#unread = [];
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      if (this.#wire === wire && !this.#open) {
        try {
          wire!.close(1000, "connect timeout");
        } catch { /* ignore */ }
        this.#lost(wire);
      }
    }, this.#connectTimeout);
  }

  #lost(wire: Wire | null): void {
    if (this.#closed || (wire !== null && this.#wire !== wire)) return;
    const wasOpen = this.#open;
    const unread = this.#unread;
    this.#unread = [];
    this.#wire = null;
    this.#open = false;
    if (!this.#downReported) {
      this.#downReported = true;
      this.#events.hubDown(wasOpen, unread);
    }
    clearTimeout(this.#timer);
    const delay = reconnectDelay(this.#attempt++, this.#maxRetry, this.#random);
    this.#timer = setTimeout(() => {
      if (!this.#closed) this.#dial();
    }, delay);
  }
}
