import assert from "node:assert/strict";
import { TokenService } from "./tokens.ts";
import { WindowCounter } from "./rate_limit.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import { timingSafeEqualString } from "./constant_time.ts";
import { passwordProblem, playerNameProblem } from "../world/names.ts";

Deno.test("tokens: sign and verify round trip; other secrets and garbage fail", async () => {
  const a = new TokenService("secret-a");
  const b = new TokenService("secret-b");
  const t = await a.sign("12");
  assert.equal(await a.verify(t), "12");
  assert.equal(await b.verify(t), null);
  assert.equal(await a.verify("nope"), null);
  assert.equal(await a.verify(t + "x"), null);
  assert.equal(await a.verify("x".repeat(10_000)), null);
});

Deno.test("passwords: bcrypt cost 10, verify", async () => {
  const h = await hashPassword("correct horse");
  assert.match(h, /^\$2[aby]\$10\$/);
  assert.equal(await verifyPassword("correct horse", h), true);
  assert.equal(await verifyPassword("wrong horse", h), false);
});

Deno.test("password and name rules", () => {
  assert.equal(passwordProblem("12345678"), null);
  assert.match(passwordProblem("1234567")!, /at least 8/);
  assert.match(passwordProblem("x".repeat(513))!, /512/);
  assert.equal(passwordProblem("x".repeat(512)), null);
  assert.equal(playerNameProblem("Alice"), null);
  for (const bad of ["", "A", "1abc", "a b", "x".repeat(33), "../x", "a\u0000b", "me"]) {
    assert.notEqual(playerNameProblem(bad), null, bad);
  }
});

Deno.test("rate limit: window counting, expiry, bounded keys", () => {
  let now = 0;
  const c = new WindowCounter(3, 1000, 2, () => now);
  c.hit("a");
  c.hit("a");
  assert.equal(c.exceeded("a"), false);
  c.hit("a");
  assert.equal(c.exceeded("a"), true);
  now = 1001;
  assert.equal(c.exceeded("a"), false);
  c.hit("b");
  c.hit("c");
  c.hit("d");
  assert.equal(c.count("b"), 0, "oldest key evicted beyond maxKeys");
  assert.equal(c.count("d"), 1);
});

Deno.test("constant-time compare", () => {
  assert.equal(timingSafeEqualString("abc", "abc"), true);
  assert.equal(timingSafeEqualString("abc", "abd"), false);
  assert.equal(timingSafeEqualString("abc", "abcd"), false);
});
