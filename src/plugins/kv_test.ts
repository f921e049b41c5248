import assert from "node:assert/strict";
import { GuardedKv } from "../storage/guarded_kv.ts";
import { PluginKv, UniqueConflictError } from "./kv.ts";
import { ConflictError, ValidationError } from "../errors.ts";
import { currentCount, nextCount } from "../storage/counters.ts";

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

Deno.test("plugin kv: slice walks a prefix with offset and limit, either way round", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const p = new PluginKv(kv, "t");
    for (let i = 1; i <= 30; i++) await p.set(["idx", i], i);
    await p.set(["other", 1], "not in the prefix");
    assert.deepEqual(await p.slice(["idx"], { limit: 5, offset: 0 }), [1, 2, 3, 4, 5]);
    assert.deepEqual(await p.slice(["idx"], { limit: 5, offset: 27 }), [28, 29, 30]);
    assert.deepEqual(await p.slice(["idx"], { limit: 3, offset: 2 }, true), [28, 27, 26]);
    assert.deepEqual(await p.slice(["idx"], { limit: 5, offset: 30 }), []);
    assert.deepEqual(
      await p.slice(["idx"], { limit: 200, offset: Number.MAX_SAFE_INTEGER }),
      [],
    );
  } finally {
    kv.close();
  }
});

Deno.test("plugin kv: slicePage reads one page of records through an index, skipping gone ones", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const p = new PluginKv(kv, "t");
    for (let i = 1; i <= 6; i++) {
      await p.set(["rec", i], { i });
      await p.set(["by_id", i], i);
      await p.set(["by_key", i], ["rec", i]);
    }
    await p.delete(["rec", 2]); // its index entries are left behind
    await p.set(["by_key", 7], "not a key");
    const record = (v: unknown) => ["rec", v as number];
    assert.deepEqual(await p.slicePage(["by_id"], { limit: 3, offset: 0 }, { record }), [
      { i: 1 },
      { i: 3 },
    ]);
    assert.deepEqual(await p.slicePage(["by_key"], { limit: 3, offset: 0 }, { reverse: true }), [
      { i: 6 },
      { i: 5 },
    ]);
    assert.deepEqual(await p.slicePage(["by_id"], { limit: 5, offset: 6 }, { record }), []);
  } finally {
    kv.close();
  }
});

async function space(name = "demo") {
  const kv = await Deno.openKv(":memory:");
  return { kv, p: new PluginKv(kv, name) };
}

async function keysUnder(kv: Deno.Kv, prefix: Deno.KvKey): Promise<Deno.KvKey[]> {
  const out: Deno.KvKey[] = [];
  for await (const e of kv.list({ prefix })) out.push(e.key);
  return out;
}

Deno.test("kv: basic reads and writes stay in the plugin's own space", async () => {
  const { kv, p } = await space();
  await p.set(["a", 1], { x: 1 });
  assert.deepEqual(await p.get(["a", 1]), { x: 1 });
  assert.deepEqual((await kv.get(["plugin", "demo", "a", 1])).value, { x: 1 });
  assert.equal((await p.getEntry(["a", 1])).versionstamp !== null, true);
  assert.deepEqual(await p.values(["a"]), [{ x: 1 }]);
  await p.delete(["a", 1]);
  assert.equal(await p.get(["a", 1]), null);
  kv.close();
});

Deno.test("kv: create writes the record and its indexes in one step", async () => {
  const { kv, p } = await space();
  await p.create(["board", "7"], { id: "7", name: "News" }, {
    unique: [["board_by_name", "news"]],
    index: [["board_by_owner", "#3", "7"]],
  });
  assert.deepEqual(await p.get(["board", "7"]), { id: "7", name: "News" });
  assert.deepEqual(await p.get(["board_by_name", "news"]), ["board", "7"], "a pointer, not a copy");
  assert.deepEqual(await p.get(["board_by_owner", "#3", "7"]), ["board", "7"]);
  kv.close();
});

