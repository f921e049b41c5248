import assert from "node:assert/strict";
import { ObjectCache } from "./object_cache.ts";
import { ObjectStore } from "./objects.ts";
import { openStore } from "../storage/kv.ts";
import { keys } from "../storage/keys.ts";
import type { DbObject } from "./types.ts";

function obj(id: string, name: string): DbObject {
  return {
    id,
    name,
    flags: ["thing"],
    location: "1",
    owner: "",
    data: {},
    createdAt: 0,
    updatedAt: 0,
  };
}

Deno.test("object cache: newer versions win, late answers and tombstones are kept in order", () => {
  const c = new ObjectCache(3);
  assert.equal(c.get("5"), undefined);
  c.put("5", obj("5", "B"), "00000000000000000002");
  c.put("5", obj("5", "A"), "00000000000000000001");
  assert.equal(c.get("5")?.name, "B", "an older answer arriving late is ignored");
  c.put("5", null, "00000000000000000003");
  assert.equal(c.get("5"), null, "deleted");
  c.put("5", obj("5", "B"), "00000000000000000002");
  assert.equal(c.get("5"), null, "a read from before the delete does not bring it back");
  c.put("6", obj("6", "x"), null);
  assert.equal(c.get("6"), undefined, "no versionstamp, nothing held");
});

Deno.test("object cache: readers get copies, so changing one changes nothing held", () => {
  const c = new ObjectCache();
  const o = obj("7", "Lamp");
  c.put("7", o, "00000000000000000001");
  o.name = "changed by the writer afterwards";
  const a = c.get("7")!;
  a.flags.push("dark");
  a.data.x = 1;
  assert.deepEqual(c.get("7"), obj("7", "Lamp"));
});

Deno.test("object cache: an object holding binary data is held and copied, not refused", () => {
  // Freezing a typed array with elements throws; a record written by a tool or a plugin with
  // bytes in it must still be cached and read like any other.
  const c = new ObjectCache();
  const o = { ...obj("8", "Tape"), data: { bytes: new Uint8Array([1, 2, 3]), nested: { n: 1 } } };
  c.put("8", o, "00000000000000000001");
  const a = c.get("8")!;
  assert.deepEqual(a.data.bytes, new Uint8Array([1, 2, 3]));
  (a.data.bytes as Uint8Array)[0] = 9;
  (a.data.nested as { n: number }).n = 2;
  assert.deepEqual(c.get("8")!.data, { bytes: new Uint8Array([1, 2, 3]), nested: { n: 1 } });
});

Deno.test("object cache: bounded, least recently used dropped first", () => {
  const c = new ObjectCache(2);
  c.put("1", obj("1", "a"), "01");
  c.put("2", obj("2", "b"), "01");
  c.get("1");
  c.put("3", obj("3", "c"), "01");
  assert.equal(c.get("2"), undefined);
  assert.equal(c.get("1")?.name, "a");
  assert.equal(c.get("3")?.name, "c");
  assert.equal(c.stats().size, 2);
});

Deno.test("object store with the cache: reads come from memory after the first, writes show at once", async () => {
  const kv = await openStore(":memory:");
  try {
    const objects = new ObjectStore(kv, { cacheObjects: true });
    const lamp = await objects.create({ name: "Lamp", type: "thing", location: "1" });
    const first = await objects.get(lamp.id);
    assert.equal(first?.name, "Lamp");
    const hitsBefore = objects.cacheStats()!.hits;
    const [again] = await objects.getEach([lamp.id]);
    assert.equal(again?.name, "Lamp");
    assert.equal(objects.cacheStats()!.hits, hitsBefore + 1, "served from memory");
    // A caller that changes what it got changes nothing for the next reader.
    again!.name = "Scribbled";
    assert.equal((await objects.get(lamp.id))?.name, "Lamp");
    // Writes through the store replace the held version (with their commit's versionstamp).
    await objects.update(lamp.id, (o) => {
      o.name = "Brass Lamp";
    });
    assert.equal((await objects.get(lamp.id))?.name, "Brass Lamp");
    const stored = await kv.get<DbObject>(keys.object(lamp.id));
    assert.equal(stored.value?.name, "Brass Lamp");
    // Two updates in a row: the second checks against the held version and still commits.
    await objects.update(lamp.id, (o) => {
      o.data.lit = true;
    });
    assert.equal((await kv.get<DbObject>(keys.object(lamp.id))).value?.data.lit, true);
    assert.equal((await objects.get(lamp.id))?.data.lit, true);
    await objects.delete(lamp.id);
    assert.equal(await objects.get(lamp.id), null);
    assert.deepEqual(await objects.getEach([lamp.id, "1"]), [null, await objects.get("1")]);
  } finally {
    kv.close();
  }
});

Deno.test("object store with the cache: a stale held version makes an update retry, not lose a write", async () => {
  const kv = await openStore(":memory:");
  try {
    const objects = new ObjectStore(kv, { cacheObjects: true });
    const other = new ObjectStore(kv);
    const box = await objects.create({ name: "Box", type: "thing", location: "1" });
    await objects.get(box.id);
    // Another writer (which a single-writer engine never has, but a test can make) changes it.
    await other.update(box.id, (o) => {
      o.data.a = 1;
    });
    await objects.update(box.id, (o) => {
      o.data.b = 2;
    });
    const stored = (await kv.get<DbObject>(keys.object(box.id))).value!;
    assert.equal(stored.data.a, 1, "the other write survived");
    assert.equal(stored.data.b, 2);
    assert.deepEqual((await objects.get(box.id))?.data, { a: 1, b: 2 });
  } finally {
    kv.close();
  }
});

Deno.test("object cache: copies are what structuredClone makes, plain data or not", () => {
  const c = new ObjectCache();
  const nested = { a: [1, "two", null, undefined, true, { b: [[-0, NaN]] }], n: 10n };
  const odd: Record<string, unknown> = {
    when: new Date(5),
    map: new Map([["k", 1]]),
  };
  const proto = JSON.parse('{"__proto__": {"x": 1}}');
  const bare = Object.assign(Object.create(null), { k: "v" });
  for (const [i, data] of [nested, odd, proto, bare, { sparse: [1, , 3] }].entries()) {
    const o = { ...obj(String(i), "x"), data } as DbObject;
    c.put(o.id, o, "00000000000000000001");
    const got = c.get(o.id)!;
    assert.deepEqual(got, structuredClone(o), `case ${i}`);
    assert.ok(!Object.isFrozen(got) && !Object.isFrozen(got.data), `case ${i}: a writable copy`);
    assert.notEqual(got.data, c.get(o.id)!.data, `case ${i}: a new copy each time`);
  }
  assert.equal(
    Object.getPrototypeOf((c.get("2")!.data as { x?: unknown }).x ?? {}),
    Object.prototype,
  );
});
