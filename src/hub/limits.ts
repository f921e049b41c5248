/**
 * The hub's limits: the command rate per player (or per connection before
 * login), the keepalive rate per connection, connection counts per IP, and which
 * reported IPs are taken.
 */

/** Commands allowed per window (10 a second, docs/protocol.md "Limits"). */
export const COMMANDS_PER_WINDOW = 10;
/**
 * Keepalive frames (`ping`, `sync`) allowed per window and connection: apart from the command
 * rate, so a keepalive never costs a command, and bounded, so they cannot flood replies.
 */
export const CONTROL_PER_WINDOW = 20;
/** Length of the rate window in ms. */
export const RATE_WINDOW_MS = 1000;

interface RateEntry {
  /**
   * Times of the last `limit` accepted commands, a ring: `next` is the oldest (and where the
   * next one goes). Unused slots hold -Infinity, which every window has left.
   */
  times: number[];
  next: number;
  /** When a drop was last reported (-Infinity = never). */
  reported: number;
}

/**
 * A sliding-window limit of `limit` commands per `windowMs` for each key, with
 * a bounded key map (least recently used keys are forgotten first).
 */
export class CommandRateLimiter {
  readonly #entries = new Map<string, RateEntry>();

  constructor(
    private readonly limit = COMMANDS_PER_WINDOW,
    private readonly windowMs = RATE_WINDOW_MS,
    private readonly maxKeys = 20_000,
  ) {}

  /** Records a command for `key` if the window has room; false means drop it. */
  allow(key: string, now: number): boolean {
    let e = this.#entries.get(key);
    if (!e) {
      e = { times: new Array(this.limit).fill(-Infinity), next: 0, reported: -Infinity };
      this.#entries.set(key, e);
      if (this.#entries.size > this.maxKeys) {
        const oldest = this.#entries.keys().next().value;
        if (oldest !== undefined) this.#entries.delete(oldest);
      }
    } else if (this.#entries.size >= this.maxKeys) {
      // Re-inserted so the map's order is least recently used first and a crowd of new keys
      // forgets the idle ones, not a busy key whose full window is what holds it back. Below
      // the bound nothing is forgotten, so the move is skipped.
      this.#entries.delete(key);
      this.#entries.set(key, e);
    }
    // Room when the oldest of the last `limit` commands has left the window: it is replaced.
    if (e.times[e.next] > now - this.windowMs) return false;
    e.times[e.next] = now;
    e.next = e.next + 1 === this.limit ? 0 : e.next + 1;
    return true;
  }

  /** True at most once per window per key: whether a drop should be logged now. */
  shouldReport(key: string, now: number): boolean {
    const e = this.#entries.get(key);
    if (!e || now - e.reported < this.windowMs) return false;
    e.reported = now;
    return true;
  }

  /** Forgets a key (its player or connection went away). */
  forget(key: string): void {
    this.#entries.delete(key);
  }

  /** Number of keys held (for tests). */
  get size(): number {
    return this.#entries.size;
  }
}

/** True for something shaped like an IPv4 or IPv6 address (what the sidecar may report). */
export function looksLikeIp(s: string): boolean {
  return s.length <= 45 && (/^\d{1,3}(\.\d{1,3}){3}$/.test(s) || /^[0-9a-fA-F:.]{2,45}$/.test(s)) &&
    (s.includes(".") || s.includes(":"));
}

/** Interval of the idle sweep for a timeout in seconds: often enough to be timely, never busy. */
export function idleSweepMs(idleTimeoutSeconds: number): number {
  if (idleTimeoutSeconds <= 0) return 30_000;
  return Math.min(30_000, Math.max(500, Math.floor(idleTimeoutSeconds * 1000 / 4)));
}
