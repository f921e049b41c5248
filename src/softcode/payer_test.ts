import assert from "node:assert/strict";
import { testSoftcode } from "./_test_world.ts";
import { ERR_CPU } from "./eval.ts";

// The time budget's owner (docs/softcode.md, "Limits"): the chain's payer, else the owner.
Deno.test("softcode: a chain's payer is charged, not the global's owner, and told once", () => {
  let clock = 0;
  const t = testSoftcode({ evaluationMs: 50, actorMs: 100, actorWindowMs: 10_000 }, () => clock++);
  const bob = t.world.add("Bob", "player", { location: t.room });
  const carol = t.world.add("Carol", "player", { location: t.room });
  const global = t.world.add("Global", "thing", { location: t.room, owner: t.wiz });
  const burn = "[iter(lnum(5000),add(##,1))]";
  const asBob = { executor: global, enactor: bob, chain: { spent: 0, payer: bob } };
  t.sc.evaluate(burn, asBob);
  t.sc.evaluate(burn, asBob);
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
  const asCarol = { executor: global, enactor: carol, chain: { spent: 0, payer: carol } };
  assert.equal(t.sc.evaluate("[add(1,1)]", asCarol), "2");
  // No payer (a timed wait, @startup): the owner pays.
  t.sc.evaluate("[add(1,1)]", { executor: global, chain: { spent: 0 } });
  assert.ok(t.sc.spentBy(t.wiz) > 0);
});
