/**
 * The queue itself, on real persistent timers (an in-memory store) and a hand-driven clock: a
 * long wait taken over by the next run counts against its owner and runs once; semaphore
 * timeouts; what a run is given. The commands are tested end to end (src/commands/core,
 * tests/softcode_queue_test.ts).
 */
import assert from "node:assert/strict";
import { attributeCounts, CommandQueue, MAX_WAIT_S, type QueueDeps } from "./queue.ts";
import type { QueueFrame } from "./types.ts";
import { Scheduler } from "../timers/scheduler.ts";
import { ManualClock } from "../timers/clock.ts";
import type { DbObject } from "../world/types.ts";

const LIMITS = { playerLimit: 10, staffLimit: 100, chainLimit: 50 };

function obj(id: string, flags: string[], owner = id): DbObject {
  return { id, name: `O${id}`, flags, owner, location: "1", data: {}, createdAt: 0, updatedAt: 0 };
}

/** A world of a player #2, its thing #3 and another player #4; what each run was given, in order. */
function parts(kv: Deno.Kv, clock: ManualClock) {
  const objects = new Map([
    ["2", obj("2", ["player"])],
    ["3", obj("3", ["thing"], "2")],
    ["4", obj("4", ["player"])],
  ]);
  const ran: { executor: string; line: string; frame: QueueFrame }[] = [];
  const told: string[] = [];
  const timers = new Scheduler(kv, { clock });
  const deps: QueueDeps = {
    run: (executor, line, frame) => {
      ran.push({ executor, line, frame });
      return Promise.resolve();
    },
    object: (id) => objects.get(id) ?? null,
    notify: (_id, msg) => void told.push(msg),
    timers,
    clock,
    limits: () => LIMITS,
  };
  return { deps, ran, told, timers };
}

/** Lets the queue run what is ready (it runs in macrotasks). */
async function turn(q: CommandQueue): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await new Promise((r) => setTimeout(r, 0));
    await q.idle();
  }
}

/** Stops a queue and its timers once its long wait is stored (the write goes on behind it). */
async function stopOnceStored(q: CommandQueue, timers: Scheduler): Promise<void> {
  for (let i = 0; i < 50 && (await timers.list("@queue")).length === 0; i++) {
    await new Promise((r) => setTimeout(r, 1));
  }
  await q.close();
  await timers.stop();
}

Deno.test("queue: a long wait is taken over by the next run, counted, and runs once", async () => {
  const kv = await Deno.openKv(":memory:");
  const clock = new ManualClock();
  try {
    const one = parts(kv, clock);
    const q1 = new CommandQueue(one.deps);
    await q1.start();
    await one.timers.start();
    const r = q1.enqueue({
      executor: "3",
      enactor: "2",
      action: "think a;think %0",
      args: ["x"],
      regs: new Map([["0", "kept"]]),
      delay: 5,
    });
    assert.ok("pid" in r);
    await stopOnceStored(q1, one.timers);

    const two = parts(kv, clock);
    const q2 = new CommandQueue(two.deps);
    await q2.start();
    assert.equal(q2.waitingFor("2"), 1, "counted against its owner after the restart");
    assert.deepEqual(q2.list().map((e) => [e.pid, e.where, e.waitSeconds]), [
      [r.pid, "timed", 5],
    ]);
    clock.advance(5000);
    await two.timers.start();
    await turn(q2);
    assert.deepEqual(two.ran.map((x) => [x.executor, x.line]), [["3", "think a"], [
      "3",
      "think %0",
    ]]);
    assert.deepEqual(two.ran[0].frame.args, ["x"]);
    assert.equal(two.ran[0].frame.regs.get("0"), "kept");
    assert.equal(q2.waitingFor("2"), 0);
    await q2.close();
    await two.timers.stop();

    const three = parts(kv, clock);
    const q3 = new CommandQueue(three.deps);
    await q3.start();
    await three.timers.start();
    await turn(q3);
    assert.equal(three.ran.length, 0, "not again");
    await q3.close();
    await three.timers.stop();
  } finally {
    kv.close();
  }
});

Deno.test("queue: a semaphore's timeout runs the wait; a notify after it finds none", async () => {
  const kv = await Deno.openKv(":memory:");
  const clock = new ManualClock();
  try {
    const p = parts(kv, clock);
    const q = new CommandQueue(p.deps);
    await q.start();
    const sem = { object: "3", attr: "SEMAPHORE" };
    q.enqueue({ executor: "2", enactor: "2", action: "think timed out", semaphore: sem, delay: 3 });
    q.enqueue({ executor: "2", enactor: "2", action: "think waits", semaphore: sem });
    assert.deepEqual(q.list().map((e) => [e.where, e.waitSeconds]), [
      ["semaphore", 3],
      ["semaphore", null],
    ]);
    clock.advance(3000);
    await turn(q);
    assert.deepEqual(p.ran.map((x) => x.line), ["think timed out"]);
    assert.equal(q.notify(sem, { count: 1 }), 1);
    await turn(q);
    assert.deepEqual(p.ran.map((x) => x.line), ["think timed out", "think waits"]);
    // Notified ahead: the next wait runs at once.
    assert.equal(q.notify(sem, { count: 1 }), 0);
    q.enqueue({ executor: "2", enactor: "2", action: "think at once", semaphore: sem });
    await turn(q);
    assert.equal(p.ran.at(-1)?.line, "think at once");
    assert.equal(clock.pending, 0, "no timer left armed");
    await q.close();
  } finally {
    kv.close();
  }
});

