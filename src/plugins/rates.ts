/**
 * Per-player rates: the budget of REST writes that reach other players, shared by every plugin,
 * and the budgets a plugin meters itself (mail's sends). One token bucket per budget and player:
 * a burst of `perMinute`, refilled at `perMinute` a minute. The engine holds the buckets, so a
 * plugin's reload does not hand a flooder a fresh budget.
 */
import type { MiddlewareHandler } from "hono";
import type { PluginEnv } from "../http/plugin_env.ts";
import { RateLimitError } from "../errors.ts";
import { counted } from "../text/plural.ts";
import { RateBudgets, type RateShape } from "../rate/budget.ts";

/** Buckets remembered before the least recently used are forgotten (a forgotten one is full). */
const MAX_BUCKETS = 50_000;

/** How an API description names the 429 of a route behind `restWrite()`. */
export const REST_WRITE_LIMITED =
  "the caller's REST writes that others hear are spent (`game.restWritesPerMinute`, 30 a minute by default, all plugins together; `Retry-After` says when to try again)";

/** A budget of `perMinute`: a burst of that many, refilled evenly over a minute. */
function perMinuteShape(perMinute: number): RateShape {
  return { capacity: perMinute, windowMs: 60_000 };
}

/** The engine's buckets, by budget and player. */
export class PlayerRates {
  readonly #budgets: RateBudgets;

  constructor(now: () => number = Date.now, maxBuckets = MAX_BUCKETS) {
    this.#budgets = new RateBudgets({ now, maxKeys: maxBuckets });
  }

  /**
   * Takes one from `key`'s bucket of `perMinute` (0 or less: no limit). Answers 0 when it was
   * taken, else the ms until one is free (nothing is taken then).
   */
  take(key: string, perMinute: number): number {
    return this.#budgets.take(key, 1, perMinuteShape(perMinute));
  }

  /** Gives one back to `key`'s bucket of `perMinute` (a write that was refused after all). */
  giveBack(key: string, perMinute: number): void {
    this.#budgets.giveBack(key, 1, perMinuteShape(perMinute));
  }

  /** Buckets held (for tests). */
  get size(): number {
    return this.#budgets.size;
  }
}

/** What a plugin's context offers of the rates (docs/plugins.md "Rates, quotas, notices"). */
export interface PluginRates {
  /**
   * Middleware for a REST route whose write reaches other players (a pose, a post, mail, a job
   * or comment staff hear of, an RSVP): counts it against the caller's REST write budget, one
   * for every plugin together (`game.restWritesPerMinute`), and answers 429 when it is spent.
   * Typed commands never count here: they have the hub's own budget.
   */
  restWrite(): MiddlewareHandler<PluginEnv>;
  /**
   * Counts one against this plugin's budget `name` for `playerId`, at most `perMinute` (0: no
   * limit); when it is spent, throws a RateLimitError (429) with `message` and when to try again.
   */
  take(name: string, playerId: string, perMinute: number, message: string): void;
}

/** The rates of plugin `owner` over the engine's buckets; `restPerMinute` is read at each use. */
export function pluginRates(
  rates: PlayerRates,
  owner: string,
  restPerMinute: () => number,
): PluginRates {
  return {
    restWrite: () => async (c, next) => {
      const p = c.var.player;
      if (!p) return await next();
      const max = restPerMinute();
      const key = `rest\u0000${p.id}`;
      // Taken before the work, so parallel requests cannot all pass one look at the bucket.
      const wait = rates.take(key, max);
      if (wait > 0) {
        c.header("Retry-After", String(Math.ceil(wait / 1000)));
        throw new RateLimitError(
          `You are writing too fast: at most ${max} posts, poses, messages, jobs, comments ` +
            `and RSVPs a minute through the web API. ${again(wait)}`,
        );
      }
      await next();
      // A write refused (bad input, no such scene, a quota) reached nobody: it costs nothing.
      if (c.res.status >= 400) rates.giveBack(key, max);
    },
    take: (name, playerId, perMinute, message) => {
      const wait = rates.take(`${owner}\u0000${name}\u0000${playerId}`, perMinute);
      if (wait > 0) throw new RateLimitError(`${message} ${again(wait)}`);
    },
  };
}

/** `Try again in 3 seconds.` */
function again(ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  return `Try again in ${counted(s, "second")}.`;
}
