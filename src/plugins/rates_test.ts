import assert from "node:assert/strict";
import { PlayerRates } from "./rates.ts";

Deno.test("rates: a burst of perMinute, then one every 60/perMinute seconds", () => {
  let now = 1_000_000;
  const r = new PlayerRates(() => now);
  for (let i = 0; i < 6; i++) assert.equal(r.take("a", 6), 0, `take ${i}`);
  assert.equal(r.take("a", 6), 10_000, "the seventh waits for one to come back");
  assert.equal(r.take("b", 6), 0, "another key has its own bucket");
  now += 9_999;
  assert.ok(r.take("a", 6) > 0);
  now += 1;
  assert.equal(r.take("a", 6), 0);
  assert.ok(r.take("a", 6) > 0, "one came back, one was taken");
  // A minute later the bucket is full again.
  now += 60_000;
  for (let i = 0; i < 6; i++) assert.equal(r.take("a", 6), 0);
  assert.equal(r.take("off", 0), 0, "0 is no limit");
});

Deno.test("rates: the buckets held are bounded", () => {
  const r = new PlayerRates(() => 0, 100);
  for (let i = 0; i < 1000; i++) r.take(`p${i}`, 5);
  assert.equal(r.size, 100);
});

Deno.test("rates: a refused write gives its place back", () => {
  const r = new PlayerRates(() => 5_000);
  for (let i = 0; i < 3; i++) assert.equal(r.take("a", 3), 0);
  assert.ok(r.take("a", 3) > 0);
  r.giveBack("a", 3);
  assert.equal(r.take("a", 3), 0);
  r.giveBack("none", 3);
  assert.equal(r.size, 1);
});
