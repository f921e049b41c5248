/**
 * The engine's other rate primitive: at most `limit` events in any span of `windowMs`, per key,
 * counted exactly (a sliding log: the time of each event still in the window is kept). The hub's
 * command and keepalive rates, the login, registration and avatar limits are all one of these
 * (docs/architecture.md, "Rates and budgets" says why they are not budgets).
 *
 * Each key keeps its events' times in a ring that grows only while all of it is in the window
 * (so to the most events a window has held, at most `limit`); an event that fits then replaces
 * the oldest in place, so counting one allocates nothing and looks at one slot.
 */

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
  /** Keys held at most (default `MAX_WINDOW_KEYS`); past it the least recently used go. */
  maxKeys?: number;
  /** The clock, in ms (`Date.now` by default: the staff view shows its times as dates). */
  now?: () => number;
  /**
   * What a key is counted as, e.g. `addressGroup` (an IPv6 address by its /64): every caller
   * passes the key as it came, and the grouping is done here, once.
   */
  group?: (key: string) => string;
}

/** One key's events. */
interface Log {
  /**
   * Times of the latest events, a ring: `next` is the oldest (and where the next one goes when
   * it replaces one). A slot given back holds -Infinity, which every window has left.
   */
  times: number[];
  next: number;
  /** When a refusal was last reported (-Infinity = never). */
  reported: number;
}

/** What a give-back that has nothing to give does (shared: no allocation per unlimited use). */
const NOTHING = (): void => {};

/** True when `limit` per `windowMs` bounds nothing (an infinite limit: an endless ring). */
function unbounded(limit: number, windowMs: number): boolean {
  return !(limit > 0 && limit < Infinity && windowMs > 0);
}

/** Index of the `n`th latest time of `log` (1 = the latest); `n` at most the ring's size. */
function latest(log: Log, n: number): number {
  const size = log.times.length;
  const i = log.next - n;
  return i < 0 ? i + size : i;
}

/**
 * Records an event of `log` at `now` if fewer than `limit` of its events are in the window: 0,
 * or else the ms until one leaves it (nothing recorded).
 */
function record(log: Log, limit: number, windowMs: number, now: number): number {
  const t = log.times;
  const size = t.length;
  const since = now - windowMs;
  if (size >= limit) {
    // The limit-th latest event decides; with `limit` slots exactly that is the oldest.
    const decides = t[size === limit ? log.next : latest(log, limit)];
    if (decides > since) return Math.ceil(decides - since);
  } else if (t[log.next] > since) {
    // Every slot is in the window and the limit is not reached: one more slot, just before the
    // oldest (rare: the ring grows at most to the limit).
    if (log.next === 0) t.push(now);
    else {
      t.splice(log.next, 0, now);
      log.next++;
    }
    return 0;
  }
  t[log.next] = now;
  log.next = log.next + 1 === size ? 0 : log.next + 1;
  return 0;
}

/** Takes back the event recorded at `stamp` (one of them, when several share it). */
function unrecord(log: Log, stamp: number): void {
  const t = log.times;
  for (let n = 1; n <= t.length; n++) {
    let i = latest(log, n);
    if (t[i] !== stamp) continue;
    // The older events move up one; the oldest slot is left empty.
    for (; n < t.length; n++) {
      const older = latest(log, n + 1);
      t[i] = t[older];
      i = older;
    }
    t[i] = -Infinity;
    return;
  }
}

/** Events of `log` in the window that began after `since`. */
function inWindow(log: Log, since: number): number {
  let n = 0;
  for (const at of log.times) if (at > since) n++;
  return n;
}

/** True when `log` is as if never seen: no event in the window and no report within one. */
function idle(log: Log, since: number): boolean {
  return log.times[latest(log, 1)] <= since && log.reported <= since;
}

/**
 * Sliding windows by key: a player's commands, a connection's keepalives, an address's failed
 * logins. The key map is bounded: past `maxKeys` the least recently used key is forgotten (it
 * comes back with an empty window: the bound costs a flooder's victims nothing). Below the bound
 * nothing is forgotten, so the order is kept only from there on (a busy key is not moved in the
 * map at each of its events). A key whose window emptied is not dropped on its own either: a
 * player who types every few seconds would cost a new entry at each command; the staff view,
 * which looks at every key anyway, drops those it finds.
 */
export class SlidingWindows {
  /** Map order is least recently used first, once the map is at its bound. */
  readonly #logs = new Map<string, Log>();
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
    if (!log) {
      this.#add(k, now);
      return 0;
    }
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
    let log = this.#logs.get(k);
    if (!log) log = this.#add(k, now);
    else {
      this.#touch(k, log);
      if (record(log, limit, windowMs, now) > 0) return null;
    }
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const current = this.#logs.get(k);
      if (current) unrecord(current, now);
    };
  }

  /** Events of `key` in the window now. */
  count(key: string): number {
    const log = this.#logs.get(this.#group ? this.#group(key) : key);
    return log ? inWindow(log, this.#now() - this.#readWindow()) : 0;
  }

  /**
   * The keys at their limit now (as grouped), each with when its oldest counted event leaves
   * the window: a staff view, which looks at every key held (at most `maxKeys`).
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
    return out;
  }

  /** True at most once a window per key: whether to log a refusal (`now` as for `take`). */
  shouldReport(key: string, now?: number): boolean {
    const log = this.#logs.get(this.#group ? this.#group(key) : key);
    now ??= this.#now();
    if (!log || now - log.reported < this.#readWindow()) return false;
    log.reported = now;
    return true;
  }

  /** Forgets `key` (its player left, a wizard let it go); false when its window held nothing. */
  forget(key: string): boolean {
    const k = this.#group ? this.#group(key) : key;
    const log = this.#logs.get(k);
    if (!log) return false;
    this.#logs.delete(k);
    return inWindow(log, this.#now() - this.#readWindow()) > 0;
  }

  /** Keys held (for tests). */
  get size(): number {
    return this.#logs.size;
  }

  #readLimit(): number {
    return typeof this.#limit === "number" ? this.#limit : Math.ceil(this.#limit());
  }

  #readWindow(): number {
    return typeof this.#windowMs === "number" ? this.#windowMs : this.#windowMs();
  }

  /** A new key with one event at `now`; past the bound the least recently used key goes. */
  #add(key: string, now: number): Log {
    if (this.#logs.size >= this.#maxKeys) {
      const oldest = this.#logs.keys().next().value;
      if (oldest !== undefined) this.#logs.delete(oldest);
    }
    const log: Log = { times: [now], next: 0, reported: -Infinity };
    this.#logs.set(key, log);
    return log;
  }

  /**
   * Makes `key` the most recently used once the map is at its bound, so a crowd of new keys
   * forgets the idle ones, not a busy key whose full window is what holds it back. Below the
   * bound nothing is forgotten, so the move is skipped.
   */
  #touch(key: string, log: Log): void {
    if (this.#logs.size < this.#maxKeys) return;
    this.#logs.delete(key);
    this.#logs.set(key, log);
  }
}
