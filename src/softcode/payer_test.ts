import assert from "node:assert/strict";
import { testSoftcode } from "./_test_world.ts";
import { ERR_CPU } from "./eval.ts";
import { stripMarkup } from "./markup.ts";
import { checkLock, type LockWorld } from "../world/locks.ts";

/** The end of the softcode's turn: a timer set after the evaluations (`yieldMs` 0: due at once). */
const turn = () => new Promise((r) => setTimeout(r, 0));

// The time budget's owner (docs/softcode.md, "Limits"): the chain's payer, else the owner.
Deno.test("softcode: a chain's payer is charged, not the global's owner, and told once", async () => {
  // Each evaluation in a turn of its own: a payer's evaluations in one turn share one
  // evaluation's time.
  let clock = 0;
  const t = testSoftcode(
    { evaluationMs: 50, actorMs: 100, actorWindowMs: 10_000, yieldMs: 0 },
    () => clock++,
  );
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
  // yieldMs 50: the turn ends 50 ms after the payer's last heavy evaluation, so nothing below
  // but the awaited end can end it, however loaded the machine.
  const t = testSoftcode(
    { evaluationMs: 50, actorMs: 10_000, actorWindowMs: 10_000, yieldMs: 50 },
    () => clock++,
  );
  const bob = t.world.add("Bob", "player", { location: t.room });
  const burn = "[iter(lnum(5000),add(##,1))]";
  // The use locks of everything that hears one say: one after another, nothing between them.
  t.sc.evaluate(burn, { executor: t.wiz });
  assert.equal(t.sc.evaluate("[add(1,1)]", { executor: t.wiz }), ERR_CPU);
  // Another payer in the same turn has a time of its own.
  assert.equal(t.sc.evaluate("[add(1,1)]", { executor: bob }), "2");
  // The turn ends at a timer (src/runtime/after_input.ts): awaited, a new turn.
  await t.sc.turnWait(t.wiz);
  assert.equal(t.sc.evaluate("[add(1,1)]", { executor: t.wiz }), "2", "a new turn, a new time");
});

Deno.test("softcode: a payer's small evaluations over many turns never add up to a turn's time", async () => {
  // Each evaluation takes a fraction of a millisecond: the turn's end is awaited only once a
  // payer's count reaches a millisecond, so what little it used carries over, but never piles up.
  let clock = 0;
  const t = testSoftcode(
    { evaluationMs: 50, actorMs: 1e9, gameMs: 1e9, actorWindowMs: 10_000 },
    () => (clock += 0.05),
  );
  const bob = t.world.add("Bob", "player", { location: t.room });
  for (let i = 0; i < 2_000; i++) {
    assert.equal(t.sc.evaluate("[add(1,1)]", { executor: bob }), "2", `turn ${i}`);
    await new Promise((r) => setImmediate(r));
  }
  assert.ok(t.sc.spentBy(bob) > 100, "together far more than one evaluation's time");
});

Deno.test("softcode: a payer's small evaluations in one turn share one evaluation's time", () => {
  let clock = 0;
  const t = testSoftcode(
    { evaluationMs: 50, actorMs: 1e9, gameMs: 1e9, actorWindowMs: 10_000 },
    () => (clock += 0.05),
  );
  const bob = t.world.add("Bob", "player", { location: t.room });
  const out: string[] = [];
  for (let i = 0; i < 2_000; i++) out.push(t.sc.evaluate("[add(1,1)]", { executor: bob }));
  const first = out.indexOf(ERR_CPU);
  // 0.05 ms each: the thousandth reaches the 50 ms.
  assert.ok(
    first >= 990 && first <= 1_010,
    `refused once their sum reached the time (at ${first})`,
  );
  assert.ok(out.slice(first).every((o) => o === ERR_CPU), "and for the rest of the turn");
});

