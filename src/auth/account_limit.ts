/**
 * The per-account failed-login limit: failures against one character in a window, each address
 * group (an IPv4 address, an IPv6 /64: `addressGroup`) counted once. One address's guesses are
 * the per-address limit's to bound (10 a minute); this one bounds a guess spread over many
 * addresses, and one address alone can never trip it for everyone else.
 *
 * Nothing here is forgotten to make room: only real characters are counted (the caller finds the
 * id first; a name that matches none counts nothing here), so failures against other characters,
 * however many, cannot end one character's window early. Memory is bounded without eviction: each
 * character holds at most `limit` groups, and each group held cost one password compare within the
 * window (the slot is taken before bcrypt), so the table holds at most min(characters x limit,
 * compares in a window) groups. What has left the window is dropped as the table is used.
 */
import { addressGroup } from "../net/client_address.ts";

/** An account the limit holds: its id, the address groups counted, and when the first leaves. */
export interface HeldAccount {
  id: string;
  sites: string[];
  until: number;
}

/** Failed logins per account, counted by address group. */
export class AccountLimit {
  /**
   * Per account, least recently counted first (so what has left the window is at the front):
   * each counted group and when it failed.
   */
  readonly #accounts = new Map<string, Map<string, number>>();

  /** `limit` 0 means no limit; both are read at each attempt (`@reload/config` changes them). */
  constructor(
    private readonly limit: () => number,
    private readonly windowMs: () => number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Takes the attempt's slot before its password is compared: a function that gives it back (a
   * right password), or null when the account is past its limit and `ip`'s group is not counted
   * in it yet. A group that already failed within the window takes no new slot.
   */
  reserve(id: string, ip: string): (() => void) | null {
    const limit = this.limit();
    if (limit <= 0) return () => {};
    this.#sweep();
    const site = addressGroup(ip);
    const sites = this.#prune(id) ?? new Map<string, number>();
    if (sites.has(site)) return () => {};
    if (sites.size >= limit) return null;
    const stamp = this.now();
    sites.set(site, stamp);
    // Re-inserted so the map's order is least recently counted first, the first to leave.
    this.#accounts.delete(id);
    this.#accounts.set(id, sites);
    return () => {
      const current = this.#accounts.get(id);
      if (current?.get(site) !== stamp) return;
      current.delete(site);
      if (!current.size) this.#accounts.delete(id);
    };
  }

  /** The accounts at their limit now (a staff view: every account with a failure in the window). */
  held(): HeldAccount[] {
    const limit = this.limit();
    if (limit <= 0) return [];
    const out: HeldAccount[] = [];
    for (const id of [...this.#accounts.keys()]) {
      const sites = this.#prune(id);
      if (!sites || sites.size < limit) continue;
      const stamps = [...sites.values()];
      out.push({
        id,
        sites: [...sites.keys()],
        until: stamps[sites.size - limit] + this.windowMs(),
      });
    }
    return out;
  }

  /** Accounts held, in the window or not yet swept (for tests). */
  get size(): number {
    return this.#accounts.size;
  }

  /** Forgets every failure counted against `id`; false when none was. */
  release(id: string): boolean {
    const had = this.#prune(id) !== undefined;
    this.#accounts.delete(id);
    return had;
  }

  /**
   * Drops the accounts at the front whose every group has left the window. An account moves to
   * the back only when a group is counted, so every account behind the first one still in the
   * window was counted within it too: the table never holds more than a window's reserves (a
   * clock set back only delays the drop). Each account is dropped once, paid for by the reserve
   * that put it there.
   */
  #sweep(): void {
    const cutoff = this.now() - this.windowMs();
    for (const [id, sites] of this.#accounts) {
      let last = -Infinity;
      for (const at of sites.values()) last = at;
      if (last > cutoff) return;
      this.#accounts.delete(id);
    }
  }

  /** The account's groups still in the window (oldest first), or undefined when none is. */
  #prune(id: string): Map<string, number> | undefined {
    const sites = this.#accounts.get(id);
    if (!sites) return undefined;
    const cutoff = this.now() - this.windowMs();
    for (const [site, at] of sites) {
      if (at > cutoff) break;
      sites.delete(site);
    }
    if (!sites.size) {
      this.#accounts.delete(id);
      return undefined;
    }
    return sites;
  }
}
