import { assert, assertEquals } from "../../tests/assert.ts";
import { addressGroup, plainAddress, TrustedProxies } from "./client_address.ts";

Deno.test("trusted proxies: addresses and CIDR ranges, IPv4 and IPv6", () => {
  const t = new TrustedProxies([
    "127.0.0.1",
    "10.0.0.0/8",
    "fd00::/8",
    "::1",
    "nonsense",
    "1.2.3.4/33",
  ]);
  assertEquals(t.invalid, ["nonsense", "1.2.3.4/33"]);
  for (const ip of ["127.0.0.1", "10.1.2.3", "::ffff:10.9.9.9", "fd12:3456::1", "::1", "[::1]"]) {
    assert(t.has(ip), ip);
  }
  for (const ip of ["127.0.0.2", "11.0.0.1", "fe80::1", "::2", "", "10.0.0", "1:2:3:4:5:6:7:8:9"]) {
    assert(!t.has(ip), ip);
  }
  assert(new TrustedProxies([]).empty);
  assert(!new TrustedProxies(["0.0.0.0/0"]).has("::1"), "an IPv4 range holds no IPv6 address");
  assert(new TrustedProxies(["0.0.0.0/0"]).has("203.0.113.9"));
});

Deno.test("trusted proxies: the client is the rightmost untrusted X-Forwarded-For hop", () => {
  const t = new TrustedProxies(["127.0.0.1", "10.0.0.0/8"]);
  // An untrusted peer's header is never believed.
  assertEquals(t.client("198.51.100.7", "203.0.113.9"), "198.51.100.7");
  assertEquals(t.client("127.0.0.1", null), "127.0.0.1");
  assertEquals(t.client("127.0.0.1", "203.0.113.9"), "203.0.113.9");
  // What the client wrote itself sits left of what the proxies added: ignored.
  assertEquals(t.client("127.0.0.1", "1.1.1.1, 203.0.113.9, 10.0.0.5"), "203.0.113.9");
  assertEquals(t.client("127.0.0.1", "2001:db8::5"), "2001:db8::5");
  assertEquals(t.client("127.0.0.1", "::ffff:203.0.113.9"), "203.0.113.9");
  // Garbage where the client should be: the proxy's own address, not a guess.
  assertEquals(t.client("127.0.0.1", "not-an-ip"), "127.0.0.1");
  assertEquals(t.client("127.0.0.1", "10.0.0.1, 10.0.0.2"), "127.0.0.1");
  const long = Array.from({ length: 5000 }, () => "10.0.0.1").join(",");
  assertEquals(t.client("127.0.0.1", long), "127.0.0.1");
});

Deno.test("plainAddress: the IPv4 of a dual-stack listener without its prefix", () => {
  assertEquals(plainAddress("::ffff:192.0.2.1"), "192.0.2.1");
  assertEquals(plainAddress("192.0.2.1"), "192.0.2.1");
  assertEquals(plainAddress("::1"), "::1");
});

Deno.test("addressGroup: IPv4 alone, IPv6 by its /64", () => {
  assertEquals(addressGroup("127.0.0.1"), "127.0.0.1");
  assertEquals(addressGroup("::ffff:203.0.113.7"), "203.0.113.7");
  assertEquals(addressGroup("2001:db8:0:1::5"), "2001:db8:0:1::/64");
  assertEquals(addressGroup("2001:DB8:0:1:ffff:1:2:3"), "2001:db8:0:1::/64");
  assertEquals(addressGroup("[2001:db8::1]"), "2001:db8:0:0::/64");
  assertEquals(addressGroup("::1"), "0:0:0:0::/64");
  assertEquals(addressGroup("not an address"), "not an address");
});
