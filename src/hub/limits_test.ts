import assert from "node:assert/strict";
import { idleSweepMs, looksLikeIp } from "./limits.ts";

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
