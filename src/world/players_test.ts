import assert from "node:assert/strict";
import { ObjectStore } from "./objects.ts";
import { MAX_NAMES, Players } from "./players.ts";
import { rename } from "./names.ts";
import { keys } from "../storage/keys.ts";
import { GuardedKv } from "../storage/guarded_kv.ts";
import { ConflictError, ValidationError } from "../errors.ts";

/** A store with a room, Alice (#2), Bob (#3) and a thing (#4); `online` says who is connected. */
async function world() {
  const kv = await Deno.openKv(":memory:");
  const objects = new ObjectStore(kv);
  const online = new Set<string>();
  let reads = 0;
  const counting = new Proxy(kv, {
    get(target, prop) {
      const v = Reflect.get(target, prop);
      if (prop === "get" || prop === "getMany") reads++;
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  const players = new Players(new ObjectStore(counting), {
    isOnline: (id) => online.has(id),
    onlinePlayers: () => [...online],
  });
  const room = await objects.create({ name: "Hall", type: "room" });
  const alice = await objects.create({ name: "Alice", type: "player", location: room.id });
  const bob = await objects.create({ name: "Bob", type: "player", location: room.id });
  const lamp = await objects.create({ name: "Lamp", type: "thing", location: room.id });
  return {
    kv,
    objects,
    players,
    online,
    alice,
    bob,
    lamp,
    reads: () => reads,
    resetReads: () => void (reads = 0),
  };
}

Deno.test("players: find by name, *name, #dbref, bare dbref and me, case-insensitively", async () => {
  const w = await world();
  try {
    assert.equal((await w.players.find("alice"))?.id, w.alice.id);
    assert.equal((await w.players.find("*BOB"))?.id, w.bob.id);
    assert.equal((await w.players.find(`#${w.bob.id}`))?.id, w.bob.id);
    assert.equal((await w.players.find(w.bob.id))?.id, w.bob.id);
    assert.equal((await w.players.find("me", w.alice))?.id, w.alice.id);
    assert.equal(await w.players.find("me"), null, "me needs an actor");
    assert.equal(await w.players.find(`#${w.lamp.id}`), null, "a thing is not a player");
    assert.equal(await w.players.find("Lamp"), null);
    assert.equal(await w.players.find("nobody"), null);
    assert.equal(await w.players.find("x".repeat(500)), null);
    assert.equal(await w.players.find("#99"), null);
  } finally {
    w.kv.close();
  }
});

Deno.test("players: aliases are found like names, and are unique across names and aliases", async () => {
  const w = await world();
  try {
    await w.players.setAliases(w.bob.id, ["Rob", "Bobby"]);
    assert.equal((await w.players.find("rob"))?.id, w.bob.id);
    assert.equal((await w.players.find("*BOBBY"))?.id, w.bob.id);
    assert.deepEqual(await w.kv.get(keys.playerByAlias("rob")).then((e) => e.value), w.bob.id);
    // Another player's alias, another player's name, and a new player's name are all refused.
    await assert.rejects(() => w.players.setAliases(w.alice.id, ["rob"]), ConflictError);
    await assert.rejects(() => w.players.setAliases(w.alice.id, ["BOB"]), ConflictError);
    await assert.rejects(
      () => w.objects.create({ name: "Bobby", type: "player" }),
      /already taken/,
    );
    await assert.rejects(
      () => w.objects.update(w.alice.id, (o) => rename(o, "Rob")),
      ConflictError,
    );
    // Replacing the list frees the aliases no longer in it.
    await w.players.setAliases(w.bob.id, ["Robert"]);
    assert.equal(await w.players.find("rob"), null);
    assert.equal((await w.kv.get(keys.playerByAlias("bobby"))).value, null);
    await w.players.setAliases(w.alice.id, ["Rob"]);
    assert.equal((await w.players.find("rob"))?.id, w.alice.id);
  } finally {
    w.kv.close();
  }
});

Deno.test("players: invalid alias lists are refused with a reason", async () => {
  const w = await world();
  try {
    const refused = async (list: string[], re: RegExp) =>
      await assert.rejects(() => w.players.setAliases(w.bob.id, list), (e: Error) => {
        assert.ok(e instanceof ValidationError, e.message);
        assert.match(e.message, re);
        return true;
      });
    await refused(["a b"], /won't do as an alias/);
    await refused(["9lives"], /won't do as an alias/);
    await refused(["me"], /reserved/);
    await refused(["Bob"], /differ from the player's name/);
    await refused(["Rob", "rob"], /listed twice/);
    await refused(["Aa", "Bb", "Cc", "Dd"], /at most 3/);
    await assert.rejects(() => w.players.setAliases(w.lamp.id, ["Lampy"]), /Only players/);
    assert.deepEqual(w.players.aliasesOf((await w.objects.get(w.bob.id))!), []);
  } finally {
    w.kv.close();
  }
});

Deno.test("players: aliases leave the index on clear, rename, toad and destroy", async () => {
  const w = await world();
  const held = async (a: string) => (await w.kv.get(keys.playerByAlias(a))).value;
  try {
    await w.players.setAliases(w.bob.id, ["Rob", "Bobby"]);
    await w.players.setAliases(w.bob.id, []);
    assert.equal(await held("rob"), null);
    assert.equal((await w.objects.get(w.bob.id))!.data.aliases, undefined);

    // Renamed onto its own alias: the word is now its name, no longer an alias.
    await w.players.setAliases(w.bob.id, ["Rob", "Bobby"]);
    const renamed = await w.objects.update(w.bob.id, (o) => rename(o, "Rob"));
    assert.deepEqual(renamed.data.aliases, ["Bobby"]);
    assert.equal(await held("rob"), null);
    assert.equal((await w.kv.get(keys.playerByName("rob"))).value, w.bob.id);
    assert.equal((await w.kv.get(keys.playerByName("bob"))).value, null);

    // Toaded: no longer a player, so its alias is free.
    await w.objects.update(w.bob.id, (o) => {
      o.flags = o.flags.filter((f) => f !== "player").concat("thing");
    });
    assert.equal(await held("bobby"), null);
    assert.equal(await w.players.find("bobby"), null);

    await w.players.setAliases(w.alice.id, ["Ally"]);
    await w.objects.delete(w.alice.id);
    assert.equal(await held("ally"), null);
  } finally {
    w.kv.close();
  }
});

Deno.test("players: @repair gives back a player's aliases from the index", async () => {
  const kv = new GuardedKv(await Deno.openKv(":memory:"));
  try {
    const objects = new ObjectStore(kv);
    const players = new Players(objects, { isOnline: () => false, onlinePlayers: () => [] });
    const bob = await objects.create({ name: "Bob", type: "player" });
    await players.setAliases(bob.id, ["Rob"]);
    let v: Record<string, unknown> = {};
    for (let i = 0; i < 3000; i++) v = { a: v };
    await kv.raw.set(keys.object(bob.id), { ...bob, data: { state: v } });
    const repaired = await objects.repair(bob.id);
    assert.deepEqual(repaired?.data.aliases, ["rob"]);
    assert.equal((await players.find("rob"))?.id, bob.id);
    assert.equal((await players.find("bob"))?.id, bob.id);
  } finally {
    kv.close();
  }
});

Deno.test("players: findMany resolves a list in batched reads and names the unknown", async () => {
  const w = await world();
  try {
    await w.players.setAliases(w.bob.id, ["Rob"]);
    w.resetReads();
    const r = await w.players.findMany("alice, rob  nobody,#3 *ALICE Lamp", w.alice);
    assert.deepEqual(r.found.map((p) => p.name), ["Alice", "Bob"]);
    assert.deepEqual(r.unknown, ["nobody", "Lamp"]);
    assert.deepEqual(r.each.map((p) => p?.name ?? null), [
      "Alice",
      "Bob",
      null,
      "Bob",
      "Alice",
      null,
    ]);
    // One batch of index reads (four words, eight keys: one getMany), one of objects.
    assert.equal(w.reads(), 2);
    assert.deepEqual(await w.players.findMany([]), { found: [], unknown: [], each: [] });
    await assert.rejects(
      () => w.players.findMany(Array(MAX_NAMES + 1).fill("alice")),
      ValidationError,
    );
  } finally {
    w.kv.close();
  }
});

Deno.test("players: isConnected and online from the hub's memory, displayName with the moniker", async () => {
  const w = await world();
  try {
    w.online.add(w.bob.id);
    w.resetReads();
    assert.equal(w.players.isConnected(w.bob.id), true);
    assert.equal(w.players.isConnected(w.alice.id), false);
    assert.deepEqual(w.players.online(), [w.bob.id]);
    assert.equal(w.reads(), 0);
    assert.equal(w.players.displayName(w.alice), "Alice");
    assert.equal(
      w.players.displayName({ name: "Bob", data: { moniker: "%crBob%cn" } }),
      "%crBob%cn",
    );
  } finally {
    w.kv.close();
  }
});
