/** A bounded sliding-window counter, keyed by client IP or player id. */
import { addressGroup } from "../net/client_address.ts";

/**
 * Counts events per key within a time window; the key map never grows past `maxKeys` and no
 * key holds more than `limit` entries. `limit` may be a function, read at each reservation (a
 * limit from the configuration, which `@reload/config` changes); so may `windowMs`.
 */
export class WindowCounter {
  readonly #hits = new Map<string, number[]>();

  constructor(
    private readonly limit: number | (() => number),
    private readonly windowMs: number | (() => number),
    private readonly maxKeys = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Events for `key` within the window. */
  count(key: string): number {
    const list = this.#prune(key);
    return list ? list.length : 0;
  }

  /**
   * Takes one slot for `key` before the guarded work starts, so parallel attempts cannot all
   * pass a check made before any of them is counted. Null when the window is full (nothing is
   * recorded). Otherwise the slot stays taken (a failure) unless the returned function gives
   * it back (a success); giving it back twice or after expiry does nothing.
   */
  reserve(key: string): (() => void) | null {
    const list = this.#prune(key) ?? [];
    const limit = typeof this.limit === "number" ? this.limit : this.limit();
    if (list.length >= limit) return null;
    const stamp = this.now();
    list.push(stamp);
    // Re-insert so Map order is least-recently-used first.
    this.#hits.delete(key);
    this.#hits.set(key, list);
    if (this.#hits.size > this.maxKeys) {
      const oldest = this.#hits.keys().next().value;
      if (oldest !== undefined) this.#hits.delete(oldest);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const current = this.#hits.get(key);
      const at = current ? current.indexOf(stamp) : -1;
      if (at === -1) return;
      current!.splice(at, 1);
      if (!current!.length) this.#hits.delete(key);
    };
  }

  /**
   * The keys at their limit now, each with when its oldest counted event leaves the window (a
   * staff view; at most `maxKeys` entries are looked at).
   */
  full(): { key: string; until: number }[] {
    const limit = typeof this.limit === "number" ? this.limit : this.limit();
    const window = typeof this.windowMs === "number" ? this.windowMs : this.windowMs();
    const out: { key: string; until: number }[] = [];
    for (const key of [...this.#hits.keys()]) {
      const list = this.#prune(key);
      if (list && list.length >= limit) {
        out.push({ key, until: list[Math.max(0, list.length - limit)] + window });
      }
    }
    return out;
  }

  /** Forgets every event of `key`; false when it had none in the window. */
  clear(key: string): boolean {
    const had = this.#prune(key) !== undefined;
    this.#hits.delete(key);
    return had;
  }

  #prune(key: string): number[] | undefined {
    const list = this.#hits.get(key);
    if (!list) return undefined;
    const cutoff = this.now() -
      (typeof this.windowMs === "number" ? this.windowMs : this.windowMs());
    while (list.length && list[0] <= cutoff) list.shift();
    if (!list.length) {
      this.#hits.delete(key);
      return undefined;
    }
    return list;
  }
}

/**
 * A WindowCounter keyed by client address, which counts an IPv6 address by its /64
 * (`addressGroup`): every caller passes the address as it came, and the grouping is done here.
 */
export class AddressCounter extends WindowCounter {
  /** As WindowCounter's, for `ip`'s group. */
  override reserve(ip: string): (() => void) | null {
    return super.reserve(addressGroup(ip));
  }

  /** As WindowCounter's, for `ip`'s group. */
  override count(ip: string): number {
    return super.count(addressGroup(ip));
  }

  /** As WindowCounter's, for `ip`'s group. */
  override clear(ip: string): boolean {
    return super.clear(addressGroup(ip));
  }
}
