/**
 * Where a `SlidingWindows` counts the keys it has no room for: a fixed number of shared logs, each
 * key counted in one bucket of each of `ROWS` rows picked by a hash seeded at random per table (a
 * count-min sketch of sliding logs). A key's count is the least of its buckets', so it is never
 * below the key's own events: traffic of other keys can only raise it. That is what lets the table
 * keep its bound without forgetting a key whose window still holds events (docs/security.md,
 * "Failed-login limits").
 */
import { emptyLog, idle, inWindow, type Log, push, unrecord, waitFor } from "./ring.ts";

/** Buckets in each row. */
export const OVERFLOW_WIDTH = 4096;
/** Rows: a key is counted in one bucket of each. */
export const OVERFLOW_ROWS = 2;

/** A 32-bit hash of `key` under `seed` (FNV-1a over UTF-16 units, then murmur3's finaliser). */
function hash(key: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The shared buckets; a bucket's log is made at its first event and dropped once idle. */
export class OverflowBuckets {
  readonly #logs = new Map<number, Log>();
  readonly #seeds: Uint32Array;

  /** Empty buckets, with seeds no client can know (so none can aim its keys at another's). */
  constructor() {
    this.#seeds = crypto.getRandomValues(new Uint32Array(OVERFLOW_ROWS));
  }

  /** Bucket numbers of `key`, one per row. */
  #buckets(key: string): number[] {
    const out: number[] = [];
    for (let r = 0; r < OVERFLOW_ROWS; r++) {
      out.push(r * OVERFLOW_WIDTH + (hash(key, this.#seeds[r]) % OVERFLOW_WIDTH));
    }
    return out;
  }

  /** Events counted for `key` in the window that began after `since` (never fewer than its own). */
  count(key: string, since: number): number {
    if (!this.#logs.size) return 0;
    let least = Infinity;
    for (const b of this.#buckets(key)) {
      const log = this.#logs.get(b);
      least = Math.min(least, log ? inWindow(log, since) : 0);
    }
    return least;
  }

  /**
   * Counts an event of `key` at `now` if one of its buckets has room (0), else the ms until one
   * has. The event goes into every bucket of the key, a full one included (it stays full longer).
   */
  record(key: string, limit: number, windowMs: number, now: number): number {
    const buckets = this.#buckets(key);
    let wait = Infinity;
    for (const b of buckets) {
      const log = this.#logs.get(b);
      wait = Math.min(wait, log ? waitFor(log, limit, windowMs, now) : 0);
    }
    if (wait > 0) return wait;
    for (const b of buckets) {
      let log = this.#logs.get(b);
      if (!log) this.#logs.set(b, log = emptyLog());
      push(log, limit, windowMs, now);
    }
    return 0;
  }

  /**
   * Takes back `key`'s event recorded at `stamp`, except from a bucket that is full at `now`:
   * there it may have taken the place of another key's oldest event (record() pushes into a full
   * bucket), and taking it out would leave that key counted below its own events. It stays,
   * counting one more than happened until it leaves the window, as the buckets may always count
   * more; a bucket no longer full has lost its oldest events since, the one replaced among them.
   */
  unrecord(key: string, stamp: number, limit: number, windowMs: number, now: number): void {
    for (const b of this.#buckets(key)) {
      const log = this.#logs.get(b);
      if (log && waitFor(log, limit, windowMs, now) === 0) unrecord(log, stamp);
    }
  }

  /**
   * The log that remembers when `key`'s refusals were reported (its first bucket's: keys sharing
   * it share the once-a-window report), or null when it has none.
   */
  reportLog(key: string): Log | null {
    return this.#logs.get(this.#buckets(key)[0]) ?? null;
  }

  /**
   * Empties `key`'s buckets (a wizard let it go: the other keys counted in them are let go too);
   * true when the key counted anything in the window that began after `since`. A key that counts
   * nothing (one of its buckets holds no event in the window: a connection that closes, an
   * address never seen) leaves them to the keys they hold.
   */
  clear(key: string, since: number): boolean {
    if (this.count(key, since) === 0) return false;
    for (const b of this.#buckets(key)) this.#logs.delete(b);
    return true;
  }

  /** Drops the buckets whose windows emptied. */
  sweep(since: number): void {
    for (const [b, log] of this.#logs) if (idle(log, since)) this.#logs.delete(b);
  }

  /** Buckets holding a log (at most `OVERFLOW_ROWS` x `OVERFLOW_WIDTH`). */
  get size(): number {
    return this.#logs.size;
  }
}
