import assert from "node:assert/strict";
import { ConflictError, RateLimitError } from "../errors.ts";
import { memoryPluginKv } from "./testing.ts";
import { pluginQuota } from "./quota.ts";
import type { PluginKv } from "./kv.ts";

/** Writes record `id` of `owner` with the quota's raise, as a plugin's create does. */
async function add(kv: PluginKv, q: ReturnType<typeof pluginQuota>, owner: string, id: string) {
  for (let i = 0; i < 20; i++) {
    const op = kv.atomic().set(kv.key("rec", owner, id), 1);
    await q.take(op, owner);
    if ((await op.commit()).ok) return;
  }
  throw new Error("contention");
}

Deno.test("quota: counted in the commit, refused at the limit, exact under parallel takes", async () => {
  const { kv, close } = await memoryPluginKv("q");
  try {
    const config: Record<string, unknown> = { maxThings: 5 };
    const q = pluginQuota(
      {
        name: "things",
        setting: "maxThings",
        default: 2,
        message: (n) => `At most ${n} things.`,
      },
      kv,
      () => config,
    );
    assert.equal(q.limit(), 5);
    const got = await Promise.allSettled(
      Array.from({ length: 9 }, (_, i) => add(kv, q, "7", String(i))),
    );
    assert.equal(got.filter((r) => r.status === "fulfilled").length, 5);
    for (const r of got.filter((r) => r.status === "rejected")) {
      assert.ok((r as PromiseRejectedResult).reason instanceof ConflictError);
      assert.equal((r as PromiseRejectedResult).reason.message, "At most 5 things.");
    }
    assert.equal(await q.used("7"), 5);
    assert.equal((await kv.values(["rec", "7"])).length, 5);
    // Exempt: counted, not refused.
    const op = kv.atomic();
    await q.take(op, "7", { exempt: true });
    assert.ok((await op.commit()).ok);
    assert.equal(await q.used("7"), 6);
    const down = kv.atomic();
    await q.give(down, "7");
    assert.ok((await down.commit()).ok);
    assert.equal(await q.used("7"), 5);
    // The live setting: 0 is no limit; something unusable is the default.
    config.maxThings = 0;
    assert.equal(q.limit(), 0);
    await add(kv, q, "7", "x");
    config.maxThings = "lots";
    assert.equal(q.limit(), 2);
  } finally {
    close();
  }
});

Deno.test("quota: a first count comes from the seed, a daily one refuses with 429", async () => {
  const { kv, close } = await memoryPluginKv("q");
  try {
    let seeded = 0;
    const held = pluginQuota(
      {
        name: "held",
        setting: "max",
        default: 3,
        message: () => "full",
        seed: () => Promise.resolve(++seeded && 2),
      },
      kv,
      () => ({}),
    );
    assert.equal(await held.used("1"), 2);
    await add(kv, held, "1", "a");
    assert.equal(await held.used("1"), 3);
    assert.equal(seeded, 2, "the counter answers once it exists");
    await assert.rejects(() => add(kv, held, "1", "b"), ConflictError);

    let now = Date.UTC(2026, 0, 1, 23, 59);
    const daily = pluginQuota(
      {
        name: "posts",
        setting: "postsPerDay",
        default: 1,
        perDay: true,
        message: (n) => `At most ${n} a day.`,
      },
      kv,
      () => ({}),
      () => now,
    );
    const take = async (scope: string) => {
      const op = kv.atomic();
      await daily.take(op, "1", { scope });
      assert.ok((await op.commit()).ok);
    };
    await take("board1");
    await assert.rejects(() => take("board1"), RateLimitError);
    await take("board2");
    now += 60_000;
    await take("board1");
    assert.equal(await daily.used("1", "board1"), 1, "a new day starts from nothing");
    assert.throws(
      () =>
        pluginQuota(
          { name: "Bad Name", setting: "x", default: 1, message: () => "" },
          kv,
          () => ({}),
        ),
      /not a quota name/,
    );
  } finally {
    close();
  }
});
