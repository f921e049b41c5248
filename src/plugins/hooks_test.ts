import assert from "node:assert/strict";
import {
  createHooks,
  EVENT_EVENTS,
  GAME_EVENTS,
  WIKI_EVENTS,
  WORLD_EVENTS,
  worldEventsFrom,
} from "./hooks.ts";
import { ObjectStore } from "../world/objects.ts";

function quiet() {
  const logged: string[] = [];
  return { logged, hooks: createHooks((m) => logged.push(m)) };
}

Deno.test("hooks: the buses carry exactly the documented event names", () => {
  const { hooks } = quiet();
  assert.deepEqual(hooks.gameHooks.events.sort(), [
    "scene:clear",
    "scene:created",
    "scene:pose",
    "scene:set",
    "scene:title",
  ]);
  assert.deepEqual(hooks.wikiHooks.events.sort(), ["wiki:created", "wiki:deleted", "wiki:edited"]);
  assert.deepEqual(hooks.eventHooks.events.sort(), [
    "event:cancelled",
    "event:created",
    "event:deleted",
    "event:ended",
    "event:rsvp",
    "event:started",
    "event:updated",
  ]);
  assert.equal(GAME_EVENTS.length + WIKI_EVENTS.length + EVENT_EVENTS.length, 15);
  // The engine's own bus, beside the three documented ones.
  assert.deepEqual([...WORLD_EVENTS].sort(), [
    "object:destroyed",
    "player:connected",
    "player:created",
    "player:disconnected",
    "player:removed",
    "room:speech",
  ]);
});

Deno.test("hooks: handlers receive the payload and can be removed", async () => {
  const { hooks } = quiet();
  const seen: string[] = [];
  const off = hooks.eventHooks.on("event:rsvp", (p) => {
    seen.push(`${p.eventId}/${p.playerId}/${p.status}`);
  });
  await hooks.eventHooks.emit("event:rsvp", { eventId: "1", playerId: "5", status: "maybe" });
  off();
  await hooks.eventHooks.emit("event:rsvp", { eventId: "2", playerId: "5", status: "maybe" });
  assert.deepEqual(seen, ["1/5/maybe"]);
  assert.equal(hooks.eventHooks.count("event:rsvp"), 0);
});

Deno.test("hooks: a throwing or rejecting handler is logged and the others still run", async () => {
  const { hooks, logged } = quiet();
  const seen: string[] = [];
  hooks.gameHooks.on("scene:clear", () => {
    throw new Error("boom");
  });
  hooks.gameHooks.on("scene:clear", async () => {
    await Promise.resolve();
    throw new Error("async boom");
  });
  hooks.gameHooks.on("scene:clear", (p) => {
    seen.push(String(p.status));
  });
  await hooks.gameHooks.emit("scene:clear", {
    sceneId: "1",
    sceneName: "S",
    actorId: "2",
    actorName: "A",
    status: "closed",
  });
  assert.deepEqual(seen, ["closed"]);
  assert.equal(logged.length, 2);
  assert.match(logged[0], /gameHooks: handler of 'scene:clear' failed/);
});

Deno.test("hooks: unknown event names are refused at subscription", () => {
  const { hooks } = quiet();
  assert.throws(
    // deno-lint-ignore no-explicit-any
    () => (hooks.wikiHooks as any).on("wiki:exploded", () => {}),
    /unknown event 'wiki:exploded'/,
  );
});

Deno.test("hooks: a handler removed during emit does not disturb that emit", async () => {
  const { hooks } = quiet();
  const seen: number[] = [];
  const offB = hooks.wikiHooks.on("wiki:deleted", () => {
    seen.push(1);
    offB2();
  });
  const offB2 = hooks.wikiHooks.on("wiki:deleted", () => {
    seen.push(2);
  });
  await hooks.wikiHooks.emit("wiki:deleted", { path: "a/b" });
  await hooks.wikiHooks.emit("wiki:deleted", { path: "a/b" });
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
