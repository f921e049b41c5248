import assert from "node:assert/strict";
import { WatchedValue } from "./watched.ts";

Deno.test("WatchedValue: read at start, then follows every write, until stopped", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    await kv.set(["k"], "one");
    const w = new WatchedValue<string>(kv, ["k"]);
    await w.start();
    assert.equal(w.value, "one");
    const seen = async (want: string | null) => {
      for (let i = 0; i < 100 && w.value !== want; i++) await new Promise((r) => setTimeout(r, 10));
      assert.equal(w.value, want);
    };
    await kv.set(["k"], "two");
    await seen("two");
    await kv.delete(["k"]);
    await seen(null);
    await w.stop();
    await kv.set(["k"], "three");
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(w.value, null, "no longer followed");
  } finally {
    kv.close();
  }
});

Deno.test("WatchedValue: its own write is read at once, before the watch brings it", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const w = new WatchedValue<string>(kv, ["k"]);
    await w.start();
    // Read with no await between: the watch's event cannot have come in yet.
    await w.set("poll?");
    assert.equal(w.value, "poll?");
    assert.equal((await kv.get<string>(["k"])).value, "poll?", "written to the store");
    await w.set(null);
    assert.equal(w.value, null);
    assert.equal((await kv.get<string>(["k"])).value, null, "deleted from the store");
    await w.stop();
  } finally {
    kv.close();
  }
});

Deno.test("WatchedValue: of two writes in quick succession the second wins, in memory and in the store, and stays", async () => {
  // Before: the watch's event for the first write could come in after the second write was
  // held, and put the first value back in memory until the watch brought the second.
  const kv = await Deno.openKv(":memory:");
  try {
    const w = new WatchedValue<string>(kv, ["k"]);
    await w.start();
    for (let round = 0; round < 50; round++) {
      const first = `first ${round}`, second = round % 5 === 4 ? null : `second ${round}`;
      // Not awaited between: the second is asked for while the first is under way.
      const a = w.set(first), b = w.set(second);
      await b;
      assert.equal(w.value, second, `round ${round}: once the second write is done`);
      await a;
      // Every event the watch has for them comes in within a few turns; none may bring the
      // first value back.
      for (let i = 0; i < 20; i++) {
        await new Promise((r) => setTimeout(r, 1));
        assert.equal(w.value, second, `round ${round}, turn ${i}`);
      }
      assert.equal((await kv.get<string>(["k"])).value, second, `round ${round}: the store`);
    }
    await w.stop();
  } finally {
    kv.close();
  }
});
