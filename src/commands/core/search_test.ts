import assert from "node:assert/strict";
import { testWorld } from "../_test_util.ts";

Deno.test("@search: an evaluation class counts each object's function calls apart, as MUX's", async () => {
  const w = await testWorld();
  try {
    // 14 calls an object, 500 for an evaluation: together, 60 objects ran out at the 35th.
    assert.equal(w.services.config.set("softcode.functionInvocations", 500), null);
    const a = await w.player("Alice");
    const things: string[] = [];
    for (let i = 0; i < 60; i++) {
      const o = await w.services.objects.create({ name: `t${i}`, type: "thing", owner: a.obj.id });
      things.push(o.id);
    }
    const out = await w.run(a.conn, "@search ething=gt(words(iter(lnum(10),add(##,1))),0)");
    const found = out.join("\n").split("\n").filter((l) => /^t\d+/.test(l));
    assert.equal(found.length, 60, out.join("\n"));
    assert.ok(!/Searched the first/.test(out.join("\n")), out.join("\n"));
  } finally {
    await w.close();
  }
});

Deno.test("children() and the zone lists come in dbref order from the world's indexes (which keep ids as text)", async () => {
  const w = await testWorld();
  try {
    const a = await w.player("Alice", { flags: ["wizard"] });
    const zmo = await w.services.objects.create({ name: "ZMO", type: "thing", owner: a.obj.id });
    const ids: string[] = [];
    // Enough objects that their dbrefs cross from one digit to two (#9, #10: "10" < "9" as text).
    while (ids.length < 12) {
      const o = await w.services.objects.create({
        name: `t${ids.length}`,
        type: "thing",
        owner: a.obj.id,
        data: { parent: zmo.id, zone: zmo.id },
      });
      ids.push(o.id);
    }
    assert.ok(ids.some((id) => id.length === 1) && ids.some((id) => id.length === 2), ids.join());
    const want = ids.map((id) => `#${id}`).join(" ");
    assert.deepEqual(await w.run(a.conn, `think [children(#${zmo.id})]`), [want]);
    assert.deepEqual(await w.run(a.conn, `think [zthings(#${zmo.id})]`), [want]);
  } finally {
    await w.close();
  }
});
