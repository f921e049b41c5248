/**
 * The per-account failed-login limit: failures against one character in a window, each address
 * group (an IPv4 address, an IPv6 /64: `addressGroup`) counted once. One address's guesses are
 * the per-address limit's to bound (10 a minute); this one bounds a guess spread over many
 * addresses, and one address alone can never trip it for everyone else.
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
  /** Per account (least recently failed first): each counted group and when it failed. */
  readonly #accounts = new Map<string, Map<string, number>>();

  /** `limit` 0 means no limit; both are read at each attempt (`@reload/config` changes them). */
  constructor(
    private readonly limit: () => number,
    private readonly windowMs: () => number,
    private readonly now: () => number = Date.now,
    private readonly maxAccounts = 10_000,
  ) {}

  /**
   * Takes the attempt's slot before its password is compared: a function that gives it back (a
   * right password), or null when the account is past its limit and `ip`'s group is not counted
   * in it yet. A group that already failed within the window takes no new slot.
   */
  reserve(id: string, ip: string): (() => void) | null {
    const limit = this.limit();
    if (limit <= 0) return () => {};
    const site = addressGroup(ip);
    const sites = this.#prune(id) ?? new Map<string, number>();
    if (sites.has(site)) return () => {};
    if (sites.size >= limit) return null;
    const stamp = this.now();
    sites.set(site, stamp);
    // Re-inserted so the map's order is least recently failed first, the first forgotten.
    this.#accounts.delete(id);
    this.#accounts.set(id, sites);
    if (this.#accounts.size > this.maxAccounts) {
      const oldest = this.#accounts.keys().next().value;
      if (oldest !== undefined) this.#accounts.delete(oldest);
    }
    return () => {
      const current = this.#accounts.get(id);
      if (current?.get(site) !== stamp) return;
      current.delete(site);
      if (!current.size) this.#accounts.delete(id);
    };
  }

  /** The accounts at their limit now (a staff view; at most `maxAccounts` looked at). */
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

  /** Forgets every failure counted against `id`; false when none was. */
  release(id: string): boolean {
    const had = this.#prune(id) !== undefined;
    this.#accounts.delete(id);
    return had;
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
