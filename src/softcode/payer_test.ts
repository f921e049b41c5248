import assert from "node:assert/strict";
import { testSoftcode } from "./_test_world.ts";
import { ERR_CPU } from "./eval.ts";

// The time budget's owner (docs/softcode.md, "Limits"): the chain's payer, else the owner.
Deno.test("softcode: a chain's payer is charged, not the global's owner, and told once", async () => {
  // Each evaluation in a turn of the event loop of its own: a payer's evaluations in one turn
  // share one evaluation's time.
  const turn = () => new Promise((r) => setImmediate(r));
  let clock = 0;
  const t = testSoftcode({ evaluationMs: 50, actorMs: 100, actorWindowMs: 10_000 }, () => clock++);
  const bob = t.world.add("Bob", "player", { location: t.room });
  const carol = t.world.add("Carol", "player", { location: t.room });
  const global = t.world.add("Global", "thing", { location: t.room, owner: t.wiz });
  const burn = "[iter(lnum(5000),add(##,1))]";
  const asBob = { executor: global, enactor: bob, chain: { spent: 0, payer: bob } };
  t.sc.evaluate(burn, asBob);
  await turn();
  t.sc.evaluate(burn, asBob);
  await turn();
  assert.equal(t.sc.evaluate("[add(1,1)]", asBob), ERR_CPU, "Bob's budget is spent");
  assert.ok(t.sc.spentBy(bob) >= 100);
  assert.equal(t.sc.spentBy(t.wiz), 0, "the global's owner paid nothing");
  const told = t.world.sent.filter((s) => s.to === bob && /used its time/.test(s.msg));
  t.sc.evaluate("[add(1,1)]", asBob);
  assert.equal(told.length, 1);
  assert.equal(
    t.world.sent.filter((s) => s.to === bob && /used its time/.test(s.msg)).length,
    1,
    "told once a window",
  );
  // Carol's use of the same global still works.
  await turn();
  const asCarol = { executor: global, enactor: carol, chain: { spent: 0, payer: carol } };
  assert.equal(t.sc.evaluate("[add(1,1)]", asCarol), "2");
  // No payer (a timed wait, @startup): the owner pays.
  await turn();
  t.sc.evaluate("[add(1,1)]", { executor: global, chain: { spent: 0 } });
  assert.ok(t.sc.spentBy(t.wiz) > 0);
});

Deno.test("softcode: a payer's evaluations before the event loop turns share one evaluation's time", async () => {
  let clock = 0;
  const t = testSoftcode(
    { evaluationMs: 50, actorMs: 10_000, actorWindowMs: 10_000 },
    () => clock++,
  );
  const bob = t.world.add("Bob", "player", { location: t.room });
  const burn = "[iter(lnum(5000),add(##,1))]";
  // The use locks of everything that hears one say: one after another, nothing between them.
  t.sc.evaluate(burn, { executor: t.wiz });
  assert.equal(t.sc.evaluate("[add(1,1)]", { executor: t.wiz }), ERR_CPU);
  // Another payer in the same turn has a time of its own.
  assert.equal(t.sc.evaluate("[add(1,1)]", { executor: bob }), "2");
  await new Promise((r) => setImmediate(r));
  assert.equal(t.sc.evaluate("[add(1,1)]", { executor: t.wiz }), "2", "a new turn, a new time");
});
