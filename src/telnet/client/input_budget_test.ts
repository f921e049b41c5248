/** Tests of a telnet connection's input budget. */
import assert from "node:assert/strict";
import { BURST_SECONDS, InputBudget } from "./input_budget.ts";

Deno.test("input budget: a burst goes through, then reading stops as long as the excess takes to earn", () => {
  const b = new InputBudget(1000, 0);
  assert.equal(b.take(1000 * BURST_SECONDS, 0), 0, "the burst");
  assert.equal(b.take(500, 0), 500, "half a second of rate over");
  // Half a second later the debt is paid; a further second of bytes waits a second.
  assert.equal(b.take(1000, 500), 1000);
  // Idle for a long time refills only up to the burst.
  assert.equal(b.take(1000 * BURST_SECONDS, 60_000), 0);
  assert.equal(b.take(1, 60_000), 1);
});

Deno.test("input budget: typing never waits; 0 is no bound", () => {
  const b = new InputBudget(1000, 0);
  for (let t = 0; t < 60_000; t += 100) assert.equal(b.take(40, t), 0);
  const free = new InputBudget(0, 0);
  assert.equal(free.take(1e9, 0), 0);
});
