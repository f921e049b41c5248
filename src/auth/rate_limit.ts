/** A bounded sliding-window counter, keyed by client IP or player id. */

/** Counts events per key within a time window; the key map never grows past `maxKeys`. */
export class WindowCounter {
  readonly #hits = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxKeys = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Events for `key` within the window. */
  count(key: string): number {
    const list = this.#prune(key);
    return list ? list.length : 0;
  }

  /** True when `key` has reached the limit within the window. */
  exceeded(key: string): boolean {
    return this.count(key) >= this.limit;
  }

  /** Records one event for `key`. */
  hit(key: string): void {
    const list = this.#prune(key) ?? [];
    list.push(this.now());
    if (list.length > this.limit) list.splice(0, list.length - this.limit);
    // Re-insert so Map order is least-recently-used first.
    this.#hits.delete(key);
    this.#hits.set(key, list);
    if (this.#hits.size > this.maxKeys) {
      const oldest = this.#hits.keys().next().value;
      if (oldest !== undefined) this.#hits.delete(oldest);
    }
  }

  /** Forgets `key` (e.g. after a successful login). */
  reset(key: string): void {
    this.#hits.delete(key);
  }

  #prune(key: string): number[] | undefined {
    const list = this.#hits.get(key);
    if (!list) return undefined;
    const cutoff = this.now() - this.windowMs;
    while (list.length && list[0] <= cutoff) list.shift();
    if (!list.length) {
      this.#hits.delete(key);
      return undefined;
    }
    return list;
  }
}