Deno.test("queue: a notify releases its own semaphore's waiters in the order they came; halted and drained ones leave the line", async () => {
  const kv = await Deno.openKv(":memory:");
  const clock = new ManualClock();
  try {
    const p = parts(kv, clock);
    const q = new CommandQueue(p.deps);
    await q.start();
    const a = { object: "3", attr: "SEMAPHORE" };
    const aLower = { object: "3", attr: "semaphore" };
    const b = { object: "3", attr: "OTHER" };
    const wait = (executor: string, line: string, semaphore: typeof a) =>
      q.enqueue({ executor, enactor: "2", action: line, semaphore });
    wait("2", "think a1", a);
    wait("2", "think b1", b);
    wait("3", "think a2", aLower);
    wait("2", "think a3", a);
    wait("2", "think a4", a);
    // The thing's waits go: the next notify of A releases a3, not a2.
    assert.equal(q.halt({ object: "3" }), 1);
    assert.equal(q.notify(aLower, { count: 2 }), 2);
    await turn(q);
    assert.deepEqual(p.ran.map((x) => x.line), ["think a1", "think a3"]);
    assert.equal(q.notify(b, { drain: true }), 1, "B's one waiter is drained");
    assert.equal(q.notify(a, { all: true }), 1);
    await turn(q);
    assert.deepEqual(p.ran.map((x) => x.line), ["think a1", "think a3", "think a4"]);
    assert.equal(q.notify(b, { all: true }), 0, "a drained waiter is gone from its line");
    assert.deepEqual(q.list(), []);
    await q.close();
  } finally {
    kv.close();
  }
});

Deno.test("queue: a long wait another player set off stays that player's doing after a restart: what it queues past the owner's quota is refused alone", async () => {
  const kv = await Deno.openKv(":memory:");
  const clock = new ManualClock();
  try {
    const one = parts(kv, clock);
    const q1 = new CommandQueue(one.deps);
    await q1.start();
    await one.timers.start();
    // #4's line woke #2's thing, which waits five seconds (as a listener's reply would).
    const r = q1.enqueue({
      executor: "3",
      enactor: "4",
      action: "think later",
      delay: 5,
      chain: { spent: 0, payer: "4" },
    });
    assert.ok("pid" in r);
    await stopOnceStored(q1, one.timers);

    const two = parts(kv, clock);
    const q2 = new CommandQueue(two.deps);
    await q2.start();
    clock.advance(5000);
    await two.timers.start();
    await turn(q2);
    const fired = two.ran[0].frame.chain!;
    assert.deepEqual([fired.payer, fired.origin], ["2", "4"], "paid by the owner, #4's doing");
    // The owner's own queue is full (ten entries, its quota) when the fired wait queues more.
    for (let i = 0; i < LIMITS.playerLimit; i++) {
      assert.ok(
        "pid" in q2.enqueue({ executor: "3", enactor: "2", action: "think own", delay: 60 }),
      );
    }
    const more = q2.enqueue({ executor: "3", enactor: "2", action: "think more", chain: fired });
    assert.ok("pid" in more, "others' entries have a quota of their own");
    for (let i = 1; i < LIMITS.playerLimit; i++) {
      q2.enqueue({ executor: "3", enactor: "2", action: "think more", chain: fired });
    }
    const past = q2.enqueue({ executor: "3", enactor: "2", action: "think past", chain: fired });
    assert.ok("refused" in past && /queued nothing/.test(past.refused), "refused alone");
    assert.equal(q2.waitingFor("2"), 2 * LIMITS.playerLimit, "nothing of the owner's halted");
    assert.deepEqual(two.told, [], "no runaway told");
    await q2.close();
    await two.timers.stop();
  } finally {
    kv.close();
  }
});

Deno.test("queue: a semaphore's timeout past a timer's limit waits it out; a wait past ten years is refused", async () => {
  const kv = await Deno.openKv(":memory:");
  const clock = new ManualClock();
  try {
    const p = parts(kv, clock);
    const q = new CommandQueue(p.deps);
    await q.start();
    const sem = { object: "3", attr: "SEMAPHORE" };
    const day = 24 * 3600;
    q.enqueue({
      executor: "2",
      enactor: "2",
      action: "think late",
      semaphore: sem,
      delay: 30 * day,
    });
    clock.advance(29 * day * 1000);
    await turn(q);
    assert.equal(p.ran.length, 0, "a timer's limit is about 24.8 days; the timeout is 30");
    clock.advance(day * 1000);
    await turn(q);
    assert.deepEqual(p.ran.map((x) => x.line), ["think late"]);
    for (const delay of [MAX_WAIT_S + 1, 1e308, Infinity]) {
      assert.deepEqual(q.enqueue({ executor: "2", enactor: "2", action: "think x", delay }), {
        refused: `A wait may be at most ${MAX_WAIT_S} seconds (ten years).`,
      });
    }
    assert.equal(q.list().length, 0);
    await q.close();
  } finally {
    kv.close();
  }
});

