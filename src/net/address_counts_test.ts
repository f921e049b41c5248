import { assertEquals } from "../../tests/assert.ts";
import { AddressCounts } from "./address_counts.ts";

Deno.test("address counts: one count an IPv4 address, one an IPv6 /64, never below zero", () => {
  const c = new AddressCounts();
  c.add("192.0.2.1");
  c.add("::ffff:192.0.2.1");
  assertEquals(c.count("192.0.2.1"), 2, "IPv4-mapped is the same address");
  assertEquals(c.count("192.0.2.2"), 0);
  c.add("2001:db8:0:1::1");
  c.add("2001:db8:0:1:aaaa:bbbb:cccc:dddd");
  assertEquals(c.count("2001:db8:0:1::ffff"), 2, "a /64 counts as one");
  assertEquals(c.count("2001:db8:0:2::1"), 0, "the next /64 is apart");
  for (let i = 0; i < 3; i++) c.remove("2001:db8:0:1::9");
  assertEquals(c.count("2001:db8:0:1::1"), 0);
  c.add("2001:db8:0:1::1");
  assertEquals(c.count("2001:db8:0:1::1"), 1, "removing past zero left nothing owed");
});
