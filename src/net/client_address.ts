/**
 * Which address a request comes from. Normally the socket's peer. Behind a reverse proxy every
 * peer is the proxy, so when the peer is listed in `server.trustedProxies` the client is taken
 * from the `X-Forwarded-For` header the proxy adds: the rightmost address in it that is not
 * itself a trusted proxy (everything left of that was written by the client and proves
 * nothing). A peer that is not trusted never has its headers believed.
 */

/** An IPv4 or IPv6 address as 16 bytes (IPv4 as IPv4-mapped IPv6), or null when not one. */
export function addressBytes(text: string): Uint8Array | null {
  const s = text.trim();
  const v4 = parseV4(s);
  if (v4) return Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...v4);
  return parseV6(s);
}

function parseV4(s: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? parts : null;
}

function parseV6(text: string): Uint8Array | null {
  // A zone (fe80::1%eth0) and brackets ([::1]) are not part of the address.
  let s = text.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (!/^[0-9a-fA-F:.]{2,45}$/.test(s)) return null;
  let tail: number[] = [];
  const lastColon = s.lastIndexOf(":");
  if (s.includes(".")) {
    // An IPv4 tail (::ffff:1.2.3.4) is two groups.
    const v4 = parseV4(s.slice(lastColon + 1));
    if (!v4) return null;
    tail = v4;
    s = s.slice(0, lastColon + 1) + "0:0";
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const groups = (h: string) => h === "" ? [] : h.split(":");
  const head = groups(halves[0]);
  const rest = halves.length === 2 ? groups(halves[1]) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const all = [...head, ...Array(halves.length === 2 ? missing : 0).fill("0"), ...rest];
  const out = new Uint8Array(16);
  for (let i = 0; i < 8; i++) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(all[i])) return null;
    const n = parseInt(all[i], 16);
    out[i * 2] = n >> 8;
    out[i * 2 + 1] = n & 255;
  }
  if (tail.length) out.set(tail, 12);
  return out;
}

/** A trusted range: an address and how many leading bits must match. */
interface Range {
  bytes: Uint8Array;
  bits: number;
}

/** Parses `203.0.113.7`, `10.0.0.0/8`, `::1` or `fd00::/8`; null when it is none of them. */
function parseRange(entry: string): Range | null {
  const [addr, prefix, extra] = entry.trim().split("/");
  if (extra !== undefined) return null;
  const bytes = addressBytes(addr);
  if (!bytes) return null;
  const v4 = parseV4(addr.trim()) !== null;
  const max = v4 ? 32 : 128;
  const bits = prefix === undefined ? max : /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
  if (!(bits >= 0 && bits <= max)) return null;
  return { bytes, bits: v4 ? bits + 96 : bits };
}

function inRange(addr: Uint8Array, r: Range): boolean {
  const whole = r.bits >> 3;
  for (let i = 0; i < whole; i++) if (addr[i] !== r.bytes[i]) return false;
  const rest = r.bits & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (addr[whole] & mask) === (r.bytes[whole] & mask);
}

/** An address as players know it: IPv4 without the `::ffff:` of a dual-stack listener. */
export function plainAddress(ip: string): string {
  return /^::ffff:\d{1,3}(\.\d{1,3}){3}$/i.test(ip) ? ip.slice(7) : ip;
}

/**
 * Which group an address's limits count it in: an IPv4 address alone (written plainly, also
 * when it came IPv4-mapped), an IPv6 address by its /64, which one subscriber usually holds
 * whole (`2001:db8:0:1::/64`); anything else as given.
 */
export function addressGroup(ip: string): string {
  const bytes = addressBytes(ip);
  if (!bytes) return ip;
  const mapped = bytes.subarray(0, 12).every((b, i) => b === (i < 10 ? 0 : 0xff));
  if (mapped) return bytes.subarray(12).join(".");
  const groups: string[] = [];
  for (let i = 0; i < 8; i += 2) groups.push(((bytes[i] << 8) | bytes[i + 1]).toString(16));
  return `${groups.join(":")}::/64`;
}

/** The trusted proxies of `server.trustedProxies`, matched against peers. */
export class TrustedProxies {
  readonly #ranges: Range[];
  /** Entries that are neither an address nor a range (reported once by the caller). */
  readonly invalid: string[] = [];

  /** `entries`: addresses and CIDR ranges, IPv4 or IPv6. */
  constructor(entries: readonly string[]) {
    this.#ranges = [];
    for (const e of entries) {
      const r = parseRange(e);
      if (r) this.#ranges.push(r);
      else this.invalid.push(e);
    }
  }

  /** True when there is no trusted proxy at all (the common case: nothing to look up). */
  get empty(): boolean {
    return this.#ranges.length === 0;
  }

  /** True when `ip` is a trusted proxy. */
  has(ip: string): boolean {
    if (this.#ranges.length === 0) return false;
    const bytes = addressBytes(ip);
    return bytes !== null && this.#ranges.some((r) => inRange(bytes, r));
  }

  /**
   * The client's address for a request from `peer` carrying `forwardedFor` (the
   * `X-Forwarded-For` header, or null): `peer` unless `peer` is trusted and the header names a
   * valid address beyond the trusted hops.
   */
  client(peer: string, forwardedFor: string | null): string {
    if (forwardedFor === null || !this.has(peer)) return peer;
    // Bounded: a header of thousands of hops is not walked past the first 32 from the right.
    const hops = forwardedFor.split(",").slice(-32);
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i].trim();
      if (addressBytes(hop) === null) return peer;
      if (!this.has(hop)) return plainAddress(hop.replace(/^\[|\]$/g, ""));
    }
    return peer;
  }
}
