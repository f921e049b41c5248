import assert from "node:assert/strict";
import { createHooks, EVENT_EVENTS, GAME_EVENTS, WIKI_EVENTS } from "./hooks.ts";

function quiet() {
  const logged: string[] = [];
  return { logged, hooks: createHooks((m) => logged.push(m)) };
}

Deno.test("hooks: the buses carry exactly the SPEC event names", () => {
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
    seen.push(p.status);
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
