/**
 * The engine's other rate primitive: at most `limit` events in any span of `windowMs`, per key,
 * counted exactly (a sliding log: the time of each event still in the window is kept). The hub's
 * command and keepalive rates, the login, registration and avatar limits are all one of these
 * (docs/architecture.md, "Rates and budgets" says why they are not budgets).
 *
 * Each key keeps its events' times in a ring (`src/rate/ring.ts`); the table holds at most
 * `maxKeys` such rings plus `OVERFLOW_ROWS` x `OVERFLOW_WIDTH` shared ones, each of at most
 * `limit` times, whatever the traffic.
 */
import { idle, inWindow, latest, type Log, record, unrecord } from "./ring.ts";
import { OverflowBuckets } from "./overflow.ts";

/** Keys a {@linkcode SlidingWindows} holds unless told otherwise. */
export const MAX_WINDOW_KEYS = 10_000;

/** A key at its limit (the staff view): when the oldest event that holds it leaves the window. */
export interface FullKey {
  key: string;
  until: number;
}

/** Settings of {@linkcode SlidingWindows}. */
export interface SlidingWindowsOptions {
  /**
   * Events allowed in any window; a function is read at each use (a limit from the
   * configuration, which `@reload/config` changes). 0 or less, Infinity or not a number: no
   * limit.
   */
  limit: number | (() => number);
  /** The window in ms, fixed or read at each use; 0 or less: no limit. */
  windowMs: number | (() => number);
  /**
   * Keys held with an entry of their own (default `MAX_WINDOW_KEYS`); past it a newcomer takes an
   * idle key's place or is counted in the shared buckets.
   */
  maxKeys?: number;
  /** The clock, in ms (`Date.now` by default: the staff view shows its times as dates). */
  now?: () => number;
  /**
   * What a key is counted as, e.g. `addressGroup` (an IPv6 address by its /64): every caller
   * passes the key as it came, and the grouping is done here, once.
   */
  group?: (key: string) => string;
}

/** What a give-back that has nothing to give does (shared: no allocation per unlimited use). */
const NOTHING = (): void => {};

/** Keys looked at, from the least recently used, to find one whose window emptied. */
const EVICT_SCAN = 8;

/** True when `limit` per `windowMs` bounds nothing (an infinite limit: an endless ring). */
function unbounded(limit: number, windowMs: number): boolean {
  return !(limit > 0 && limit < Infinity && windowMs > 0);
}

/**
 * Sliding windows by key: a player's commands, a connection's keepalives, an address's failed
 * logins. The key map is bounded, and a key whose window holds an event is never forgotten to make
 * room: a newcomer takes the place of a key whose window emptied (looked for among the least
 * recently used), and when there is none it is counted in shared buckets (`OverflowBuckets`), which
 * never count a key below its own events. So no traffic of other keys can start a key's window
 * over (docs/security.md). Below the bound nothing is forgotten, so the order is kept only from
 * there on (a busy key is not moved in the map at each of its events). A key whose window emptied
 * is not dropped on its own either: a player who types every few seconds would cost a new entry at
 * each command; the staff view, which looks at every key anyway, drops those it finds.
 */
export class SlidingWindows {
  /** Map order is least recently used first, once the map is at its bound. */
  readonly #logs = new Map<string, Log>();
  /** The keys that found no room, made at the first of them. */
  #overflow: OverflowBuckets | null = null;
  readonly #limit: number | (() => number);
  readonly #windowMs: number | (() => number);
  readonly #maxKeys: number;
  readonly #now: () => number;
  readonly #group: ((key: string) => string) | undefined;

  /** An empty table. */
  constructor(opts: SlidingWindowsOptions) {
    // A ring has whole slots; 2.5 allowed is 3, as "refused at 3 or more" counted it.
    this.#limit = typeof opts.limit === "number" ? Math.ceil(opts.limit) : opts.limit;
    this.#windowMs = opts.windowMs;
    this.#maxKeys = Math.max(1, opts.maxKeys ?? MAX_WINDOW_KEYS);
    this.#now = opts.now ?? Date.now;
    this.#group = opts.group;
  }

  /**
   * Counts an event of `key` if its window has room (0); else counts nothing: ms until room.
   * `now` is for a caller that has read the clock already (the hub, at each typed command: a
   * clock read costs about as much as the rest of this).
   */
  take(key: string, now?: number): number {
    const limit = this.#readLimit();
    const windowMs = this.#readWindow();
    if (unbounded(limit, windowMs)) return 0;
    now ??= this.#now();
    const k = this.#group ? this.#group(key) : key;
    const log = this.#logs.get(k);
    if (!log) return this.#newcomer(k, limit, windowMs, now);
    this.#touch(k, log);
    return record(log, limit, windowMs, now);
  }

