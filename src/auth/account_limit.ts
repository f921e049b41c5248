/**
 * The per-account failed-login limit: failures against one character in a window, each address
 * counted once. One address's guesses are the per-address limit's to bound (10 a minute); this
 * one bounds a guess spread over many addresses, and one address alone can never trip it for
 * everyone else.
 */
import { WindowCounter } from "./rate_limit.ts";

/** Failed logins per account, counted by address. */
export class AccountLimit {
  /** Per account: the addresses that failed against it within the window. */
  readonly #addresses: WindowCounter;
  /** Per account and address: whether that address already failed (and is counted). */
  readonly #pairs: WindowCounter;

  /** `limit` 0 means no limit; both are read at each attempt (`@reload/config` changes them). */
  constructor(
    private readonly limit: () => number,
    windowMs: () => number,
    now: () => number = Date.now,
  ) {
    this.#addresses = new WindowCounter(limit, windowMs, 10_000, now);
    this.#pairs = new WindowCounter(1, windowMs, 20_000, now);
  }

  /**
   * Takes the attempt's slot before its password is compared: a function that gives it back (a
   * right password), or null when the account is past its limit and `ip` is not counted in it
   * yet. An address that already failed within the window takes no new slot.
   */
  reserve(id: string, ip: string): (() => void) | null {
    if (this.limit() <= 0) return () => {};
    const pair = this.#pairs.reserve(`${id} ${ip}`);
    if (!pair) return () => {};
    const account = this.#addresses.reserve(id);
    if (!account) {
      pair();
      return null;
    }
    return () => {
      pair();
      account();
    };
  }
}
