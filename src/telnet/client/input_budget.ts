/**
 * The input budget of one telnet connection: a token bucket over the bytes read from it. A player
 * types a few bytes a second and a paste is fed to the hub at eight lines a second anyway, but a
 * client that streams subnegotiations, option flips or escaped junk at wire speed had the process
 * that holds its socket parse hundreds of megabytes a second, and every other player waited
 * seconds for their own lines. Over the budget the socket is not read for a while, so TCP holds
 * the sender back and the connection costs only itself.
 */

/** Seconds of the rate a connection may send at once before it is slowed (a paste, a resize). */
export const BURST_SECONDS = 4;

/** A token bucket over input bytes (pure: the caller supplies the clock). */
export class InputBudget {
  readonly #perSecond: number;
  readonly #burst: number;
  #tokens: number;
  #at: number;

  /** `perSecond` bytes a second after a burst of `BURST_SECONDS` of them; 0: no bound. */
  constructor(perSecond: number, now: number) {
    this.#perSecond = Math.max(0, perSecond);
    this.#burst = this.#perSecond * BURST_SECONDS;
    this.#tokens = this.#burst;
    this.#at = now;
  }

  /** Counts `bytes` just read at `now`: how long to stop reading, in ms (0: read on). */
  take(bytes: number, now: number): number {
    if (this.#perSecond === 0) return 0;
    const refill = ((now - this.#at) / 1000) * this.#perSecond;
    this.#at = now;
    this.#tokens = Math.min(this.#burst, this.#tokens + refill) - bytes;
    return this.#tokens >= 0 ? 0 : Math.ceil((-this.#tokens / this.#perSecond) * 1000);
  }
}
