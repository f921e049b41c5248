import assert from "node:assert/strict";
import { GuardedKv } from "./guarded_kv.ts";
import { decodeKey, encodeKey, fromCursor, keyText } from "./key_codec.ts";
import { ValidationError } from "../errors.ts";
import { MAX_VALUE_BYTES } from "./limits.ts";

/** An object nested `n` levels deep: past about 2,700 levels KV cannot read it back. */
function nested(n: number): unknown {
  let v: unknown = {};
  for (let i = 0; i < n; i++) v = { a: v };
  return v;
}

async function guarded(): Promise<{ kv: GuardedKv; reported: string[] }> {
  const reported: string[] = [];
  const kv = new GuardedKv(await Deno.openKv(":memory:"), (k) => reported.push(keyText(k)));
  return { kv, reported };
}

async function keysOf(it: Deno.KvListIterator<unknown>): Promise<string[]> {
  const out: string[] = [];
  for await (const e of it) out.push(keyText(e.key));
  return out;
}

Deno.test("key codec: matches the cursors KV hands out, and decodes back", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const parts: Deno.KvKeyPart[] = [
      "",
      "a\u0000b",
      "é",
      new Uint8Array([0, 1, 255]),
      0,
      -2.5,
      1.5,
      Infinity,
      0n,
      -300n,
      300n,
      2n ** 80n,
      -(2n ** 80n),
      false,
      true,
    ];
    for (const p of parts) await kv.set(["p", p, "z"], 1);
    const cp = encodeKey(["p"]);
    const it = kv.list({ prefix: ["p"] }, { batchSize: 1 });
    let n = 0;
    for await (const e of it) {
      const enc = encodeKey(e.key);
      assert.deepEqual([...enc.subarray(cp.length)], [...fromCursor(it.cursor)], keyText(e.key));
      assert.equal(keyText(decodeKey(enc)!), keyText(e.key));
      n++;
    }
    assert.equal(n, parts.length);
  } finally {
    kv.close();
  }
});

Deno.test("guarded kv: an unreadable value is planted by raw KV (the hole), but refused by the guard", async () => {
  const { kv } = await guarded();
  try {
    // Plain Deno KV accepts it and then cannot read it back.
    await kv.raw.set(["x"], nested(3000));
    await assert.rejects(() => kv.raw.get(["x"]), /deserialize/);
    assert.equal(await kv.isUnreadable(["x"]), true);
    await assert.rejects(() => kv.set(["y"], nested(3000)), ValidationError);
    await assert.rejects(
      async () => await kv.atomic().set(["y"], nested(100)).commit(),
      /nested more than 64 levels/,
    );
    await assert.rejects(
      () => kv.set(["y"], { s: "x".repeat(MAX_VALUE_BYTES) }),
      /65536 bytes \(64 KiB\)/,
    );
    assert.equal((await kv.get(["y"])).value, null);
    await kv.set(["y"], { s: "x".repeat(60_000) });
  } finally {
    kv.close();
  }
});

Deno.test("guarded kv: get and getMany answer an unreadable value as missing, logged once", async () => {
  const { kv, reported } = await guarded();
  try {
    await kv.set(["a"], 1);
    await kv.raw.set(["b"], nested(3000));
    await kv.set(["c"], 3);
    assert.equal((await kv.get(["b"])).value, null);
    const many = await kv.getMany([["a"], ["b"], ["c"]]);
    assert.deepEqual(many.map((e) => e.value), [1, null, 3]);
    assert.deepEqual(reported, ['["b"]']);
  } finally {
    kv.close();
  }
});

Deno.test("guarded kv: lists skip unreadable entries, alone or side by side, both ways", async () => {
  const { kv, reported } = await guarded();
  try {
    for (let i = 0; i < 30; i++) await kv.set(["p", i], i);
    for (const bad of [0, 7, 8, 20, 29]) await kv.raw.set(["p", bad], nested(3000));
    await kv.raw.set(["p", 8, "deeper"], nested(3000));
    await kv.set(["q", "after"], 1);
    const good = Array.from({ length: 30 }, (_, i) => i).filter((i) =>
      ![0, 7, 8, 20, 29].includes(i)
    ).map((i) => `["p",${i}]`);
    assert.deepEqual(await keysOf(kv.list({ prefix: ["p"] })), good);
    assert.deepEqual(
      await keysOf(kv.list({ prefix: ["p"] }, { reverse: true })),
      [...good].reverse(),
    );
    assert.deepEqual(await keysOf(kv.list({ prefix: ["p"] }, { limit: 4 })), good.slice(0, 4));
    assert.deepEqual(
      await keysOf(kv.list({ start: ["p", 5], end: ["p", 22] })),
      good.filter((k) => Number(k.slice(5, -1)) >= 5 && Number(k.slice(5, -1)) < 22),
    );
    assert.deepEqual(
      new Set(reported),
      new Set(['["p",0]', '["p",7]', '["p",8]', '["p",8,"deeper"]', '["p",20]', '["p",29]']),
    );
  } finally {
    kv.close();
  }
});

Deno.test("guarded kv: a list resumed from a cursor keeps skipping from there", async () => {
  const { kv } = await guarded();
  try {
    for (let i = 0; i < 10; i++) await kv.set(["p", `k${i}`], i);
    await kv.raw.set(["p", "k6"], nested(3000));
    const first = kv.list({ prefix: ["p"] }, { limit: 3 });
    assert.deepEqual(await keysOf(first), ['["p","k0"]', '["p","k1"]', '["p","k2"]']);
    const rest = await keysOf(kv.list({ prefix: ["p"] }, { cursor: first.cursor }));
    assert.deepEqual(rest, ["k3", "k4", "k5", "k7", "k8", "k9"].map((k) => `["p","${k}"]`));
  } finally {
    kv.close();
  }
});

Deno.test("guarded kv: a key longer than KV holds reads as missing and writes as a 400", async () => {
  const { kv } = await guarded();
  try {
    const long = ["note", "漢".repeat(1000)];
    await kv.set(["note", "1"], 1);
    assert.equal((await kv.get(long)).value, null);
    const many = await kv.getMany([["note", "1"], long]);
    assert.deepEqual(many.map((e) => e.value), [1, null]);
    assert.deepEqual(await keysOf(kv.list({ prefix: long })), []);
    await kv.delete(long);
    await assert.rejects(() => kv.set(long, 1), ValidationError);
    await assert.rejects(
      () => kv.atomic().check({ key: long, versionstamp: null }).set(long, 1).commit(),
      /too long to store/,
    );
    assert.equal((await kv.get(["note", "1"])).value, 1);
  } finally {
    kv.close();
  }
});
