/**
 * The time source of the scheduler: the real clock in the engine, a hand-driven one in
 * tests, so a job due in a week is tested without waiting a week.
 */

/** A handle returned by `Clock.setTimeout`. */
export type TimerHandle = number;

/** What the scheduler needs of time. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `fn` once after `ms` (clamped to what the platform allows). */
  setTimeout(fn: () => void, ms: number): TimerHandle;
  /** Cancels a pending call. */
  clearTimeout(handle: TimerHandle): void;
}

/** setTimeout's own limit: a longer delay fires at once on every platform. */
const MAX_DELAY = 2 ** 31 - 1;

/** The real clock. */
export function systemClock(): Clock {
  return {
    now: () => Date.now(),
    // Deno's timers are numbers; the Node typings visible here say otherwise.
    setTimeout: (fn, ms) =>
      setTimeout(fn, Math.min(Math.max(0, ms), MAX_DELAY)) as unknown as TimerHandle,
    clearTimeout: (h) => clearTimeout(h),
  };
}

/** A clock that moves only when told to; `advance` fires what came due, in time order. */
export class ManualClock implements Clock {
  #now: number;
  #next = 1;
  readonly #pending = new Map<TimerHandle, { at: number; fn: () => void }>();

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const h = this.#next++;
    // Clamped as the real clock is, so code that must re-arm past the limit is tested.
    this.#pending.set(h, { at: this.#now + Math.min(Math.max(0, ms), MAX_DELAY), fn });
    return h;
  }

  clearTimeout(handle: TimerHandle): void {
    this.#pending.delete(handle);
  }

  /** Calls waiting on this clock (for tests that check nothing is left armed). */
  get pending(): number {
    return this.#pending.size;
  }

  /** Moves time forward by `ms`, firing each call that comes due on the way. */
  advance(ms: number): void {
    const target = this.#now + ms;
    for (;;) {
      let first: [TimerHandle, { at: number; fn: () => void }] | undefined;
      for (const entry of this.#pending) {
        if (entry[1].at <= target && (!first || entry[1].at < first[1].at)) first = entry;
      }
      if (!first) break;
      this.#pending.delete(first[0]);
      this.#now = Math.max(this.#now, first[1].at);
      first[1].fn();
    }
    this.#now = target;
  }
}
