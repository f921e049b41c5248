/** Tests of a telnet connection's input budget. */
import assert from "node:assert/strict";
import { RateBudgets } from "../../rate/budget.ts";
import { BURST_SECONDS, InputBudget, inputShape } from "./input_budget.ts";

Deno.test("input budget: a burst goes through, then reading stops as long as the excess takes to earn", () => {
  let now = 0;
  const b = new InputBudget(1000, () => now);
  assert.equal(b.take(1000 * BURST_SECONDS), 0, "the burst");
  assert.equal(b.take(500), 500, "half a second of rate over");
  // Half a second later the debt is paid; a further second of bytes waits a second.
  now = 500;
  assert.equal(b.take(1000), 1000);
  // Idle for a long time refills only up to the burst.
  now = 60_000;
  assert.equal(b.take(1000 * BURST_SECONDS), 0);
  assert.equal(b.take(1), 1);
});

Deno.test("input budget: typing never waits; 0 is no bound", () => {
  let now = 0;
  const b = new InputBudget(1000, () => now);
  for (; now < 60_000; now += 100) assert.equal(b.take(40), 0);
  const free = new InputBudget(0, () => now);
  assert.equal(free.take(1e9), 0);
});

Deno.test("input budget: an address's connections share its budget", () => {
  let now = 0;
  const budgets = new RateBudgets({ now: () => now });
  const address = { budgets, key: "127.0.0.1", shape: inputShape(20_000) };
  const conns = Array.from({ length: 45 }, () => new InputBudget(10_000, () => now, address));
  // Each is within its own burst and past its share of the address; together they are past the
  // address's burst after two of them.
  const holds = conns.map((c) => c.take(10_000 * BURST_SECONDS));
  assert.deepEqual(holds.slice(0, 2), [0, 0]);
  assert.equal(holds[2], 2000, "the third is 40,000 bytes past the address's burst: 2 s");
  assert.equal(holds[44], 86_000, "the last waits for all the others' bytes");
  // Another address is not held back.
  const other = new InputBudget(10_000, () => now, { ...address, key: "10.0.0.1" });
  assert.equal(other.take(10_000 * BURST_SECONDS), 0);
  // Over time the address reads at its rate, whatever the number of connections.
  now = 86_000;
  assert.equal(conns[0].take(40_000), 2000);
});

Deno.test("input budget: a connection typing within its share is never held by its address", () => {
  // Before: one connection flooding from an address (players behind one NAT) held every other
  // connection of the address as long as the address's debt, seconds for each line.
  let now = 0;
  const budgets = new RateBudgets({ now: () => now });
  const address = { budgets, key: "127.0.0.1", shape: inputShape(20_000) };
  const flooders = Array.from({ length: 10 }, () => new InputBudget(10_000, () => now, address));
  const typist = new InputBudget(10_000, () => now, address);
  for (; now < 30_000; now += 100) {
    for (const f of flooders) f.take(4_000);
    assert.equal(typist.take(100), 0, `at ${now} ms`);
  }
  assert.ok(flooders[0].take(4_000) > 1000, "the flooders are held back");
  // A share is a share: past it, the typist draws on the spent address too.
  assert.ok(typist.take(40_000) > 0);
});
