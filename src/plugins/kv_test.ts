import assert from "node:assert/strict";
import { PluginKv } from "./kv.ts";

Deno.test("plugin kv: page walks a prefix with offset and limit, either way round", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const p = new PluginKv(kv, "t");
    for (let i = 1; i <= 30; i++) await p.set(["idx", i], i);
    await p.set(["other", 1], "not in the prefix");
    assert.deepEqual(await p.page(["idx"], { limit: 5, offset: 0 }), [1, 2, 3, 4, 5]);
    assert.deepEqual(await p.page(["idx"], { limit: 5, offset: 27 }), [28, 29, 30]);
    assert.deepEqual(await p.page(["idx"], { limit: 3, offset: 2 }, true), [28, 27, 26]);
    assert.deepEqual(await p.page(["idx"], { limit: 5, offset: 30 }), []);
    assert.deepEqual(
      await p.page(["idx"], { limit: 200, offset: Number.MAX_SAFE_INTEGER }),
      [],
    );
  } finally {
    kv.close();
  }
});
