/** The outbound address filter over every refused range, and the public addresses it lets by. */
import assert from "node:assert/strict";
import { addressRefusal, parseIPv4, parseIPv6 } from "./address.ts";

const REFUSED: [string, RegExp][] = [
  // IPv4
  ["0.0.0.0", /unspecified/],
  ["0.1.2.3", /unspecified/],
  ["10.0.0.1", /private/],
  ["10.255.255.255", /private/],
  ["100.64.0.1", /carrier-grade NAT/],
  ["100.127.255.254", /carrier-grade NAT/],
  ["100.100.100.200", /carrier-grade NAT/],
  ["127.0.0.1", /loopback/],
  ["127.255.0.9", /loopback/],
  ["169.254.0.1", /link-local/],
  ["169.254.169.254", /metadata/],
  ["172.16.0.1", /private/],
  ["172.31.255.255", /private/],
  ["192.0.0.8", /reserved/],
  ["192.0.2.5", /documentation/],
  ["192.88.99.1", /reserved/],
  ["192.168.1.1", /private/],
  ["198.18.0.1", /reserved/],
  ["198.19.255.1", /reserved/],
  ["198.51.100.7", /documentation/],
  ["203.0.113.9", /documentation/],
  ["224.0.0.1", /multicast/],
  ["239.255.255.250", /multicast/],
  ["240.0.0.1", /reserved/],
  ["255.255.255.255", /reserved|broadcast/],
  // IPv6
  ["::", /unspecified/],
  ["::1", /loopback/],
  ["[::1]", /loopback/],
  ["0:0:0:0:0:0:0:1", /loopback/],
  ["fe80::1", /link-local/],
  ["febf::1", /link-local/],
  ["fec0::1", /site-local/],
  ["fc00::1", /unique-local/],
  ["fd12:3456::1", /unique-local/],
  ["fd00:ec2::254", /unique-local/],
  ["ff02::1", /multicast/],
  ["ff0e::1", /multicast/],
  ["2001:db8::1", /documentation/],
  ["3fff::1", /documentation/],
  ["100::1", /reserved/],
  ["2001::1", /reserved/],
  ["64:ff9b:1::1", /reserved/],
  ["::2", /unspecified/],
  ["4000::1", /not a public/],
  // IPv4 inside IPv6
  ["::ffff:127.0.0.1", /loopback.* \(IPv4-mapped\)/],
  ["::ffff:7f00:1", /loopback.* \(IPv4-mapped\)/],
  ["::FFFF:10.1.2.3", /private.* \(IPv4-mapped\)/],
  ["::ffff:169.254.169.254", /metadata.* \(IPv4-mapped\)/],
  ["::ffff:100.64.0.1", /carrier-grade NAT.* \(IPv4-mapped\)/],
  ["::ffff:224.0.0.1", /multicast.* \(IPv4-mapped\)/],
  ["::ffff:0.0.0.0", /unspecified.* \(IPv4-mapped\)/],
  ["0:0:0:0:0:ffff:192.168.0.1", /private.* \(IPv4-mapped\)/],
  ["::ffff:0:127.0.0.1", /loopback.* \(IPv4-translated\)/],
  ["::127.0.0.1", /loopback.* \(IPv4-compatible\)/],
  ["::a9fe:a9fe", /metadata.* \(IPv4-compatible\)/],
  ["::10.0.0.1", /private.* \(IPv4-compatible\)/],
  ["::8.8.8.8", /reserved/],
  ["64:ff9b::127.0.0.1", /loopback.* \(NAT64\)/],
  ["64:ff9b::a9fe:a9fe", /metadata.* \(NAT64\)/],
  ["2002:7f00:1::", /loopback.* \(6to4\)/],
  ["2002:c0a8:101::1", /private.* \(6to4\)/],
  // Not addresses at all
  ["", /not an IP/],
  ["localhost", /not an IP/],
  ["fe80::1%eth0", /not an IP/],
  ["127.1", /not an IP/],
  ["0x7f.0.0.1", /not an IP/],
  ["0177.0.0.1", /not an IP/],
  ["1.2.3.256", /not an IP/],
  ["1::2::3", /not an IP/],
  ["1:2:3:4:5:6:7:8:9", /not an IP/],
];

const PUBLIC = [
  "8.8.8.8",
  "1.1.1.1",
  "93.184.215.14",
  "100.63.255.255",
  "100.128.0.0",
  "172.15.255.255",
  "172.32.0.0",
  "169.253.255.255",
  "223.255.255.255",
  "2606:4700:4700::1111",
  "2a00:1450:4001:80b::200e",
  "::ffff:8.8.8.8",
  "64:ff9b::808:808",
  "2002:808:808::1",
];

Deno.test("address filter: every refused range, with the reason", () => {
  for (const [addr, reason] of REFUSED) {
    const got = addressRefusal(addr);
    assert.ok(got !== null, `${addr} should be refused`);
    assert.match(got, reason, `${addr}: ${got}`);
  }
});

Deno.test("address filter: public unicast addresses pass", () => {
  for (const addr of PUBLIC) assert.equal(addressRefusal(addr), null, addr);
});

Deno.test("address parsing: IPv4 strict, IPv6 with compression and IPv4 tails", () => {
  assert.equal(parseIPv4("1.2.3.4"), 0x01020304);
  assert.equal(parseIPv4("01.2.3.4"), null);
  assert.deepEqual(parseIPv6("::"), [0, 0, 0, 0, 0, 0, 0, 0]);
  assert.deepEqual(parseIPv6("1::"), [1, 0, 0, 0, 0, 0, 0, 0]);
  assert.deepEqual(parseIPv6("::ffff:1.2.3.4"), [0, 0, 0, 0, 0, 0xffff, 0x102, 0x304]);
  assert.deepEqual(parseIPv6("1:2:3:4:5:6:1.2.3.4"), [1, 2, 3, 4, 5, 6, 0x102, 0x304]);
  assert.deepEqual(parseIPv6("1:2:3:4:5:6:7:8"), [1, 2, 3, 4, 5, 6, 7, 8]);
  assert.equal(parseIPv6("1:2:3:4:5:6:7"), null);
  assert.equal(parseIPv6("1:2:3:4:5:6:7::8"), null);
  assert.equal(parseIPv6("12345::"), null);
});
