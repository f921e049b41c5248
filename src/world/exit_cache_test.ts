import assert from "node:assert/strict";
import { ExitCache } from "./exit_cache.ts";
import { ObjectStore } from "./objects.ts";
import type { DbObject } from "./types.ts";

function exit(id: string, location: string, name = `Exit${id}`): DbObject {
  return { id, name, flags: ["exit"], location, owner: "", data: {}, createdAt: 0, updatedAt: 0 };
}

Deno.test("exit cache: a read that overlapped a change is not stored; the map is bounded", () => {
  const cache = new ExitCache(2);
  const epoch = cache.epoch;
  cache.changed({ before: null, after: exit("5", "1") });
  const read = cache.set("1", [exit("4", "1")], epoch);
  assert.ok(Object.isFrozen(read[0]) && Object.isFrozen(read[0].data), "handed out frozen");
  assert.equal(cache.get("1"), undefined, "stale: an exit changed during the read");
  cache.set("1", [exit("4", "1")], cache.epoch);
  cache.set("2", [], cache.epoch);
  assert.ok(cache.get("1"), "used last, so 2 is now the oldest");
  cache.set("3", [], cache.epoch);
  assert.equal(cache.size, 2);
  assert.equal(cache.get("2"), undefined);
  // Moving an exit drops both rooms; changes to other objects drop nothing.
  cache.changed({ before: exit("4", "1"), after: exit("4", "3") });
  assert.equal(cache.size, 0);
  cache.set("1", [], cache.epoch);
  cache.changed({ before: null, after: { ...exit("9", "1"), flags: ["thing"] } });
  assert.ok(cache.get("1"));
});

Deno.test("objects: exitsIn follows creates, renames, moves and deletes of exits", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    for (const cacheExits of [true, false]) {
      const objects = new ObjectStore(kv, { cacheExits });
      const here = await objects.create({ name: `Here${cacheExits}`, type: "room" });
      const there = await objects.create({ name: `There${cacheExits}`, type: "room" });
      const names = async (room: string) => (await objects.exitsIn(room)).map((e) => e.name);
      assert.deepEqual(await names(here.id), []);
      const door = await objects.create({ name: "Door", type: "exit", location: here.id });
      assert.deepEqual(await names(here.id), ["Door"]);
      await objects.update(door.id, (o) => (o.name = "Gate"));
      assert.deepEqual(await names(here.id), ["Gate"]);
      await objects.update(door.id, (o) => (o.location = there.id));
      assert.deepEqual([await names(here.id), await names(there.id)], [[], ["Gate"]]);
      await objects.delete(door.id);
      assert.deepEqual(await names(there.id), []);
    }
  } finally {
    kv.close();
  }
});