Deno.test("kv: create refuses a taken unique index or record, naming it, and writes nothing", async () => {
  const { kv, p } = await space();
  await p.create(["board", "1"], { name: "News" }, { unique: [["board_by_name", "news"]] });
  const before = await keysUnder(kv, ["plugin", "demo"]);
  await assert.rejects(
    () =>
      p.create(["board", "2"], { name: "News" }, {
        unique: [["board_by_slug", "n"], ["board_by_name", "news"]],
        index: [["board_by_owner", "#3", "2"]],
      }),
    (e: unknown) => {
      assert.ok(e instanceof UniqueConflictError && e instanceof ConflictError);
      assert.equal(e.status, 409);
      assert.deepEqual(e.index, ["board_by_name", "news"]);
      assert.match(e.message, /unique index already exists: board_by_name\/news/);
      return true;
    },
  );
  await assert.rejects(() => p.create(["board", "1"], {}), /record already exists: board\/1/);
  assert.deepEqual(await keysUnder(kv, ["plugin", "demo"]), before);
  kv.close();
});

Deno.test("kv: of many racing creates with one unique name exactly one wins", async () => {
  const { kv, p } = await space();
  const results = await Promise.allSettled(
    Array.from(
      { length: 12 },
      (_, i) => p.create(["user", String(i)], { i }, { unique: [["by_name", "same"]] }),
    ),
  );
  const won = results.filter((r) => r.status === "fulfilled");
  assert.equal(won.length, 1);
  for (const r of results) {
    if (r.status === "rejected") assert.ok(r.reason instanceof UniqueConflictError);
  }
  const pointer = await p.get<Deno.KvKeyPart[]>(["by_name", "same"]);
  assert.ok(pointer && (await p.get(pointer)) !== null);
  assert.equal((await keysUnder(kv, ["plugin", "demo", "user"])).length, 1);
  kv.close();
});

Deno.test("kv: create adds the caller's own writes to the same commit", async () => {
  const { kv, p } = await space();
  await p.create(["post", "1"], { t: "hi" }, {
    with: (op) => op.sum(p.key("post_count"), 1n),
  });
  assert.equal((await p.get<Deno.KvU64>(["post_count"]))?.value, 1n);
  kv.close();
});

Deno.test("kv: getMany reads any number of keys in order, missing ones as null", async () => {
  const { kv, p } = await space();
  for (let i = 0; i < 25; i += 2) await p.set(["n", i], i);
  const wanted = Array.from({ length: 25 }, (_, i) => ["n", 24 - i]);
  const got = await p.getMany<number>(wanted);
  assert.equal(got.length, 25);
  assert.deepEqual(got, wanted.map(([, i]) => ((i as number) % 2 === 0 ? i : null)));
  assert.deepEqual(await p.getMany([]), []);
  kv.close();
});

Deno.test("kv: page lists through an index with a cursor, either way round", async () => {
  const { kv, p } = await space();
  for (let i = 1; i <= 7; i++) {
    const id = String(i).padStart(3, "0");
    await p.create(["note", id], { id }, { index: [["note_by_author", "#5", id]] });
  }
  await p.create(["note", "900"], { id: "900" }, { index: [["note_by_author", "#6", "900"]] });
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page: { items: { id: string }[]; cursor: string | null } = await p.page<{ id: string }>(
      ["note_by_author", "#5"],
      { limit: 3, cursor },
    );
    seen.push(...page.items.map((n) => n.id));
    cursor = page.cursor;
    pages++;
  } while (cursor);
  assert.deepEqual(seen, ["001", "002", "003", "004", "005", "006", "007"]);
  assert.equal(pages, 3);
  // A page that ends exactly at the last entry says so.
  const exact = await p.page(["note_by_author", "#5"], { limit: 7 });
  assert.equal(exact.items.length, 7);
  assert.equal(exact.cursor, null);
  const newest = await p.page<{ id: string }>(["note_by_author", "#5"], {
    limit: 2,
    reverse: true,
  });
  assert.deepEqual(newest.items.map((n) => n.id), ["007", "006"]);
  const next = await p.page<{ id: string }>(["note_by_author", "#5"], {
    limit: 2,
    reverse: true,
    cursor: newest.cursor,
  });
  assert.deepEqual(next.items.map((n) => n.id), ["005", "004"]);
  kv.close();
});