Deno.test("queue: a halted object neither queues nor runs; a closed queue takes nothing", async () => {
  const kv = await Deno.openKv(":memory:");
  const clock = new ManualClock();
  try {
    const p = parts(kv, clock);
    const q = new CommandQueue(p.deps);
    await q.start();
    const halted = { ...obj("3", ["thing", "halt"], "2") };
    p.deps.object = (id) => id === "3" ? halted : obj(id, ["player"]);
    assert.deepEqual(q.enqueue({ executor: "3", enactor: "2", action: "think no" }), {
      refused: "O3 is halted.",
    });
    await q.close();
    assert.ok("refused" in q.enqueue({ executor: "2", enactor: "2", action: "think no" }));
    await turn(q);
    assert.equal(p.ran.length, 0);
  } finally {
    kv.close();
  }
});

Deno.test("queue: a chain begun by a player is paid by that player; a long wait's by the owner", async () => {
  const kv = await Deno.openKv(":memory:");
  const clock = new ManualClock();
  try {
    const p = parts(kv, clock);
    const q = new CommandQueue(p.deps);
    await q.start();
    // The player #2 types a line that queues its thing's action: #2 pays for the chain.
    q.enqueue({ executor: "3", enactor: "2", action: "think a", chain: null });
    // A thing's own event (the enactor no player) starts an unpaid chain: the owner pays.
    q.enqueue({ executor: "3", enactor: "3", action: "think b", chain: null });
    await turn(q);
    assert.deepEqual(p.ran.map((r) => r.frame.chain?.payer), ["2", undefined]);
    // What an entry queues joins its chain, payer and all.
    const chain = p.ran[0].frame.chain!;
    q.enqueue({ executor: "3", enactor: "3", action: "think c", chain });
    q.enqueue({ executor: "3", enactor: "2", action: "think d", chain, delay: 0.5 });
    clock.advance(600);
    await turn(q);
    assert.deepEqual(p.ran.slice(2).map((r) => r.frame.chain?.payer), ["2", "2"]);
    await q.close();
  } finally {
    kv.close();
  }
});

Deno.test("queue: while one payer waits for the turn's end, another payer's ready entry runs; each payer's keep their order", async () => {
  const kv = await Deno.openKv(":memory:");
  const clock = new ManualClock();
  try {
    const p = parts(kv, clock);
    // The player #2 has used its slice of the turn until `turn2` resolves.
    const turn2 = Promise.withResolvers<void>();
    let waiting = true;
    turn2.promise.then(() => waiting = false);
    const q = new CommandQueue({
      ...p.deps,
      turnWait: (payer) => payer === "2" && waiting ? turn2.promise : null,
    });
    await q.start();
    q.enqueue({ executor: "3", enactor: "2", action: "think a1", chain: null });
    q.enqueue({ executor: "4", enactor: "4", action: "think b1", chain: null });
    q.enqueue({ executor: "3", enactor: "2", action: "think a2", chain: null });
    q.enqueue({ executor: "4", enactor: "4", action: "think b2", chain: null });
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
    // #4's entries did not wait behind #2's (MUX's strict order would have made them).
    assert.deepEqual(p.ran.map((r) => r.line), ["think b1", "think b2"]);
    turn2.resolve();
    await turn(q);
    assert.deepEqual(p.ran.map((r) => r.line), ["think b1", "think b2", "think a1", "think a2"]);
    await q.close();
  } finally {
    kv.close();
  }
});

Deno.test("queue: a refused semaphore count is told to the owner once a minute per semaphore", () => {
  // Before: each refused count was told, and anyone may @notify a link_ok object, so a stranger's
  // `@dolist` put a line a notify before an owner at the attribute quota.
  const box = { id: "7", name: "Box", flags: ["thing"], owner: "2" } as unknown as DbObject;
  const told: string[] = [];
  let t = 0;
  const counts = attributeCounts({
    object: (id) => id === "7" ? box : null,
    attributes: {
      live: true,
      peek: () => null,
      setNow: () => ({ message: "over the quota" }),
    },
    tell: (id, msg) => told.push(`${id}: ${msg}`),
    now: () => t,
  });
  for (let i = 0; i < 50; i++) counts.set({ object: "7", attr: "SEMAPHORE" }, 1);
  counts.set({ object: "7", attr: "N1" }, 1);
  assert.deepEqual(told, [
    "2: Box(#7) kept no semaphore count in SEMAPHORE: over the quota",
    "2: Box(#7) kept no semaphore count in N1: over the quota",
  ]);
  t = 59_999;
  counts.set({ object: "7", attr: "SEMAPHORE" }, 1);
  assert.equal(told.length, 2);
  t = 60_000;
  counts.set({ object: "7", attr: "SEMAPHORE" }, 1);
  assert.equal(told.length, 3);
});
