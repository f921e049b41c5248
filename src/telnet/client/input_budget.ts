/**
 * The input budget of a telnet connection: a token bucket over the bytes read from it. A player
 * types a few bytes a second and a paste is fed to the hub at eight lines a second anyway, but a
 * client that streams subnegotiations, option flips or escaped junk at wire speed had the process
 * that holds its socket parse hundreds of megabytes a second, and every other player waited
 * seconds for their own lines. Over the budget the socket is not read for a while, so TCP holds
 * the sender back and the connection costs only itself. The same bound holds for each address
 * (an IPv6 one by its /64) over all its connections, so opening many does not multiply it; each
 * connection reads within its own share of it whatever the others spent
 * (src/rate/address_share.ts), so one player flooding from an address shared by many does not
 * hold the others' lines back.
 */
import { RateBudget, type RateBudgets, type RateShape } from "../../rate/budget.ts";
import { AddressShare, shareShape } from "../../rate/address_share.ts";

/** Seconds of the rate a connection may send at once before it is slowed (a paste, a resize). */
export const BURST_SECONDS = 4;

/** The budget of `perSecond` bytes a second after a burst of `BURST_SECONDS` of them (0: none). */
export function inputShape(perSecond: number): RateShape {
  return { capacity: perSecond * BURST_SECONDS, windowMs: BURST_SECONDS * 1000 };
}

/** One connection's input budget, and its address's (shared by the address's connections). */
export class InputBudget {
  readonly #own: RateBudget;
  readonly #address: AddressShare | null;

  /**
   * `perSecond` bytes a second for this connection (0: no bound), and `address`: the budgets by
   * address of the process, this connection's key in them and their shape (null: none).
   */
  constructor(
    perSecond: number,
    now: () => number,
    address: { budgets: RateBudgets; key: string; shape: RateShape } | null = null,
  ) {
    this.#own = new RateBudget(inputShape(perSecond), now);
    this.#address = address &&
      new AddressShare(address.budgets, address.key, address.shape, shareShape(BURST_SECONDS), now);
  }

  /** Counts `bytes` just read: how long to stop reading, in ms (0: read on). */
  take(bytes: number): number {
    const own = this.#own.spend(bytes);
    const a = this.#address;
    return a ? Math.max(own, a.spend(bytes)) : own;
  }
}
