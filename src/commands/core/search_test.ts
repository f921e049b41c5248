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
