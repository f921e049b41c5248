/**
 * The engine's one rate primitive: a budget of some amount (bytes read, writes, milliseconds of
 * script time) that comes back over time, alone ({@linkcode RateBudget}) or one per key
 * ({@linkcode RateBudgets}, bounded, idle keys forgotten first). Every budget that refills with
 * time is one of these, so the clock, the overdraft, the rounding and the memory bound are
 * handled once (docs/architecture.md, "Rates and budgets").
 *
 * How it comes back is the one thing users differ in on purpose, so it is a parameter:
 * - `steady`, a token bucket: a burst of `capacity`, then `capacity` every `windowMs`, evenly.
 *   Kept as the time the budget is full again (one number), so an idle budget needs no timer
 *   and is forgotten as soon as that time has passed.
 * - `window`, a fixed window: `capacity` in each window, which begins at the first use after the
 *   last one ended; all of it comes back when the window ends, and an overdraft does not carry
 *   over.
 *
 * Spending may overdraw (the caller learns how long until the budget is out of debt); taking
 * only succeeds when there is enough. A clock that steps back is absorbed: time stands still
 * until it moves on, and nothing is refilled or charged for the step.
 */

/** How a spent budget comes back: evenly over the window, or whole when its window ends. */
export type Refill = "steady" | "window";

/** What a budget holds and how fast it comes back. */
export interface RateShape {
  /** The most a budget holds (the burst); 0 or less (or not a number): no bound at all. */
  readonly capacity: number;
  /** How long a spent budget takes to come back whole, in ms; 0 or less: no bound at all. */
  readonly windowMs: number;
  /** `steady` (the default) or `window`. */
  readonly refill?: Refill;
}

/**
 * Windows' worth of debt a budget may owe at most. A larger overdraft is a caller's bug or an
 * attack; without the cap one `Infinity` would hold a budget (and its key) for ever.
 */
export const MAX_DEBT_WINDOWS = 1000;

/** Keys a {@linkcode RateBudgets} holds unless told otherwise. */
export const MAX_KEYS = 10_000;

/**
 * One budget's state. `steady`: `at` is when it is full again, `used` unused. `window`: `at` is
 * when its window ends, `used` what was spent in it. Either way it is as good as new (and may be
 * forgotten) once `at` has passed.
 */
interface State {
  at: number;
  used: number;
}

/** True when `shape` bounds nothing. */
function unbounded(shape: RateShape): boolean {
  return !(shape.capacity > 0 && shape.windowMs > 0);
}

/** An amount as the arithmetic takes it: NaN and below zero are nothing. */
function amountOf(n: number): number {
  return n > 0 ? n : 0;
}

/** What is left of `s` at `now` (at most `capacity`; below zero after an overdraft). */
function leftOf(s: State, shape: RateShape, now: number): number {
  if (s.at <= now) return shape.capacity;
  if (shape.refill === "window") return shape.capacity - s.used;
  return shape.capacity - (s.at - now) * shape.capacity / shape.windowMs;
}

/** Ms from `now` until `s` holds `amount` (0: it does now; Infinity: it never will). */
function waitOf(s: State, shape: RateShape, amount: number, now: number): number {
  if (amount > shape.capacity) return Infinity;
  if (shape.refill === "window") {
    return s.at <= now || s.used + amount <= shape.capacity ? 0 : s.at - now;
  }
  // Full again at `s.at`; with `amount` taken it would be full at `next`, which may be at most a
  // window away.
  const next = Math.max(s.at, now) + amount * shape.windowMs / shape.capacity;
  return Math.max(0, next - now - shape.windowMs);
}

/** Takes `amount` from `s` at `now`, overdrawing if need be (up to `MAX_DEBT_WINDOWS`). */
function spendOf(s: State, shape: RateShape, amount: number, now: number): void {
  if (shape.refill === "window") {
    if (s.at <= now) {
      s.at = now + shape.windowMs;
      s.used = 0;
    }
    s.used = Math.min(s.used + amount, shape.capacity * MAX_DEBT_WINDOWS);
    return;
  }
  const at = Math.max(s.at, now) + amount * shape.windowMs / shape.capacity;
  s.at = Math.min(at, now + shape.windowMs * (MAX_DEBT_WINDOWS + 1));
}

/** Gives `amount` back to `s` (never past full). */
function giveBackOf(s: State, shape: RateShape, amount: number, now: number): void {
  if (s.at <= now) return;
  if (shape.refill === "window") s.used = Math.max(0, s.used - amount);
  else s.at = Math.max(now, s.at - amount * shape.windowMs / shape.capacity);
}

/**
 * A clock made to never step back: a step back is absorbed (time stands still until the clock
 * has made it up), so a budget neither refills nor charges for it.
 */
class Forward {
  #skew = 0;
  #last = -Infinity;

  constructor(private readonly clock: () => number) {}

  /** The time now, never less than the last time read. */
  now(): number {
    const t = this.clock() + this.#skew;
    if (t >= this.#last) return this.#last = t;
    // Stepped back: from here on the clock reads as if it had not.
    this.#skew += this.#last - t;
    return this.#last;
  }
}

/** One budget: a connection's input bytes, the game's script time. */
export class RateBudget {
  readonly #s: State = { at: -Infinity, used: 0 };
  readonly #clock: Forward;

  /** A full budget of `shape`, read against `now` (ms; `performance.now` by default). */
  constructor(readonly shape: RateShape, now: () => number = () => performance.now()) {
    this.#clock = new Forward(now);
  }

