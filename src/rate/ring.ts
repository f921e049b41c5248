/**
 * One sliding log: the times of the latest events of a key (or of a shared bucket) in a ring, and
 * the words a sliding window counts with. `SlidingWindows` keeps one per key it holds and one per
 * overflow bucket (`src/rate/overflow.ts`).
 *
 * The ring grows only while all of it is in the window (so to the most events a window has held,
 * at most `limit`); an event that fits then replaces the oldest in place, so counting one
 * allocates nothing and looks at one slot.
 */

/** One log's events. */
export interface Log {
  /**
   * Times of the latest events, a ring: `next` is the oldest (and where the next one goes when
   * it replaces one). A slot given back holds -Infinity, which every window has left.
   */
  times: number[];
  next: number;
  /** When a refusal was last reported (-Infinity = never). */
  reported: number;
}

/** A log with no event. */
export function emptyLog(): Log {
  return { times: [-Infinity], next: 0, reported: -Infinity };
}

/** Index of the `n`th latest time of `log` (1 = the latest); `n` at most the ring's size. */
export function latest(log: Log, n: number): number {
  const size = log.times.length;
  const i = log.next - n;
  return i < 0 ? i + size : i;
}

/** 0 when `log` has room for an event at `now`, else the ms until its oldest counted one leaves. */
export function waitFor(log: Log, limit: number, windowMs: number, now: number): number {
  const t = log.times;
  if (t.length < limit) return 0;
  // The limit-th latest event decides; with `limit` slots exactly that is the oldest.
  const decides = t[t.length === limit ? log.next : latest(log, limit)];
  const since = now - windowMs;
  return decides > since ? Math.ceil(decides - since) : 0;
}

/**
 * Adds an event at `now` whether or not there is room: in a full ring it replaces the oldest, which
 * only holds the ring full for longer (what an overflow bucket wants).
 */
export function push(log: Log, limit: number, windowMs: number, now: number): void {
  const t = log.times;
  if (t.length < limit && t[log.next] > now - windowMs) {
    // Every slot is in the window and the limit is not reached: one more slot, just before the
    // oldest (rare: the ring grows at most to the limit).
    if (log.next === 0) t.push(now);
    else {
      t.splice(log.next, 0, now);
      log.next++;
    }
    return;
  }
  t[log.next] = now;
  log.next = log.next + 1 === t.length ? 0 : log.next + 1;
}

/**
 * Records an event of `log` at `now` if fewer than `limit` of its events are in the window: 0,
 * or else the ms until one leaves it (nothing recorded).
 */
export function record(log: Log, limit: number, windowMs: number, now: number): number {
  const wait = waitFor(log, limit, windowMs, now);
  if (wait === 0) push(log, limit, windowMs, now);
  return wait;
}

/** Takes back the event recorded at `stamp` (one of them, when several share it). */
export function unrecord(log: Log, stamp: number): void {
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
export function inWindow(log: Log, since: number): number {
  let n = 0;
  for (const at of log.times) if (at > since) n++;
  return n;
}

/** True when `log` is as if never seen: no event in the window and no report within one. */
export function idle(log: Log, since: number): boolean {
  return log.times[latest(log, 1)] <= since && log.reported <= since;
}
