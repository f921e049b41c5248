import assert from "node:assert/strict";
import { compareVersions, parseRange, parseVersion, satisfies } from "./semver.ts";

Deno.test("semver: parses exact versions and rejects junk", () => {
  assert.deepEqual(parseVersion("1.2.3"), { major: 1, minor: 2, patch: 3, pre: [] });
  assert.deepEqual(parseVersion("v1.0.0-beta.2")?.pre, ["beta", "2"]);
  for (const bad of ["", "1", "1.2", "01.2.3", "1.2.3.4", "a.b.c", "1.2.3-", "x".repeat(300)]) {
    assert.deepEqual(parseVersion(bad), null, bad);
  }
});

Deno.test("semver: orders releases and pre-releases", () => {
  const cmp = (a: string, b: string) =>
    Math.sign(compareVersions(parseVersion(a)!, parseVersion(b)!));
  assert.deepEqual(cmp("1.0.0", "1.0.1"), -1);
  assert.deepEqual(cmp("2.0.0", "1.9.9"), 1);
  assert.deepEqual(cmp("1.0.0-alpha", "1.0.0"), -1);
  assert.deepEqual(cmp("1.0.0-alpha.1", "1.0.0-alpha.beta"), -1);
  assert.deepEqual(cmp("1.0.0-2", "1.0.0-10"), -1);
  assert.deepEqual(cmp("1.2.3", "1.2.3"), 0);
});

Deno.test("semver: comparison operators", () => {
  assert(satisfies("1.0.0", ">=1.0.0"));
  assert(satisfies("1.0.0", ">= 1.0.0"));
  assert(!satisfies("0.9.9", ">=1.0.0"));
  assert(satisfies("1.0.1", ">1.0.0"));
  assert(!satisfies("1.0.0", ">1.0.0"));
  assert(satisfies("1.0.0", "<=1.0.0"));
  assert(!satisfies("1.0.0", "<1.0.0"));
  assert(satisfies("1.0.0", "=1.0.0"));
  assert(satisfies("1.0.0", "1.0.0"));
  assert(!satisfies("1.0.1", "=1.0.0"));
});

Deno.test("semver: caret and tilde", () => {
  assert(satisfies("1.9.0", "^1.2.3"));
  assert(!satisfies("2.0.0", "^1.2.3"));
  assert(!satisfies("1.2.2", "^1.2.3"));
  assert(satisfies("0.2.9", "^0.2.3"));
  assert(!satisfies("0.3.0", "^0.2.3"));
  assert(satisfies("0.0.3", "^0.0.3"));
  assert(!satisfies("0.0.4", "^0.0.3"));
  assert(satisfies("1.2.9", "~1.2.3"));
  assert(!satisfies("1.3.0", "~1.2.3"));
  assert(satisfies("1.9.0", "~1"));
  assert(!satisfies("2.0.0", "~1"));
});

Deno.test("semver: x-ranges and partial versions", () => {
  assert(satisfies("1.5.0", "1.x"));
  assert(!satisfies("2.0.0", "1.x"));
  assert(satisfies("1.2.7", "1.2.*"));
  assert(!satisfies("1.3.0", "1.2.X"));
  assert(satisfies("9.9.9", "*"));
  assert(satisfies("9.9.9", ""));
  assert(satisfies("1.0.0", "1"));
  assert(satisfies("1.9.0", "<=1.x"));
  assert(!satisfies("2.0.0", "<=1"));
  assert(satisfies("2.0.0", ">1"));
  assert(!satisfies("1.9.9", ">1"));
  assert(satisfies("1.0.0", ">=1.0"));
});

Deno.test("semver: AND and OR", () => {
  assert(satisfies("1.5.0", ">=1.0.0 <2.0.0"));
  assert(!satisfies("2.0.0", ">=1.0.0 <2.0.0"));
  assert(satisfies("3.1.0", "^1.0.0 || ^3.0.0"));
  assert(!satisfies("2.1.0", "^1.0.0 || ^3.0.0"));
});

Deno.test("semver: malformed ranges never match", () => {
  for (const bad of [">>1.0.0", "1.0.0 - 2.0.0", "abc", "^", ">=1.0.0 <", "1.2.3.4"]) {
    assert.deepEqual(satisfies("1.0.0", bad), false, bad);
  }
  assert.deepEqual(parseRange(">=1.0.0 !"), null);
  assert.deepEqual(satisfies("junk", ">=1.0.0"), false);
});
