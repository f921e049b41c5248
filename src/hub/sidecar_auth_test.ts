import assert from "node:assert/strict";
import {
  checkSidecarProof,
  MIN_SIDECAR_SECRET,
  newSidecarSecret,
  sidecarSecretFrom,
} from "./sidecar_auth.ts";

Deno.test("newSidecarSecret: long enough, URL-safe, new each time", () => {
  const a = newSidecarSecret(), b = newSidecarSecret();
  assert.ok(a.length >= MIN_SIDECAR_SECRET);
  assert.match(a, /^[A-Za-z0-9_-]+$/);
  assert.notEqual(a, b);
});

Deno.test("sidecarSecretFrom: unset or short means no secret (short ones are warned about)", () => {
  const warnings: string[] = [];
  const warn = (m: string) => warnings.push(m);
  assert.equal(sidecarSecretFrom("", warn), null);
  assert.deepEqual(warnings, []);
  assert.equal(sidecarSecretFrom("short", warn), null);
  assert.match(warnings[0], /shorter than 32 characters/);
  const good = "s".repeat(MIN_SIDECAR_SECRET);
  assert.equal(sidecarSecretFrom(good, warn), good);
});

Deno.test("checkSidecarProof: only the exact secret proves the sidecar", () => {
  const secret = newSidecarSecret();
  assert.equal(checkSidecarProof(secret, secret), "sidecar");
  assert.equal(checkSidecarProof(null, secret), "none");
  assert.equal(checkSidecarProof("", secret), "none");
  assert.equal(checkSidecarProof(secret.slice(1), secret), "wrong");
  assert.equal(checkSidecarProof(secret + "x", secret), "wrong");
  // Without a secret of our own nobody is the sidecar, whatever they send.
  assert.equal(checkSidecarProof(secret, null), "wrong");
  assert.equal(checkSidecarProof(null, null), "none");
});