  /**
   * Takes one slot for `key` before the guarded work starts, so parallel attempts cannot all
   * pass a check made before any of them is counted. Null when the window is full (nothing is
   * counted). Otherwise the slot stays taken (a failure) unless the returned function gives it
   * back (a success); giving it back twice, after it left the window or after `forget` does
   * nothing.
   */
  reserve(key: string): (() => void) | null {
    const limit = this.#readLimit();
    const windowMs = this.#readWindow();
    if (unbounded(limit, windowMs)) return NOTHING;
    const now = this.#now();
    const k = this.#group ? this.#group(key) : key;
    const log = this.#logs.get(k);
    if (log) this.#touch(k, log);
    const wait = log ? record(log, limit, windowMs, now) : this.#newcomer(k, limit, windowMs, now);
    if (wait > 0) return null;
    const shared = !this.#logs.has(k);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      if (shared) {
        this.#overflow?.unrecord(k, now, this.#readLimit(), this.#readWindow(), this.#now());
      } else {
        const current = this.#logs.get(k);
        if (current) unrecord(current, now);
      }
    };
  }

  /** Events of `key` in the window now (a key in the shared buckets: at least its own). */
  count(key: string): number {
    const k = this.#group ? this.#group(key) : key;
    const since = this.#now() - this.#readWindow();
    const log = this.#logs.get(k);
    if (log) return inWindow(log, since);
    return this.#overflow?.count(k, since) ?? 0;
  }

  /**
   * The keys at their limit now (as grouped), each with when its oldest counted event leaves
   * the window: a staff view, which looks at every key held (at most `maxKeys`). A key counted
   * in the shared buckets has no entry of its own to list.
   */
  full(): FullKey[] {
    const limit = this.#readLimit();
    const windowMs = this.#readWindow();
    if (unbounded(limit, windowMs)) return [];
    const since = this.#now() - windowMs;
    const out: FullKey[] = [];
    for (const [key, log] of this.#logs) {
      if (idle(log, since)) {
        this.#logs.delete(key);
        continue;
      }
      if (log.times.length < limit) continue;
      const decides = log.times[latest(log, limit)];
      if (decides > since) out.push({ key, until: decides + windowMs });
    }
    this.#overflow?.sweep(since);
    return out;
  }

  /** True at most once a window per key: whether to log a refusal (`now` as for `take`). */
  shouldReport(key: string, now?: number): boolean {
    const k = this.#group ? this.#group(key) : key;
    const log = this.#logs.get(k) ?? this.#overflow?.reportLog(k);
    now ??= this.#now();
    if (!log || now - log.reported < this.#readWindow()) return false;
    log.reported = now;
    return true;
  }

  /**
   * Forgets `key` (its player left, a wizard let it go); false when its window held nothing. A
   * key in the shared buckets empties them, letting go the other keys counted there too.
   */
  forget(key: string): boolean {
    const k = this.#group ? this.#group(key) : key;
    const since = this.#now() - this.#readWindow();
    const log = this.#logs.get(k);
    // A key with an entry of its own counts nothing in the buckets (it got the entry only once
    // they counted nothing for it), so they are left to the keys they hold.
    if (!log) return this.#overflow?.clear(k, since) ?? false;
    this.#logs.delete(k);
    return inWindow(log, since) > 0;
  }

  /** Keys held with an entry of their own (for tests; at most `maxKeys`). */
  get size(): number {
    return this.#logs.size;
  }

  /** Shared buckets holding events (for tests). */
  get sharedBuckets(): number {
    return this.#overflow?.size ?? 0;
  }

  #readLimit(): number {
    return typeof this.#limit === "number" ? this.#limit : Math.ceil(this.#limit());
  }

  #readWindow(): number {
    return typeof this.#windowMs === "number" ? this.#windowMs : this.#windowMs();
  }

  /**
   * Counts the first event of a key without an entry: in the shared buckets while they count it
   * (an entry of its own would start it over) or when the map has no room, else in a new entry.
   */
  #newcomer(key: string, limit: number, windowMs: number, now: number): number {
    const since = now - windowMs;
    if (this.#overflow && this.#overflow.count(key, since) > 0) {
      return this.#overflow.record(key, limit, windowMs, now);
    }
    if (!this.#room(since)) {
      this.#overflow ??= new OverflowBuckets();
      return this.#overflow.record(key, limit, windowMs, now);
    }
    this.#logs.set(key, { times: [now], next: 0, reported: -Infinity });
    return 0;
  }

  /**
   * True when the map can take a key: below its bound, or once a key whose window emptied is
   * dropped. Only the `EVICT_SCAN` least recently used are looked at (a flood of new keys costs a
   * few steps each); a key found still counting moves to the back, so the next look starts
   * further on.
   */
  #room(since: number): boolean {
    if (this.#logs.size < this.#maxKeys) return true;
    for (let i = 0; i < EVICT_SCAN; i++) {
      const first = this.#logs.entries().next().value;
      if (!first) return true;
      const [key, log] = first;
      this.#logs.delete(key);
      if (idle(log, since)) return true;
      this.#logs.set(key, log);
    }
    return false;
  }

  /**
   * Makes `key` the most recently used once the map is at its bound, so the keys looked at for
   * room are the idle ones first. Below the bound nothing is forgotten, so the move is skipped.
   */
  #touch(key: string, log: Log): void {
    if (this.#logs.size < this.#maxKeys) return;
    this.#logs.delete(key);
    this.#logs.set(key, log);
  }
}