  /** What is left now: at most `capacity`, below zero while it owes (Infinity: no bound). */
  left(): number {
    return unbounded(this.shape) ? Infinity : leftOf(this.#s, this.shape, this.#clock.now());
  }

  /** Takes `amount` whether or not it is there: the ms until the budget is out of debt (0: not in debt). */
  spend(amount: number): number {
    if (unbounded(this.shape)) return 0;
    const now = this.#clock.now();
    spendOf(this.#s, this.shape, amountOf(amount), now);
    return Math.ceil(waitOf(this.#s, this.shape, 0, now));
  }

  /** Takes `amount` if it is there (0); else nothing is taken and the answer is the ms to wait. */
  take(amount: number): number {
    if (unbounded(this.shape)) return 0;
    const now = this.#clock.now();
    const a = amountOf(amount);
    const wait = waitOf(this.#s, this.shape, a, now);
    if (wait > 0) return Math.ceil(wait);
    spendOf(this.#s, this.shape, a, now);
    return 0;
  }

  /** Ms until `amount` is there (0: now; Infinity: more than the budget ever holds). */
  waitFor(amount: number): number {
    if (unbounded(this.shape)) return 0;
    return Math.ceil(waitOf(this.#s, this.shape, amountOf(amount), this.#clock.now()));
  }

  /** Gives back `amount` taken for something that did not happen after all. */
  giveBack(amount: number): void {
    if (!unbounded(this.shape)) {
      giveBackOf(this.#s, this.shape, amountOf(amount), this.#clock.now());
    }
  }
}

/** Settings of {@linkcode RateBudgets}. */
export interface RateBudgetsOptions {
  /** Keys held at most (default `MAX_KEYS`); past it the least recently used are forgotten. */
  maxKeys?: number;
  /** The clock, in ms (`performance.now` by default). */
  now?: () => number;
}

/**
 * Budgets by key: a player's REST writes, an actor's script time, an address's telnet input. A
 * key whose budget is whole again is as if never seen, so it is forgotten: the oldest of those
 * whenever a new key comes, and past `maxKeys` the least recently used key whatever its state
 * (it comes back whole: the bound costs a flooder's victims nothing, and at worst lets a
 * forgotten key start again). The shape is given at each use, so one table can hold budgets of
 * different sizes (plugins' budgets, a limit `@reload/config` changed).
 */
export class RateBudgets<K = string> {
  /** Map order is least recently used first. */
  readonly #states = new Map<K, State>();
  /** The key used last, already at the map's recent end (a flood is one key, over and over). */
  #last: K | undefined;
  readonly #maxKeys: number;
  readonly #clock: Forward;

  /** An empty table. */
  constructor(opts: RateBudgetsOptions = {}) {
    this.#maxKeys = Math.max(1, opts.maxKeys ?? MAX_KEYS);
    this.#clock = new Forward(opts.now ?? (() => performance.now()));
  }

  /** What `key` has left now (see {@linkcode RateBudget.left}). */
  left(key: K, shape: RateShape): number {
    if (unbounded(shape)) return Infinity;
    const s = this.#states.get(key);
    return s ? leftOf(s, shape, this.#clock.now()) : shape.capacity;
  }

  /** Takes `amount` from `key` whether or not it is there: the ms until it is out of debt. */
  spend(key: K, amount: number, shape: RateShape): number {
    if (unbounded(shape)) return 0;
    const now = this.#clock.now();
    const s = this.#touch(key, now);
    spendOf(s, shape, amountOf(amount), now);
    return Math.ceil(waitOf(s, shape, 0, now));
  }

  /** Takes `amount` from `key` if it is there (0); else takes nothing and answers the ms to wait. */
  take(key: K, amount: number, shape: RateShape): number {
    if (unbounded(shape)) return 0;
    const now = this.#clock.now();
    const a = amountOf(amount);
    const held = this.#states.get(key);
    const wait = held ? waitOf(held, shape, a, now) : a > shape.capacity ? Infinity : 0;
    if (wait > 0) return Math.ceil(wait);
    spendOf(this.#touch(key, now), shape, a, now);
    return 0;
  }

  /** Ms until `key` holds `amount` (0: now; Infinity: more than the budget ever holds). */
  waitFor(key: K, amount: number, shape: RateShape): number {
    if (unbounded(shape)) return 0;
    const s = this.#states.get(key);
    const a = amountOf(amount);
    if (!s) return a > shape.capacity ? Infinity : 0;
    return Math.ceil(waitOf(s, shape, a, this.#clock.now()));
  }

  /** Gives back `amount` taken from `key` for something that did not happen after all. */
  giveBack(key: K, amount: number, shape: RateShape): void {
    const s = this.#states.get(key);
    if (!s || unbounded(shape)) return;
    const now = this.#clock.now();
    giveBackOf(s, shape, amountOf(amount), now);
    if (s.at <= now) this.#states.delete(key);
  }

  /** Forgets `key` (its budget is whole again). */
  forget(key: K): void {
    this.#states.delete(key);
    if (this.#last === key) this.#last = undefined;
  }

  /** Keys held (for tests). */
  get size(): number {
    return this.#states.size;
  }

  /** `key`'s state, made most recently used (a new key gets a whole budget). */
  #touch(key: K, now: number): State {
    const s = this.#states.get(key);
    if (s) {
      if (key !== this.#last) {
        this.#states.delete(key);
        this.#states.set(key, s);
        this.#last = key;
      }
      return s;
    }
    // Whole budgets at the old end go first: each key is dropped once, so this costs nothing
    // over time however many keys come and go.
    for (const [k, old] of this.#states) {
      if (old.at > now && this.#states.size < this.#maxKeys) break;
      this.#states.delete(k);
    }
    const fresh = { at: -Infinity, used: 0 };
    this.#states.set(key, fresh);
    this.#last = key;
    return fresh;
  }
}
