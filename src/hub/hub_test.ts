import assert from "node:assert/strict";
import { createEngine } from "../engine.ts";
import { Connection } from "./connection.ts";
import { FakeSession, idleHooks } from "./_test_session.ts";
import { rename } from "../world/names.ts";

const hooks = idleHooks();

Deno.test("hub: player cards and the room index follow the store, and reads heal what they missed", async () => {
  const root = await Deno.makeTempDir({ prefix: "ursamu-hub-" });
  const engine = await createEngine({
    root,
    env: { URSAMU_SERVER_DB: ":memory:", JWT_SECRET: "unit-test-secret" },
  });
  try {
    const { objects, accounts, presence } = engine.services;
    const hub = engine.hub;
    const yard = await objects.create({ name: "Yard", type: "room" });
    const p = await accounts.register("Alice", "password123", { location: "1" });
    // The login read the player, then (as during a connect's password check) it was renamed and
    // moved before the hub knew the player: the store's events had no card to update.
    const stale = await objects.get(p.id);
    await objects.update(p.id, (o) => {
      rename(o, "Alicia");
      o.location = yard.id;
    });
    const conn = new Connection("c1", "web", "127.0.0.1", new FakeSession(), hooks, 0);
    assert.ok(await hub.login(conn, stale!, true));
    assert.equal(presence.playerCard(p.id)?.name, "Alice");
    assert.equal(presence.roomOf(p.id), "1");

    // The next command reads its actor afresh and heals both.
    presence.refreshCard((await objects.get(p.id))!);
    assert.equal(presence.playerCard(p.id)?.name, "Alicia");
    assert.deepEqual(presence.playersIn(yard.id), [p.id]);

    // Later changes arrive by event, whoever writes them; an older read never undoes one.
    const before = (await objects.get(p.id))!;
    await objects.update(p.id, (o) => {
      o.data.moniker = "%crAlicia";
      o.flags.push("dark");
      o.location = "1";
    });
    assert.equal(presence.playerCard(p.id)?.data.moniker, "%crAlicia");
    assert.ok(presence.playerCard(p.id)?.flags.includes("dark"));
    assert.equal(presence.roomOf(p.id), "1", "moved without hub.moved");
    presence.refreshCard(before);
    assert.equal(presence.playerCard(p.id)?.data.moniker, "%crAlicia");
    assert.equal(presence.roomOf(p.id), "1");
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
});

Deno.test("hub: a player's latest input and earliest connection are read over its connections in place", async () => {
  const root = await Deno.makeTempDir({ prefix: "ursamu-hub-" });
  const engine = await createEngine({
    root,
    env: { URSAMU_SERVER_DB: ":memory:", JWT_SECRET: "unit-test-secret" },
  });
  try {
    const { accounts, presence } = engine.services;
    const p = await accounts.register("Alice", "password123", { location: "1" });
    assert.equal(presence.lastInput(p.id), null);
    assert.equal(presence.connectedSince(p.id), null);
    const early = new Connection("c1", "web", "127.0.0.1", new FakeSession(), hooks, 1_000);
    const late = new Connection("c2", "web", "127.0.0.1", new FakeSession(), hooks, 5_000);
    assert.ok(await engine.hub.login(early, p, true));
    assert.ok(await engine.hub.login(late, p, true));
    early.lastInput = 9_000;
    // idle() counts from the most recent input on any connection, conn() from the oldest one.
    assert.equal(presence.lastInput(p.id), 9_000);
    assert.equal(presence.connectedSince(p.id), 1_000);
    const conns = presence.connections(p.id);
    assert.equal(presence.lastInput(p.id), Math.max(...conns.map((c) => c.lastInput)));
    assert.equal(presence.connectedSince(p.id), Math.min(...conns.map((c) => c.connectedAt)));
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
});
