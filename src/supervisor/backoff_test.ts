import assert from "node:assert/strict";
import { BASE_DELAY_MS, MAX_DELAY_MS, restartDelay, STABLE_RUN_MS } from "./backoff.ts";

Deno.test("first restart waits the base delay, however short the run", () => {
  assert.equal(restartDelay(null, 0), BASE_DELAY_MS);
  assert.equal(restartDelay(null, 100_000), BASE_DELAY_MS);
});

Deno.test("short runs double the delay up to the cap", () => {
  const seen: number[] = [];
  let d: number | null = null;
  for (let i = 0; i < 10; i++) {
    d = restartDelay(d, 1_000);
    seen.push(d);
  }
  assert.deepEqual(seen, [1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000, 60000]);
  assert.equal(restartDelay(MAX_DELAY_MS, 0), MAX_DELAY_MS);
});

Deno.test("a stable run resets the delay", () => {
  assert.equal(restartDelay(32_000, STABLE_RUN_MS), BASE_DELAY_MS);
  assert.equal(restartDelay(32_000, STABLE_RUN_MS - 1), MAX_DELAY_MS);
  assert.equal(restartDelay(4_000, 3_600_000), BASE_DELAY_MS);
});

Deno.test("odd inputs never give a delay outside the range", () => {
  for (const prev of [null, -5, 0, 1, NaN, Infinity, 59_999]) {
    for (const run of [-1, 0, NaN, 4_999, 5_000, Infinity]) {
      const d = restartDelay(prev, run);
      assert.ok(d >= BASE_DELAY_MS && d <= MAX_DELAY_MS, `${prev}, ${run} -> ${d}`);
    }
  }
});

Deno.test("a lower cap keeps every delay at or under it", () => {
  assert.equal(restartDelay(1_000, 0, 1_000), 1_000);
  assert.equal(restartDelay(2_000, 0, 5_000), 4_000);
  assert.equal(restartDelay(4_000, 0, 5_000), 5_000);
  assert.equal(restartDelay(4_000, 0, 0), 8_000);
  assert.equal(restartDelay(40_000, 0, 999_999), MAX_DELAY_MS);
});
