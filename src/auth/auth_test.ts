import assert from "node:assert/strict";
import bcrypt from "bcryptjs";
import {
  hashPassword,
  needsRehash,
  passwordProblem,
  sentence,
  verifyPassword,
} from "./passwords.ts";
import { timingSafeEqualString } from "./constant_time.ts";
import { playerNameProblem } from "../world/names.ts";

Deno.test("passwords: bcrypt cost 10 over a versioned pre-hash, verify", async () => {
  const h = await hashPassword("correct horse");
  assert.match(h, /^v2\$\$2[aby]\$10\$/);
  assert.equal(needsRehash(h), false);
  assert.equal(await verifyPassword("correct horse", h), true);
  assert.equal(await verifyPassword("wrong horse", h), false);
});

Deno.test("passwords: every character counts, also after bcrypt's 72 bytes", async () => {
  const prefix = "p".repeat(72);
  const h = await hashPassword(prefix + "-the-real-suffix");
  assert.equal(await verifyPassword(prefix + "-the-real-suffix", h), true);
  assert.equal(await verifyPassword(prefix, h), false);
  assert.equal(await verifyPassword(prefix + "-another-suffix", h), false);
  // Multi-byte characters: 24 three-byte characters fill bcrypt's 72 bytes on their own.
  const wide = "\u20ac".repeat(24);
  const hw = await hashPassword(wide + "a");
  assert.equal(await verifyPassword(wide + "b", hw), false);
  assert.equal(await verifyPassword(wide + "a", hw), true);
});

Deno.test("passwords: plain bcrypt hashes of the old scheme still verify and ask for a rehash", async () => {
  const old = await bcrypt.hash("old password", 10);
  assert.equal(needsRehash(old), true);
  assert.equal(await verifyPassword("old password", old), true);
  assert.equal(await verifyPassword("new password", old), false);
});

Deno.test("password and name rules", () => {
  assert.equal(passwordProblem("12345678"), null);
  assert.match(passwordProblem("1234567")!, /at least 8/);
  assert.match(passwordProblem("x".repeat(513))!, /512/);
  assert.equal(passwordProblem("x".repeat(512)), null);
  assert.match(passwordProblem(" ")!, /blank/);
  assert.match(passwordProblem(" ".repeat(12))!, /blank/);
  assert.match(passwordProblem("")!, /required/);
  assert.match(passwordProblem(undefined)!, /required/);
  assert.equal(
    sentence(passwordProblem("x".repeat(513))!),
    "Password must be 512 characters or fewer.",
  );
  assert.equal(playerNameProblem("Alice"), null);
  for (const bad of ["", "A", "1abc", "a b", "x".repeat(33), "../x", "a\u0000b", "me"]) {
    assert.notEqual(playerNameProblem(bad), null, bad);
  }
});

Deno.test("constant-time compare", () => {
  assert.equal(timingSafeEqualString("abc", "abc"), true);
  assert.equal(timingSafeEqualString("abc", "abd"), false);
  assert.equal(timingSafeEqualString("abc", "abcd"), false);
});
