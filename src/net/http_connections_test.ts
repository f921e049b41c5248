import { assert, assertEquals } from "../../tests/assert.ts";
import { TrustedProxies } from "./client_address.ts";
import { HttpConnections, type HttpLimits, sweepMs } from "./http_connections.ts";

function setup(limits: Partial<HttpLimits> = {}) {
  const lines: string[] = [];
  const conns = new HttpConnections(() => ({
    headerTimeout: 1,
    keepAliveTimeout: 1,
    maxConnectionsPerIp: 2,
    trusted: new TrustedProxies(["10.0.0.1"]),
    ...limits,
  }), (l) => lines.push(l));
  return { conns, lines };
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("http connections: the per-address cap counts at accept; trusted proxies are exempt", () => {
  const { conns, lines } = setup();
  const a = conns.open("192.0.2.1")!;
  assert(conns.open("192.0.2.1"));
  assertEquals(conns.open("192.0.2.1"), null);
  assertEquals(lines.length, 1, "the refusal is logged");
  assert(conns.open("192.0.2.2"), "another address has its own share");
  for (let i = 0; i < 5; i++) assert(conns.open("10.0.0.1"), "a trusted proxy is not capped");
  assertEquals(conns.countOf("10.0.0.1"), 0);
  // A connection that became a WebSocket leaves the count (the hub counts it).
  conns.handOver(a);
  assert(conns.open("192.0.2.1"));
  conns.closed(a);
  assertEquals(conns.countOf("192.0.2.1"), 2, "a second close counts nothing");
  conns.stop();
});

Deno.test("http connections: an IPv6 /64 is one address for the cap; its trust is by address", () => {
  const { conns } = setup({ trusted: new TrustedProxies(["2001:db8:0:9::1"]) });
  const a = conns.open("2001:db8:0:1::1")!;
  assert(conns.open("2001:db8:0:1:ffff::2"));
  assertEquals(conns.open("2001:db8:0:1::3"), null, "a third address of the same /64 is refused");
  assertEquals(conns.countOf("2001:db8:0:1::abcd"), 2);
  assert(conns.open("2001:db8:0:2::1"), "the next /64 has its own share");
  for (let i = 0; i < 3; i++) {
    assert(conns.open("2001:db8:0:9::1"), "the trusted proxy is not capped");
  }
  assert(conns.open("2001:db8:0:9::2") && conns.open("2001:db8:0:9::3"));
  assertEquals(conns.open("2001:db8:0:9::4"), null, "its /64 neighbours are not trusted");
  conns.closed(a);
  assertEquals(conns.countOf("2001:db8:0:1::1"), 1, "a close counts down the group");
  conns.stop();
});

Deno.test("http connections: an address at its cap gives up an idle keep-alive connection, never a busy one", () => {
  const { conns } = setup();
  const closed: string[] = [];
  const waiting = conns.open("192.0.2.1")!;
  waiting.close = () => closed.push("waiting");
  const kept = conns.open("192.0.2.1")!;
  kept.close = () => closed.push("kept");
  conns.busy(kept);
  conns.idle(kept);
  assert(conns.open("192.0.2.1"), "the newcomer takes the idle one's place");
  assertEquals(closed, ["kept"]);
  assertEquals(conns.countOf("192.0.2.1"), 2);
  // Now one waits for its first head and one is new: nothing idle to give up.
  assertEquals(conns.open("192.0.2.1"), null);
  assertEquals(closed, ["kept"]);
  conns.closed(kept);
  assertEquals(conns.countOf("192.0.2.1"), 2, "closing an evicted one counts nothing twice");
  conns.stop();
});

Deno.test("http connections: no head in time, or idle too long, is closed; a busy one is not", async () => {
  const { conns } = setup();
  const closed: string[] = [];
  const silent = conns.open("192.0.2.1")!;
  silent.close = () => closed.push("silent");
  const busy = conns.open("192.0.2.2")!;
  busy.close = () => closed.push("busy");
  conns.busy(busy);
  const kept = conns.open("192.0.2.3")!;
  kept.close = () => closed.push("keep-alive");
  conns.busy(kept);
  conns.idle(kept);
  const upgraded = conns.open("192.0.2.4")!;
  upgraded.close = () => closed.push("upgraded");
  conns.handOver(upgraded);
  for (let i = 0; i < 40 && closed.length < 2; i++) await wait(100);
  assertEquals(closed.sort(), ["keep-alive", "silent"]);
  conns.stop();
});

Deno.test("http connections: a bound of 0 closes nothing", async () => {
  const { conns } = setup({ headerTimeout: 0, keepAliveTimeout: 0 });
  let closed = false;
  const t = conns.open("192.0.2.1")!;
  t.close = () => closed = true;
  await wait(1300);
  assert(!closed);
  conns.stop();
});

Deno.test("sweepMs: a quarter of the shorter bound, from 250 ms to 1 s", () => {
  assertEquals(sweepMs(10, 15), 1000);
  assertEquals(sweepMs(2, 15), 500);
  assertEquals(sweepMs(0.5, 0), 250);
  assertEquals(sweepMs(0, 0), 1000);
});
