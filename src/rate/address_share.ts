/**
 * A connection's draw on the input budget of its address, which all the address's connections
 * share (an IPv6 address by its /64): first from a share of its own, which the others cannot
 * spend, then from the address's common budget. Players behind one address (a school, a
 * household behind one NAT) type within their shares, so one of them flooding spends only the
 * common budget and the others keep being read; and many connections from one address cost at
 * most the common budget and a share each (session 57, the WebSocket and telnet carriers).
 */
import { RateBudget, type RateBudgets, type RateShape } from "./budget.ts";

/**
 * Bytes a second of a connection's own share after its burst: above what a player types
 * (the hub runs 10 commands a second; a WebSocket frame costs at least 1 KiB, so 8 frames).
 */
export const SHARE_BYTES_PER_SECOND = 8 * 1024;

/** The shape of a share with a burst of `burstSeconds` of it. */
export function shareShape(burstSeconds: number): RateShape {
  return {
    capacity: SHARE_BYTES_PER_SECOND * burstSeconds,
    windowMs: burstSeconds * 1000,
  };
}

/** One connection's share and its address's common budget. */
export class AddressShare {
  readonly #share: RateBudget;
  readonly #budgets: RateBudgets;
  readonly #key: string;
  readonly #shape: RateShape;

  /**
   * `budgets`: the common budgets by address (shared by the process's connections), `key` this
   * connection's address group in them, `shape` theirs; `share` the shape of its own share.
   */
  constructor(
    budgets: RateBudgets,
    key: string,
    shape: RateShape,
    share: RateShape,
    now: () => number,
  ) {
    this.#share = new RateBudget(share, now);
    this.#budgets = budgets;
    this.#key = key;
    this.#shape = shape;
  }

  /**
   * Counts `amount` read: from the share when it holds it, else from the common budget. The
   * ms the common budget owes after it (0: within the share, or the common budget had it).
   */
  spend(amount: number): number {
    if (this.#share.take(amount) === 0) return 0;
    return this.#budgets.spend(this.#key, amount, this.#shape);
  }
}
