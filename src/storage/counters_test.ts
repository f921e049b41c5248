import assert from "node:assert/strict";
import { currentCount, nextCount } from "./counters.ts";

Deno.test("counters: concurrent takers get distinct consecutive numbers", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const got = await Promise.all(Array.from({ length: 25 }, () => nextCount(kv, "c")));
    assert.deepEqual([...got].sort((a, b) => a - b), Array.from({ length: 25 }, (_, i) => i + 1));
    assert.equal(await currentCount(kv, "c"), 25);
  } finally {
    kv.close();
  }
});
