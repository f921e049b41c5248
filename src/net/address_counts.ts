/**
 * Open connections counted by address group (`addressGroup`: an IPv4 address alone, an IPv6
 * address by its /64), for `server.maxConnectionsPerIp` wherever connections are accepted (the
 * hub, the telnet sidecar): one IPv6 subscriber holds a whole /64, so counting each of its 2^64
 * addresses apart would let it take every connection the game has.
 */
import { addressGroup } from "./client_address.ts";

/** Open connections per address group. */
export class AddressCounts {
  readonly #counts = new Map<string, number>();

  /** Connections currently counted for `ip`'s group. */
  count(ip: string): number {
    return this.#counts.get(addressGroup(ip)) ?? 0;
  }

  /** Counts one more connection for `ip`'s group. */
  add(ip: string): void {
    const group = addressGroup(ip);
    this.#counts.set(group, (this.#counts.get(group) ?? 0) + 1);
  }

  /** Counts one connection less for `ip`'s group. */
  remove(ip: string): void {
    const group = addressGroup(ip);
    const n = (this.#counts.get(group) ?? 0) - 1;
    if (n > 0) this.#counts.set(group, n);
    else this.#counts.delete(group);
  }
}
