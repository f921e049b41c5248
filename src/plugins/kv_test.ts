import assert from "node:assert/strict";
import { PluginKv } from "./kv.ts";
import { GuardedKv } from "../storage/guarded_kv.ts";
import { ValidationError } from "../errors.ts";

function nested(n: number): unknown {
  let v: unknown = {};
  for (let i = 0; i < n; i++) v = { a: v };
  return v;
}

Deno.test("plugin kv: writes are checked, one unreadable record does not stop a listing", async () => {
  const guarded = new GuardedKv(await Deno.openKv(":memory:"), () => {});
  const kv = new PluginKv(guarded, "notes");
  try {
    await assert.rejects(() => kv.set(["note", "1"], nested(3000)), ValidationError);
    await assert.rejects(() => kv.set(["note", "1"], { text: "x".repeat(70_000) }), /64 KiB/);
    assert.throws(() => kv.atomic().set(kv.key("note", "1"), nested(80)), /64 levels/);
    await assert.rejects(() => kv.next("note", (_n, op) => void op.set(kv.key("x"), nested(80))));
    for (const id of ["1", "2", "3"]) await kv.set(["note", id], { id });
    // What an older engine could have written: planted past the guard.
    await guarded.raw.set(kv.key("note", "2"), nested(3000));
    assert.deepEqual(await kv.values(["note"]), [{ id: "1" }, { id: "3" }]);
    assert.equal(await kv.get(["note", "2"]), null);
  } finally {
    guarded.close();
  }
});

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
