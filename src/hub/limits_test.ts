import assert from "node:assert/strict";
import { CommandRateLimiter, idleSweepMs, looksLikeIp } from "./limits.ts";

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

Deno.test("rate limiter forgets the least recently used key, not a busy one", () => {
  const r = new CommandRateLimiter(2, 1000, 3);
  assert.equal(r.allow("busy", 0), true);
  assert.equal(r.allow("busy", 1), true);
  r.allow("a", 2);
  r.allow("b", 3);
  // The busy key's full window is touched again, then new keys push the map past its bound.
  assert.equal(r.allow("busy", 4), false);
  r.allow("c", 5);
  r.allow("d", 6);
  assert.equal(r.size, 3);
  assert.equal(r.allow("busy", 7), false, "the busy key kept its window");
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
