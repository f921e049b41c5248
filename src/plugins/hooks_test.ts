import assert from "node:assert/strict";
import { createHooks, WORLD_EVENTS, worldEventsFrom } from "./hooks.ts";
import { ObjectStore } from "../world/objects.ts";

function quiet() {
  const logged: string[] = [];
  return { logged, hooks: createHooks((m) => logged.push(m)) };
}

/** A bus as a plugin would declare it (the names are the test's own). */
const KETTLE = ["kettle:on", "kettle:boiled", "kettle:off"];

Deno.test("hooks: the engine's world bus carries exactly the documented names, and no other bus", () => {
  const { hooks } = quiet();
  assert.deepEqual([...WORLD_EVENTS].sort(), [
    "object:destroyed",
    "player:connected",
    "player:created",
    "player:disconnected",
    "player:removed",
    "room:speech",
  ]);
  assert.deepEqual(hooks.buses.list(), [], "plugins declare every other bus");
});

Deno.test("hooks: a declared bus carries its events to handlers, which can be removed", async () => {
  const { hooks } = quiet();
  const bus = hooks.buses.declare("kitchen", KETTLE, "tea");
  const seen: string[] = [];
  const off = hooks.buses.bus("Kitchen").on("kettle:boiled", (p) => {
    seen.push(`${p.litres}`);
  });
  await bus.emit("kettle:boiled", { litres: 1 });
  off();
  await bus.emit("kettle:boiled", { litres: 2 });
  assert.deepEqual(seen, ["1"], "the name is matched without case");
  assert.equal(bus.count("kettle:boiled"), 0);
  assert.deepEqual(hooks.buses.list(), [{ name: "kitchen", owner: "tea", events: KETTLE }]);
});

Deno.test("hooks: handlers added before the owner declares the bus are kept and checked then", async () => {
  const { hooks, logged } = quiet();
  const seen: string[] = [];
  const early = hooks.buses.bus("kitchen");
  assert.equal(early.declared, false);
  early.on("kettle:on", () => void seen.push("on"));
  early.on("kettle:exploded", () => void seen.push("never"));
  assert.throws(() => early.on("bad name!", () => {}), /unknown event 'bad name!'/);
  const bus = hooks.buses.declare("kitchen", KETTLE, "tea");
  assert.equal(bus, early, "one bus");
  assert.equal(logged.length, 1);
  assert.match(logged[0], /kitchen.*'kettle:exploded' will never be called/);
  await bus.emit("kettle:on", {});
  assert.deepEqual(seen, ["on"]);
  assert.throws(() => bus.on("kettle:exploded", () => {}), /unknown event 'kettle:exploded'/);
  assert.throws(() => bus.emit("kettle:exploded", {}), /undeclared event 'kettle:exploded'/);
});

Deno.test("hooks: one owner per bus while it is loaded; the next version declares again", async () => {
  const { hooks } = quiet();
  hooks.buses.declare("kitchen", KETTLE, "tea");
  assert.throws(() => hooks.buses.declare("KITCHEN", KETTLE, "coffee"), /declared by plugin tea/);
  const seen: string[] = [];
  hooks.buses.bus("kitchen").on("kettle:on", () => void seen.push("heard"));
  assert.equal(hooks.buses.release("tea"), 1);
  const next = hooks.buses.declare("kitchen", [...KETTLE, "kettle:descaled"], "tea");
  await next.emit("kettle:on", {});
  assert.deepEqual(seen, ["heard"], "listeners outlive the owner's reload");
  assert.deepEqual(hooks.buses.list()[0].events, [...KETTLE, "kettle:descaled"]);
});