Deno.test("softcode: a payer told to wait for the turn's end is never left waiting (yieldMs 0 or below a millisecond)", async () => {
  for (const yieldMs of [0, 0.5]) {
    let clock = 0;
    const t = testSoftcode(
      { evaluationMs: 50, actorMs: 1e9, gameMs: 1e9, actorWindowMs: 10_000, yieldMs },
      () => (clock += 0.05),
    );
    const bob = t.world.add("Bob", "player", { location: t.room });
    // A typed `think`'s few microseconds: under the millisecond that ends a turn by itself.
    for (let i = 0; i < 12; i++) t.sc.evaluate("[add(1,1)]", { executor: bob });
    const wait = t.sc.turnWait(bob);
    assert.ok(wait !== null, `past yieldMs ${yieldMs}: Bob's next line waits`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stuck = new Promise<string>((r) => timer = setTimeout(() => r("stuck"), 2_000));
    const got = await Promise.race([wait.then(() => "ended"), stuck]);
    clearTimeout(timer);
    assert.equal(got, "ended", `yieldMs ${yieldMs}: the turn ends, so Bob's line runs`);
  }
});

/** The test world's lock checks with evaluation keys run by `t.sc`, as the engine's lock world. */
function evaluatingLocks(t: ReturnType<typeof testSoftcode>): void {
  const w = t.world;
  const world: LockWorld = {
    object: (id) => w.objects.get(id) ?? null,
    contents: () => [],
    attr: (id, name) => w.attrs.get(id)?.get(name) ?? null,
    canSeeAttr: () => true,
    evaluate: (code, executor, enactor) => stripMarkup(t.sc.evaluate(code, { executor, enactor })),
  };
  t.sc.ports.access.passesLock = (lock, o, on) =>
    checkLock(lock, { id: `#${o.id}`, flags: o.flags, connected: true }, { world, on });
}

// A lock's evaluation key, a description, a format: evaluated as their object, with no chain,
// during a player's command (docs/softcode.md, "Whose time").
Deno.test("softcode: evaluations during a player's command are charged to that player, across its awaits", async () => {
  let clock = 0;
  const t = testSoftcode(
    { evaluationMs: 50, actorMs: 10_000, actorWindowMs: 60_000 },
    () => clock++,
  );
  const bob = t.world.add("Bob", "player", { location: t.room });
  const carol = t.world.add("Carol", "player", { location: t.room });
  const gate = t.world.add("Gate", "exit", { location: t.room, owner: t.wiz });
  const burn = "[null(iter(lnum(300),add(##,1)))]";
  const probe = async (who: string, turns: number) => {
    for (let i = 0; i < turns; i++) {
      t.sc.evaluate(burn, { executor: gate, enactor: who });
      // Another player's command runs meanwhile.
      await new Promise((r) => setTimeout(r, 0));
    }
    return t.sc.payer;
  };
  const [a, b] = await Promise.all([
    t.sc.onBehalfOf(bob, () => probe(bob, 3)),
    t.sc.onBehalfOf(carol, () => probe(carol, 3)),
  ]);
  assert.deepEqual([a, b], [bob, carol]);
  assert.ok(t.sc.spentBy(bob) > 0 && t.sc.spentBy(carol) > 0);
  assert.equal(t.sc.spentBy(t.wiz), 0, "the gate's owner paid nothing");
  // A chain's own payer comes first; outside any command the owner pays, as before.
  await t.sc.onBehalfOf(bob, () => {
    t.sc.evaluate(burn, { executor: gate, chain: { spent: 0, payer: carol } });
    return Promise.resolve();
  });
  assert.equal(t.sc.payer, null);
  t.sc.evaluate(burn, { executor: gate });
  assert.ok(t.sc.spentBy(t.wiz) > 0);
  // No player (a timed wait's line): the owner pays even inside.
  const before = t.sc.spentBy(t.wiz);
  await t.sc.onBehalfOf(null, () => Promise.resolve(t.sc.evaluate(burn, { executor: gate })));
  assert.ok(t.sc.spentBy(t.wiz) > before);
});

Deno.test("softcode: an evaluation inside another (elock() of an evaluated lock) shares its payer, deadline and counts", () => {
  let clock = 0;
  const t = testSoftcode(
    { evaluationMs: 50, actorMs: 10_000, actorWindowMs: 60_000 },
    () => clock++,
  );
  evaluatingLocks(t);
  const bob = t.world.add("Bob", "player", { location: t.room });
  const gate = t.world.add("Gate", "thing", {
    location: t.room,
    owner: t.wiz,
    data: { locks: { basic: "BURN/1" } },
  });
  t.world.set(gate, "BURN", "[null(iter(lnum(100000),add(##,1)))]1");
  // About half the deadline spent, then a lock whose key would run far past it.
  const start = clock;
  const out = t.sc.evaluate("[null(iter(lnum(400),add(##,1)))][elock(#" + gate + ",me)]", {
    executor: bob,
    chain: { spent: 0, payer: bob },
  });
  const took = clock - start;
  assert.ok(took <= 55, `the whole ended at the outer deadline (took ${took})`);
  assert.equal(out, "0", "the key's time ran out with the outer's: the lock fails");
  assert.equal(t.sc.spentBy(t.wiz), 0, "the lock's owner paid nothing");
  assert.ok(t.sc.spentBy(bob) >= 50 && t.sc.spentBy(bob) <= 55, "charged once, not twice");

  // One count of function calls for the whole: the key's calls count against the outer's.
  const u = testSoftcode({ functionInvocations: 500 });
  evaluatingLocks(u);
  const ugate = u.world.add("Gate", "thing", {
    location: u.room,
    owner: u.wiz,
    data: { locks: { basic: "COUNT/1" } },
  });
  u.world.set(ugate, "COUNT", "[null(iter(lnum(300),add(1,1)))]1");
  assert.equal(u.run(`[elock(#${ugate},me)]`), "1");
  const both = u.run(`[elock(#${ugate},me)] [iter(lnum(300),add(1,1))]`);
  assert.match(both, /^1 (2 )+#-1 FUNCTION INVOCATION LIMIT EXCEEDED/);
});

Deno.test("softcode: past the game's time, the heavy payers are held to a fair share and the light run on", async () => {
  let clock = 0;
  const t = testSoftcode(
    { evaluationMs: 50, actorMs: 100, gameMs: 120, actorWindowMs: 10_000, yieldMs: 0 },
    () => clock++,
  );
  const heavy = ["A", "B", "C"].map((n) => t.world.add(n, "player", { location: t.room }));
  const light = t.world.add("Light", "player", { location: t.room });
  const burn = "[iter(lnum(5000),add(##,1))]";
  const as = (p: string) => ({ executor: p, enactor: p, chain: { spent: 0, payer: p } });
  // Each heavy payer stays within its own 100 ms; together they pass the game's 120.
  for (const p of heavy) {
    t.sc.evaluate(burn, as(p));
    await turn();
  }
  assert.ok(heavy.every((p) => t.sc.spentBy(p) >= 50 && t.sc.spentBy(p) < 100));
  t.sc.evaluate("[add(1,1)]", as(light));
  await turn();
  // Four payers spent: a share is 30 ms. The heavy are refused and told why; the light run on.
  for (const p of heavy) assert.equal(t.sc.evaluate("[add(1,1)]", as(p)), ERR_CPU);
  assert.equal(t.sc.evaluate("[add(1,1)]", as(light)), "2");
  assert.ok(
    t.world.sent.some((s) => s.to === heavy[0] && /game's softcode is busy.*share/.test(s.msg)),
  );
  // A new window: everyone has their own time again.
  clock += 10_000;
  await turn();
  assert.equal(t.sc.evaluate("[add(1,1)]", as(heavy[0])), "2");
});

Deno.test("softcode: a turn's shared time counts what the payer used, not what others did meanwhile", () => {
  let clock = 0;
  const t = testSoftcode(
    { evaluationMs: 50, actorMs: 10_000, gameMs: 1e9, actorWindowMs: 10_000 },
    () => clock++,
  );
  const bob = t.world.add("Bob", "player", { location: t.room });
  assert.equal(t.sc.evaluate("[add(1,1)]", { executor: bob }), "2");
  // The wizard burns a whole evaluation's time in the same turn, between Bob's two.
  assert.ok(t.sc.evaluate("[iter(lnum(5000),add(##,1))]", { executor: t.wiz }).endsWith(ERR_CPU));
  assert.equal(t.sc.evaluate("[add(1,1)]", { executor: bob }), "2", "Bob used next to nothing");
});

// A heavy evaluation puts the turn's end off `yieldMs` only during a line or request that
// waited for its turn: evaluations nothing waits for (a request without a caller charging the
// owner, a look a finished line left running) came at any pace and, each putting the end off
// again, kept every waiting payer waiting while the owner's time lasted.
Deno.test("softcode: evaluations no turn check held never put the turn's end off", async () => {
  for (const detached of [false, true]) {
    let clock = 0;
    const t = testSoftcode(
      { evaluationMs: 1e6, actorMs: 1e9, gameMs: 1e9, actorWindowMs: 1e9, yieldMs: 40 },
      () => clock++,
    );
    const bob = t.world.add("Bob", "player", { location: t.room });
    const burn = "[iter(lnum(5000),add(##,1))]";
    // Bob's line burns: his next waits for the turn's end, a timer 40 ms on.
    t.sc.onBehalfOf(bob, () => t.sc.evaluate(burn, { executor: bob }));
    const wait = t.sc.turnWait(bob);
    assert.ok(wait !== null);
    let ended = false;
    wait.then(() => ended = true);
    // The owner's evaluations keep coming, each taking a (counted) millisecond, every 2 ms: as
    // timers fire in the order they are due, the turn's end comes first unless one put it off.
    const owners = async () => {
      t.sc.evaluate(burn, { executor: t.wiz });
      for (let i = 0; i < 100 && !ended; i++) {
        t.sc.evaluate("[add(1,1)]", { executor: t.wiz });
        await new Promise((r) => setTimeout(r, 2));
      }
      return ended;
    };
    // Detached: left running by a line of the owner's that has ended (its store outlives it).
    let run: Promise<boolean> | null = null;
    if (detached) t.sc.onBehalfOf(t.wiz, () => void (run = owners()));
    else run = owners();
    assert.ok(await run, `${detached ? "a finished line's leftovers" : "no line"}: the turn ended`);
  }
});
