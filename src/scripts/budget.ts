/**
 * Script time budgets. Scripts run on the engine's event loop, so their CPU time is the
 * game's: each actor may spend `actorMs` of it per window and all actors together `gameMs`,
 * refilled evenly over the window (a token bucket each, src/rate/budget.ts), so fifty players
 * running 40 ms scripts cannot add up to a stalled engine. A call is admitted while both buckets
 * hold time, when its turn in its script's queue comes; what it uses is taken after each of its
 * slices (a bucket may go below zero, and then refills first).
 */
import { RateBudget, RateBudgets, type RateShape } from "../rate/budget.ts";

/** Actors tracked at most; idle actors (whose buckets are full again) are forgotten first. */
const MAX_ACTORS = 10_000;

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
  readonly #actor: RateShape;
  readonly #actors: RateBudgets;
  readonly #game: RateBudget;

  constructor(opts: BudgetOptions, now: () => number = () => performance.now()) {
    this.#actor = { capacity: opts.actorMs, windowMs: opts.windowMs };
    this.#actors = new RateBudgets({ maxKeys: MAX_ACTORS, now });
    this.#game = new RateBudget({ capacity: opts.gameMs, windowMs: opts.windowMs }, now);
  }

  /**
   * Null when `actor` may run a script now; else who is out of time (`actor` or `game`) and
   * how many ms until there is some again.
   */
  admit(actor: string): { who: "actor" | "game"; waitMs: number } | null {
    if (this.#actors.left(actor, this.#actor) <= 0) {
      return { who: "actor", waitMs: this.#actors.waitFor(actor, 0, this.#actor) + 1 };
    }
    if (this.#game.left() <= 0) return { who: "game", waitMs: this.#game.waitFor(0) + 1 };
    return null;
  }

  /** Takes `ms` of script time from `actor`'s bucket and the game's. */
  charge(actor: string, ms: number): void {
    this.#actors.spend(actor, ms, this.#actor);
    this.#game.spend(ms);
  }
}
