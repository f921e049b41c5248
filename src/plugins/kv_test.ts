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
