/**
 * Which IP addresses an outbound fetch (`@wiki/fetch`) may connect to. Only globally routable
 * unicast addresses pass: loopback, private, link-local, unique-local, carrier-grade NAT,
 * multicast, unspecified, reserved and documentation ranges are refused, and so is any IPv6
 * form that carries one of them inside (IPv4-mapped, -compatible, -translated, NAT64, 6to4).
 */

/** An IPv4 range as a 32-bit network and prefix length, with why it is refused. */
type V4Range = readonly [network: number, bits: number, reason: string];

/** IPv4 ranges that are not public (IANA special-purpose registry, plus metadata). */
const V4_REFUSED: readonly V4Range[] = [
  [v4("169.254.169.254"), 32, "the cloud metadata address"],
  [v4("0.0.0.0"), 8, "an unspecified address"],
  [v4("10.0.0.0"), 8, "a private address"],
  [v4("100.64.0.0"), 10, "a carrier-grade NAT address"],
  [v4("127.0.0.0"), 8, "a loopback address"],
  [v4("169.254.0.0"), 16, "a link-local address"],
  [v4("172.16.0.0"), 12, "a private address"],
  [v4("192.0.0.0"), 24, "a reserved address"],
  [v4("192.0.2.0"), 24, "a documentation address"],
  [v4("192.88.99.0"), 24, "a reserved address"],
  [v4("192.168.0.0"), 16, "a private address"],
  [v4("198.18.0.0"), 15, "a reserved address"],
  [v4("198.51.100.0"), 24, "a documentation address"],
  [v4("203.0.113.0"), 24, "a documentation address"],
  [v4("224.0.0.0"), 4, "a multicast address"],
  [v4("240.0.0.0"), 4, "a reserved address"],
];

function v4(text: string): number {
  const n = parseIPv4(text);
  if (n === null) throw new Error(`bad IPv4 constant ${text}`);
  return n;
}

/** A dotted-quad IPv4 address as an unsigned 32-bit number, or null. */
export function parseIPv4(text: string): number | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  let n = 0;
  for (const p of parts) {
    // Strict decimal: no octal (`010`), hex or empty parts, so one text means one address.
    if (!/^(0|[1-9][0-9]{0,2})$/.test(p)) return null;
    const b = Number(p);
    if (b > 255) return null;
    n = n * 256 + b;
  }
  return n;
}

/** An IPv6 address as eight 16-bit groups, or null (zone ids such as `%eth0` are refused). */
export function parseIPv6(text: string): number[] | null {
  let s = text;
  if (s.startsWith("[") && s.endsWith("]")) s = s.slice(1, -1);
  if (s.length === 0 || s.length > 45 || !/^[0-9a-fA-F:.]+$/.test(s)) return null;
  let tail: number[] = [];
  // A dotted IPv4 tail fills the last two groups.
  const lastColon = s.lastIndexOf(":");
  if (s.includes(".")) {
    const v = parseIPv4(s.slice(lastColon + 1));
    if (v === null || lastColon === -1) return null;
    tail = [v >>> 16, v & 0xffff];
    const groupsPart = s.slice(0, lastColon + 1);
    s = groupsPart.endsWith("::") ? groupsPart : groupsPart.slice(0, -1);
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const groups = (h: string) => (h === "" ? [] : h.split(":"));
  const head = groups(halves[0]);
  const rest = halves.length === 2 ? groups(halves[1]) : [];
  const all = [...head, ...rest];
  if (all.some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return null;
  const want = 8 - tail.length;
  if (halves.length === 1 && all.length !== want) return null;
  if (halves.length === 2 && all.length > want - 1) return null;
  const fill = new Array(want - all.length).fill(0);
  const nums = (gs: string[]) => gs.map((g) => parseInt(g, 16));
  return [...nums(head), ...(halves.length === 2 ? fill : []), ...nums(rest), ...tail];
}

function inV4(addr: number, [net, bits]: V4Range): boolean {
  if (bits === 0) return true;
  const shift = 32 - bits;
  return Math.floor(addr / 2 ** shift) === Math.floor(net / 2 ** shift);
}

function v4Refusal(addr: number): string | null {
  for (const r of V4_REFUSED) if (inV4(addr, r)) return r[2];
  if (addr === 0xffffffff) return "a broadcast address";
  return null;
}

/** True when the first `bits` bits of `g` equal those of `prefix` (groups, left aligned). */
function in6(g: number[], prefix: number[], bits: number): boolean {
  for (let i = 0; bits > 0; i++, bits -= 16) {
    const take = Math.min(16, bits);
    const mask = (0xffff << (16 - take)) & 0xffff;
    if (((g[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

function embedded(hi: number, lo: number): number {
  return hi * 65536 + lo;
}

function v6Refusal(g: number[]): string | null {
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (g.every((x) => x === 0)) return "an unspecified address";
  if (zeros(7) && g[7] === 1) return "a loopback address";
  const inner = (why: string, addr: number) => {
    const r = v4Refusal(addr);
    return r ? `${r} (${why})` : null;
  };
  // ::ffff:a.b.c.d (mapped) and ::ffff:0:a.b.c.d (translated) carry an IPv4 address.
  if (zeros(5) && g[5] === 0xffff) return inner("IPv4-mapped", embedded(g[6], g[7]));
  if (zeros(4) && g[4] === 0xffff && g[5] === 0) {
    return inner("IPv4-translated", embedded(g[6], g[7]));
  }
  // ::a.b.c.d (deprecated IPv4-compatible form).
  if (zeros(6)) return inner("IPv4-compatible", embedded(g[6], g[7])) ?? "a reserved address";
  if (in6(g, [0x64, 0xff9b], 96)) return inner("NAT64", embedded(g[6], g[7]));
  if (in6(g, [0x2002], 16)) return inner("6to4", embedded(g[1], g[2]));
  const ranges: [number[], number, string][] = [
    [[0x64, 0xff9b, 1], 48, "a reserved address"],
    [[0x100], 64, "a reserved address"],
    [[0x2001, 0xdb8], 32, "a documentation address"],
    [[0x2001], 23, "a reserved address"],
    [[0x3fff], 20, "a documentation address"],
    [[0xfc00], 7, "a unique-local address"],
    [[0xfe80], 10, "a link-local address"],
    [[0xfec0], 10, "a site-local address"],
    [[0xff00], 8, "a multicast address"],
  ];
  for (const [p, bits, why] of ranges) if (in6(g, p, bits)) return why;
  // Everything outside 2000::/3 (global unicast) is unassigned or special.
  if (!in6(g, [0x2000], 3)) return "not a public address";
  return null;
}

/**
 * Why `address` (an IPv4 or IPv6 literal) must not be connected to, such as
 * `"a loopback address"`, or null when it is a public unicast address. Text that is not an
 * address at all is refused too.
 */
export function addressRefusal(address: string): string | null {
  const a = parseIPv4(address);
  if (a !== null) return v4Refusal(a);
  const g = parseIPv6(address);
  if (g !== null) return v6Refusal(g);
  return "not an IP address";
}

/** True when `host` is an IP literal (IPv4 dotted quad, or IPv6 with or without brackets). */
export function isIpLiteral(host: string): boolean {
  return parseIPv4(host) !== null || parseIPv6(host) !== null;
}
