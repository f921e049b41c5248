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

Deno.test("hub: a player's latest input and earliest connection are kept over its connections, through input, reports and closes", async () => {
  const root = await Deno.makeTempDir({ prefix: "ursamu-hub-" });
  const engine = await createEngine({
    root,
    env: { URSAMU_SERVER_DB: ":memory:", JWT_SECRET: "unit-test-secret" },
  });
  try {
    const { accounts, presence } = engine.services;
    const hub = engine.hub;
    const p = await accounts.register("Alice", "password123", { location: "1" });
    assert.equal(presence.lastInput(p.id), null);
    assert.equal(presence.connectedSince(p.id), null);
    const open = (at: number) => {
      const c = hub.connect(new FakeSession(), { kind: "web", ip: "127.0.0.1", trusted: true });
      c.connectedAt = at;
      c.lastInput = at;
      return c;
    };
    // As the set of connections says it (MUX's fetch_idle: the least idle; fetch_connect: the
    // oldest), asked after every step below.
    const expect = (note: string) => {
      const conns = presence.connections(p.id);
      assert.equal(
        presence.lastInput(p.id),
        conns.length ? Math.max(...conns.map((c) => c.lastInput)) : null,
        `idle: ${note}`,
      );
      assert.equal(
        presence.connectedSince(p.id),
        conns.length ? Math.min(...conns.map((c) => c.connectedAt)) : null,
        `conn: ${note}`,
      );
    };
    const early = open(1_000), middle = open(3_000), late = open(5_000);
    assert.ok(await hub.login(middle, p, true));
    assert.equal(presence.connectedSince(p.id), 3_000);
    assert.ok(await hub.login(early, p, true));
    assert.ok(await hub.login(late, p, true));
    // idle() counts from the most recent input on any connection, conn() from the oldest one.
    assert.equal(presence.lastInput(p.id), 5_000);
    assert.equal(presence.connectedSince(p.id), 1_000);
    early.lastInput = 9_000;
    assert.equal(presence.lastInput(p.id), 9_000);
    expect("input on the oldest");
    // A line typed through the hub writes the time of its arrival.
    const before = Date.now();
    assert.ok(middle.line("think hi"));
    assert.ok(presence.lastInput(p.id)! >= before);
    expect("a typed line");
    // A telnet client's report may move a connection's times earlier (before input of its own).
    middle.lastInput = 2_000;
    expect("the latest input moved back");
    late.connectedAt = 500;
    assert.equal(presence.connectedSince(p.id), 500);
    late.connectedAt = 6_000;
    expect("the oldest opening moved later");
    // Closing the least idle and then the oldest falls back to the others'.
    early.close();
    assert.equal(presence.lastInput(p.id), 5_000);
    assert.equal(presence.connectedSince(p.id), 3_000);
    expect("the least idle closed");
    middle.close();
    assert.equal(presence.connectedSince(p.id), 6_000);
    expect("the oldest closed");
    late.close();
    expect("all closed");
    assert.equal(presence.lastInput(p.id), null);
    // A connection written to after its close no longer moves the player's times.
    const again = open(7_000);
    assert.ok(await hub.login(again, p, true));
    late.lastInput = 99_000;
    late.connectedAt = 1;
    assert.equal(presence.lastInput(p.id), 7_000);
    assert.equal(presence.connectedSince(p.id), 7_000);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
});
