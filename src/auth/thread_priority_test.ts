import assert from "node:assert/strict";
import { yieldingClock } from "./thread_priority.ts";

Deno.test("yieldingClock: tells the time it wraps, giving the CPU away first", () => {
  let reads = 0;
  const clock = yieldingClock(() => ++reads);
  if (Deno.build.os !== "linux") {
    assert.equal(clock, null);
    return;
  }
  assert.ok(clock !== null, "sched_yield is reachable on Linux with --allow-ffi");
  assert.equal(clock(), 1);
  assert.equal(clock(), 2);
  const real = yieldingClock(Date.now)!;
  const t = real();
  assert.ok(Math.abs(t - Date.now()) < 1_000, `${t}`);
});
