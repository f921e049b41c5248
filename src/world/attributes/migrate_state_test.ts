import assert from "node:assert/strict";
import { stateToAttributes } from "./migrate_state.ts";
import { ATTR_ENTRY_BYTES } from "./names.ts";
import { ObjectStore } from "../objects.ts";
import { openStore } from "../../storage/kv.ts";
import { keys } from "../../storage/keys.ts";
import type { StoredAttribute } from "./types.ts";

Deno.test("layout 2: data.state keys become attributes, once, never over one that exists", async () => {
  const kv = await openStore(":memory:");
  try {
    const objects = new ObjectStore(kv);
    const alice = await objects.create({
      name: "Alice",
      type: "player",
      data: {
        state: {
          "finger.quote": "Hi.",
          level: 3,
          tags: ["a", "b"],
          "1st": "no name",
          desc: "a field name",
          Mood: "first",
          MOOD: "second",
          empty: "",
          long: "x".repeat(8001),
        },
      },
    });
    const box = await objects.create({
      name: "Box",
      type: "thing",
      owner: alice.id,
      data: { state: { note: "n", kept: "from state" } },
    });
    await kv.set(keys.attribute(box.id, "KEPT"), { value: "set since", owner: alice.id });
    await objects.create({ name: "Plain", type: "thing" });
    const lines: string[] = [];
    const first = await stateToAttributes(kv, (l) => lines.push(l));
    assert.deepEqual(first, { objects: 2, attributes: 5, skipped: 6 });
    const get = async (id: string, n: string) =>
      (await kv.get<StoredAttribute>(keys.attribute(id, n))).value;
    assert.deepEqual(await get(alice.id, "FINGER.QUOTE"), { value: "Hi.", owner: alice.id });
    assert.deepEqual(await get(alice.id, "LEVEL"), { value: "3", owner: alice.id });
    assert.deepEqual(await get(alice.id, "TAGS"), { value: '["a","b"]', owner: alice.id });
    assert.deepEqual(await get(alice.id, "MOOD"), { value: "first", owner: alice.id });
    assert.equal(await get(alice.id, "DESC"), null, "DESC is the description field");
    assert.deepEqual(await get(box.id, "NOTE"), { value: "n", owner: alice.id });
    assert.deepEqual(await get(box.id, "KEPT"), { value: "set since", owner: alice.id });
    const bytes = (await kv.get<Deno.KvU64>(keys.attributeBytes(alice.id))).value!.value;
    assert.equal(bytes, BigInt(5 * ATTR_ENTRY_BYTES + 12 + 3 + 5 + 1 + 4 + 9 + 4 + 5 + 4 + 1));
    assert.match(lines[0], /5 attribute\(s\) of 2 object\(s\) made from data\.state \(6 key/);
    // data.state is left as it was.
    assert.equal((await objects.get(alice.id))?.data.state?.level, 3);
    // A second run changes nothing.
    const second = await stateToAttributes(kv);
    assert.equal(second.attributes, 0);
    assert.equal((await kv.get<Deno.KvU64>(keys.attributeBytes(alice.id))).value!.value, bytes);
  } finally {
    kv.close();
  }
});
