import assert from "node:assert/strict";
import { CommandRateLimiter, idleSweepMs, IpCounter, looksLikeIp } from "./limits.ts";

Deno.test("rate limiter allows 10 per sliding second", () => {
  const r = new CommandRateLimiter();
  let ok = 0;
  for (let i = 0; i < 50; i++) if (r.allow("p:1", 1000 + i)) ok++;
  assert.equal(ok, 10);
  assert.equal(r.allow("p:1", 1999), false);
  assert.equal(r.allow("p:1", 2001), true);
  assert.equal(r.allow("p:2", 1000), true);
});

Deno.test("rate limiter reports drops at most once per window", () => {
  const r = new CommandRateLimiter(1, 1000);
  r.allow("k", 0);
  assert.equal(r.shouldReport("k", 10), true);
  assert.equal(r.shouldReport("k", 500), false);
  assert.equal(r.shouldReport("k", 1011), true);
  assert.equal(r.shouldReport("unknown", 0), false);
});

Deno.test("rate limiter key map is bounded", () => {
  const r = new CommandRateLimiter(10, 1000, 100);
  for (let i = 0; i < 1000; i++) r.allow(`c:${i}`, 0);
  assert.equal(r.size, 100);
  r.forget("c:999");
  assert.equal(r.size, 99);
});

Deno.test("IP counter", () => {
  const c = new IpCounter();
  c.add("1.1.1.1");
  c.add("1.1.1.1");
  assert.equal(c.count("1.1.1.1"), 2);
  c.remove("1.1.1.1");
  c.remove("1.1.1.1");
  c.remove("1.1.1.1");
  assert.equal(c.count("1.1.1.1"), 0);
});

Deno.test("IP shapes", () => {
  assert.ok(looksLikeIp("203.0.113.9"));
  assert.ok(looksLikeIp("2001:db8::1"));
  assert.ok(!looksLikeIp("evil"));
  assert.ok(!looksLikeIp("1.2.3.4; rm"));
  assert.ok(!looksLikeIp("abc"));
});

Deno.test("idle sweep interval", () => {
  assert.equal(idleSweepMs(0), 30_000);
  assert.equal(idleSweepMs(3600), 30_000);
  assert.equal(idleSweepMs(2), 500);
  assert.equal(idleSweepMs(8), 2000);
});