Deno.test("kv: page skips stale index entries, reads indexes of bare ids, refuses bad input", async () => {
  const { kv, p } = await space();
  await p.set(["item", "a"], { id: "a" });
  await p.set(["item", "c"], { id: "c" });
  for (const id of ["a", "b", "c"]) await p.set(["item_by_tag", "x", id], id);
  const page = await p.page<{ id: string }>(["item_by_tag", "x"], {
    record: (id) => ["item", id as string],
  });
  assert.deepEqual(page.items.map((i) => i.id), ["a", "c"]);
  assert.equal(page.cursor, null);
  await assert.rejects(() => p.page(["item_by_tag", "x"], { cursor: "not a cursor!" }), (e) => {
    assert.ok(e instanceof ValidationError);
    assert.equal(e.message, "invalid cursor");
    return true;
  });
  for (const limit of [0, -1, 1.5, NaN]) {
    await assert.rejects(() => p.page(["item_by_tag", "x"], { limit }), ValidationError);
  }
  const huge = await p.page(["item_by_tag", "x"], {
    limit: 10_000,
    record: (id) => ["item", id as string],
  });
  assert.equal(huge.items.length, 2, "a large limit is clamped, not refused");
  kv.close();
});

Deno.test("kv: deletePrefix removes everything below a prefix in batches and counts it", async () => {
  const { kv, p } = await space();
  const other = new PluginKv(kv, "other");
  const big = "k".repeat(1500); // large keys: batches must respect KV's mutation size cap
  for (let i = 0; i < 1200; i += 100) {
    const op = kv.atomic();
    for (let j = i; j < i + 100; j++) op.set(p.key("hist", "chan", j % 2 ? big : "s", j), j);
    await op.commit();
  }
  await p.set(["hist", "chanx", 1], 1);
  await p.set(["hist"], "the prefix key itself is not below it");
  await other.set(["hist", "chan", 1], 1);
  assert.equal(await p.deletePrefix(["hist", "chan"]), 1200);
  assert.equal((await keysUnder(kv, p.key("hist", "chan"))).length, 0);
  assert.equal(await p.get(["hist", "chanx", 1]), 1);
  assert.equal(await p.get(["hist"]), "the prefix key itself is not below it");
  assert.equal(await other.get(["hist", "chan", 1]), 1);
  assert.equal(await p.deletePrefix(["hist", "chan"]), 0);
  await assert.rejects(() => p.deletePrefix([]), /at least one key part/);
  kv.close();
});

Deno.test("kv: plugin and engine counters share one implementation", async () => {
  const { kv, p } = await space();
  const got = await Promise.all(Array.from({ length: 20 }, () => p.next("ticket")));
  assert.deepEqual([...got].sort((a, b) => a - b), Array.from({ length: 20 }, (_, i) => i + 1));
  // The number and the record it names commit together; false gives the number up.
  let refused = false;
  const n = await p.next("ticket", (n, op) => {
    if (!refused) {
      refused = true;
      return false;
    }
    op.set(p.key("ticket", n), { n });
  });
  assert.equal(n, 21);
  assert.deepEqual(await p.get(["ticket", 21]), { n: 21 });
  assert.equal(await p.get(["counter", "ticket"]), 21);
  // The engine's counters are separate keys with the same behaviour.
  assert.equal(await nextCount(kv, "ticket"), 1);
  assert.equal(await currentCount(kv, "ticket"), 1);
  kv.close();
});

Deno.test("plugin kv: numbers taken at once are taken in turn, none given up to contention", async () => {
  const guarded = new GuardedKv(await Deno.openKv(":memory:"), () => {});
  const kv = new PluginKv(guarded, "scenes");
  try {
    // 400 at once, each with a read in its reservation as the plugins' stores have (a quota):
    // every one retried on every other's commit, and some gave up ("too much contention").
    const taken = await Promise.all(
      Array.from({ length: 400 }, () =>
        kv.next("scene", async (n, op) => {
          await kv.get(["quota", "x"]);
          op.set(kv.key("scene", String(n)), { n });
        })),
    );
    assert.deepEqual(
      [...taken].sort((a, b) => a - b),
      Array.from({ length: 400 }, (_, i) => i + 1),
    );
  } finally {
    guarded.close();
  }
});
