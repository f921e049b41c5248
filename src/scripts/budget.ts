/**
 * Script time budgets. Scripts run on the engine's event loop, so their CPU time is the
 * game's: each actor may spend `actorMs` of it per window and all actors together `gameMs`,
 * refilled evenly over the window (a token bucket each), so fifty players running 40 ms
 * scripts cannot add up to a stalled engine. A call is admitted while both buckets hold time,
 * when its turn in its script's queue comes; what it uses is taken after each of its slices (a
 * bucket may go below zero, and then refills first).
 */

/** Actors tracked at most; the fullest buckets (idle actors) are forgotten first. */
const MAX_ACTORS = 10_000;

/** A bucket of milliseconds, refilled at `capacity` per `windowMs`. */
class Bucket {
  level: number;
  at: number;

  constructor(capacity: number, now: number) {
    this.level = capacity;
    this.at = now;
  }

  /** The level now, after refilling. */
  refill(capacity: number, windowMs: number, now: number): number {
    this.level = Math.min(capacity, this.level + (now - this.at) * capacity / windowMs);
    this.at = now;
    return this.level;
  }
}

/** How the budgets are set (docs/scripts.md). */
export interface BudgetOptions {
  /** Script CPU ms one actor may use per window. */
  actorMs: number;
  /** Script CPU ms all actors together may use per window. */
  gameMs: number;
  /** The window, in ms. */
  windowMs: number;
}

/** The per-actor and game-wide budgets of script time. */
export class ScriptBudget {
  readonly #opts: BudgetOptions;
  readonly #actors = new Map<string, Bucket>();
  readonly #game: Bucket;
  readonly #now: () => number;

  constructor(opts: BudgetOptions, now: () => number = () => performance.now()) {
    this.#opts = opts;
    this.#now = now;
    this.#game = new Bucket(opts.gameMs, now());
  }

  /**
   * Null when `actor` may run a script now; else who is out of time (`actor` or `game`) and
   * how many ms until there is some again.
   */
  admit(actor: string): { who: "actor" | "game"; waitMs: number } | null {
    const now = this.#now();
    const { actorMs, gameMs, windowMs } = this.#opts;
    const game = this.#game.refill(gameMs, windowMs, now);
    const mine = this.#actors.get(actor)?.refill(actorMs, windowMs, now) ?? actorMs;
    if (mine <= 0) return { who: "actor", waitMs: Math.ceil(-mine * windowMs / actorMs) + 1 };
    if (game <= 0) return { who: "game", waitMs: Math.ceil(-game * windowMs / gameMs) + 1 };
    return null;
  }

  /** Takes `ms` of script time from `actor`'s bucket and the game's. */
  charge(actor: string, ms: number): void {
    const now = this.#now();
    const { actorMs, windowMs } = this.#opts;
    let b = this.#actors.get(actor);
    if (!b) {
      if (this.#actors.size >= MAX_ACTORS) this.#forgetFull(now);
      b = new Bucket(actorMs, now);
      this.#actors.set(actor, b);
    } else b.refill(actorMs, windowMs, now);
    b.level -= ms;
    this.#game.refill(this.#opts.gameMs, windowMs, now);
    this.#game.level -= ms;
  }

  /** Forgets actors whose buckets are full again (they are as if never seen). */
  #forgetFull(now: number): void {
    const { actorMs, windowMs } = this.#opts;
    for (const [id, b] of this.#actors) {
      if (b.refill(actorMs, windowMs, now) >= actorMs) this.#actors.delete(id);
    }
    // Everyone is busy: the oldest entries go (an actor forgotten starts with a full bucket).
    for (const id of this.#actors.keys()) {
      if (this.#actors.size < MAX_ACTORS) break;
      this.#actors.delete(id);
    }
  }
}