Deno.test("hooks: bad bus and event names are refused, and worldHooks is the engine's", () => {
  const { hooks } = quiet();
  assert.throws(() => hooks.buses.declare("worldHooks", ["x"], "p"), /engine's own bus/);
  assert.throws(() => hooks.buses.bus("worldhooks"), /engine's own bus/);
  assert.throws(() => hooks.buses.declare("", ["x"], "p"), /bad bus name/);
  assert.throws(() => hooks.buses.declare("a b", ["x"], "p"), /bad bus name/);
  assert.throws(() => hooks.buses.declare("ok", [], "p"), /declare 1 to 100/);
  assert.throws(() => hooks.buses.declare("ok", ["a", "a"], "p"), /declared twice/);
  assert.throws(() => hooks.buses.declare("ok", ["a b"], "p"), /bad event name 'a b'/);
  const many = Array.from({ length: 101 }, (_, i) => `e${i}`);
  assert.throws(() => hooks.buses.declare("ok", many, "p"), /declare 1 to 100/);
});

Deno.test("hooks: a throwing or rejecting handler is logged and the others still run", async () => {
  const { hooks, logged } = quiet();
  const bus = hooks.buses.declare("kitchen", KETTLE, "tea");
  const seen: string[] = [];
  bus.on("kettle:off", () => {
    throw new Error("boom");
  });
  bus.on("kettle:off", async () => {
    await Promise.resolve();
    throw new Error("async boom");
  });
  bus.on("kettle:off", (p) => {
    seen.push(String(p.why));
  });
  await bus.emit("kettle:off", { why: "done" });
  assert.deepEqual(seen, ["done"]);
  assert.equal(logged.length, 2);
  assert.match(logged[0], /kitchen: handler of 'kettle:off' failed/);
});

Deno.test("hooks: a handler removed during emit does not disturb that emit", async () => {
  const { hooks } = quiet();
  const bus = hooks.buses.declare("kitchen", KETTLE, "tea");
  const seen: number[] = [];
  const offB = bus.on("kettle:on", () => {
    seen.push(1);
    offB2();
  });
  const offB2 = bus.on("kettle:on", () => {
    seen.push(2);
  });
  await bus.emit("kettle:on", {});
  await bus.emit("kettle:on", {});
  offB();
  assert.deepEqual(seen, [1, 2, 1]);
});

Deno.test("hooks: world events follow the object store (toad, destroy) before the write returns", async () => {
  const { hooks, logged } = quiet();
  const kv = await Deno.openKv(":memory:");
  try {
    const objects = new ObjectStore(kv);
    objects.onChange(worldEventsFrom(hooks.worldHooks));
    const seen: string[] = [];
    hooks.worldHooks.on("player:removed", (p) => {
      seen.push(`removed ${p.id} ${p.name} ${p.destroyed}`);
    });
    hooks.worldHooks.on("object:destroyed", (p) => {
      seen.push(`destroyed ${p.id} ${p.name} ${p.type} in ${p.location || "-"}`);
    });
    hooks.worldHooks.on("object:destroyed", () => {
      throw new Error("a broken listener");
    });
    const created: string[] = [];
    hooks.worldHooks.on("player:created", (p) => void created.push(`${p.id} ${p.name}`));
    const room = await objects.create({ name: "Hall", type: "room" });
    const toad = await objects.create({ name: "Tod", type: "player", location: room.id });
    const gone = await objects.create({ name: "Gus", type: "player", location: room.id });
    const box = await objects.create({ name: "Box", type: "thing", location: room.id });
    await objects.update(room.id, (o) => void (o.name = "Big Hall"));
    assert.deepEqual(seen, [], "creates and plain updates say nothing");
    assert.deepEqual(created, [`${toad.id} Tod`, `${gone.id} Gus`], "only players are announced");
    await objects.update(toad.id, (o) => void (o.flags = ["thing"]));
    assert.deepEqual(seen, [`removed ${toad.id} Tod false`], "heard before update() returned");
    await objects.update(toad.id, (o) => void (o.name = "Toad"));
    await objects.delete(box.id);
    await objects.delete(gone.id);
    await objects.delete(gone.id);
    assert.deepEqual(seen, [
      `removed ${toad.id} Tod false`,
      `destroyed ${box.id} Box thing in ${room.id}`,
      `destroyed ${gone.id} Gus player in ${room.id}`,
      `removed ${gone.id} Gus true`,
    ]);
    assert.equal(logged.length, 2, "the throwing listener was logged, twice, and broke nothing");
  } finally {
    kv.close();
  }
});
