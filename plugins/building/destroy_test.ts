import assert from "node:assert/strict";
import { startTestGame, type TestGame } from "../../src/plugins/testing.ts";
import type { DbObject } from "../../src/plugins/mod.ts";
import { Builder } from "./store.ts";
import { setOff } from "../../tests/race.ts";

/** Runs `fn` in a test game with the building plugin, its world, a Builder and a wizard. */
async function withBuilder(
  fn: (t: { w: TestGame["world"]; b: Builder; wiz: DbObject }) => Promise<void>,
): Promise<void> {
  const game = await startTestGame({ plugins: ["building"] });
  try {
    const w = game.world;
    const wiz = (await w.get((await game.player("Wiz", { flags: ["wizard"] })).id))!;
    await fn({ w, b: new Builder(w, game.deliver), wiz });
  } finally {
    await game.close();
  }
}

Deno.test("building: @destroy of more than destroyContents holds is refused and changes nothing", async () => {
  // The bound lowered to 2 through the plugin's setting (5,000 by default).
  const game = await startTestGame({
    plugins: ["building"],
    config: { plugins: { building: { destroyContents: 2 } } },
  });
  try {
    const alice = await game.player("Alice", { flags: ["wizard"] });
    const say = async (line: string) => (await game.run(alice, line)).text("Alice").trim();
    const ruin = (await say("@dig Ruin")).match(/#(\d+)/)![1];
    const far = (await say("@dig Far")).match(/#(\d+)/)![1];
    const bob = await game.player("Bob", { room: ruin });
    await game.connect(bob);
    const ids: Record<string, string> = {};
    for (const name of ["A1", "A2", "S1", "S2", "S3"]) {
      ids[name] = (await say(`@create ${name}`)).match(/#(\d+)/)![1];
    }
    await say(`@tel A1=#${ruin}`);
    await say(`@tel A2=#${ruin}`);
    const lcon = (id: string) => say(`think [words(lcon(#${id}))]`);
    assert.equal(await lcon(ruin), "3", "Bob, A1 and A2");

    // A room with a player and two things inside: refused, nothing asked, nothing moved.
    const refused = await game.run(alice, `@destroy/confirm #${ruin}`);
    assert.equal(
      refused.text("Alice").trim(),
      `Ruin(#${ruin}) holds more than 2 objects, more than @destroy sends home at once. ` +
        "Move some out first.",
    );
    assert.equal(refused.text("Bob"), "", "Bob is not sent anywhere");
    assert.equal(
      await say(`think [type(#${ruin})] [loc(*Bob)] [loc(#${ids.A1})]`),
      `ROOM #${ruin} #${ruin}`,
    );
    // destroy() is held to it too (its words come once the destroy has run).
    let told = await say(`think [destroy(#${ruin})]`);
    for (let i = 0; i < 100 && !/holds more than 2 objects/.test(told); i++) {
      await new Promise((r) => setTimeout(r, 50));
      told += (await game.received()).text("Alice");
    }
    assert.match(told, /^Ruin\(#\d+\) holds more than 2 objects/);
    assert.equal(await lcon(ruin), "3");

    // A thing holding three: refused the same way.
    await say("@create Sack");
    for (const name of ["S1", "S2", "S3"]) await say(`@tel ${name}=Sack`);
    assert.match(await say("@destroy Sack"), /^Sack\(#\d+\) holds more than 2 objects/);
    assert.equal(await say("think [words(lcon(Sack))] [type(Sack)]"), "3 THING");

    // A room that three exits lead to: refused before any is unlinked.
    for (const name of ["E1", "E2", "E3"]) await say(`@open ${name}=#${far}`);
    assert.equal(
      await say(`@destroy/confirm #${far}`),
      `More than 2 exits lead to Far(#${far}), more than @destroy unlinks at once. ` +
        "Unlink some first.",
    );
    assert.equal(await say(`think [type(#${far})] [loc(E3)]`), `ROOM #${far}`);

    // At the bound it goes through, everything inside sent home.
    await say(`@tel #${ids.A2}=#${far}`);
    const done = await game.run(alice, `@destroy/confirm #${ruin}`);
    assert.equal(
      done.text("Alice").trim(),
      `Bob has arrived.\nDestroyed Ruin(#${ruin}). 2 object(s) sent home.`,
      "Alice, at Bob's home, hears him arrive",
    );
    assert.match(done.text("Bob"), /Limbo/, "Bob is shown his home");
    assert.equal(await say(`think [type(#${ruin})] [loc(*Bob)]`), "#-1 NOT FOUND #1");
  } finally {
    await game.close();
  }
});

Deno.test("building: moves racing a destroy leave nothing inside the destroyed object", () =>
  // Before: a move that committed after the destroy read what was inside, or after its delete,
  // landed in an object that no longer existed, and the thing was lost with it.
  withBuilder(async ({ w, b, wiz }) => {
    const start = await w.startingRoom();
    const told = new Set<string>();
    let refused = 0;
    for (let round = 0; round < 40; round++) {
      const room = await b.room(wiz, `Ruin ${round}`);
      const things: DbObject[] = [];
      for (let i = 0; i < 6; i++) {
        const t = await b.thing(wiz, `T${round}x${i}`);
        things.push(await w.update(t.id, (o) => void (o.location = start)));
      }
      // Movers set off before the destroy, with it, and a few turns and milliseconds after it.
      const later = (i: number) => setOff(i < 2 ? 0 : i < 4 ? 1 : 2, (round + i) % 4);
      const moves = things.map((t, i) => later(i).then(() => b.move(t, room)));
      const destroyed = b.destroy(wiz, room, true);
      const results = await Promise.allSettled([destroyed, ...moves]);
      assert.equal(results[0].status, "fulfilled");
      for (const r of results.slice(1)) {
        if (r.status === "fulfilled") continue;
        refused++;
        told.add(String((r.reason as Error).message).replace(/#\d+/, "#N"));
      }
      assert.equal(await w.get(room.id), null);
      assert.deepEqual((await w.storedContents(room.id, 10)).map((o) => o.name), []);
      assert.deepEqual((await w.contents(room.id)).map((o) => o.name), []);
      for (const t of things) {
        const now = (await w.get(t.id))!;
        assert.ok(await w.get(now.location), `${now.name} is in #${now.location}, which exists`);
      }
    }
    // Some moves came after the delete: each was refused, saying why, and changed nothing.
    assert.ok(refused > 0, "no move came after a delete: the race was not run");
    assert.deepEqual([...told], ["#N no longer exists; nothing moved."]);
  }));

Deno.test("building: creates and links racing a destroy leave nothing in or leading to it", () =>
  // Before: an @open, @create or create() whose commit came after the destroy read what was
  // inside, or after its delete, made an object inside one that no longer existed; a @link
  // committed after the destroy read the exits leading to it left an exit leading nowhere.
  withBuilder(async ({ w, b, wiz }) => {
    const start = (await w.get(await w.startingRoom()))!;
    const told = new Set<string>();
    let refused = 0;
    for (let round = 0; round < 30; round++) {
      const room = await b.room(wiz, `Ruin ${round}`);
      const doors: DbObject[] = [];
      for (let i = 0; i < 3; i++) {
        doors.push(await b.exit(wiz, start, { name: `Door${round}x${i}`, aliases: [] }, null));
      }
      // Set off before the destroy, with it, and a few turns and milliseconds after it.
      const later = (i: number) => setOff(i % 3, (round + i) % 4);
      const made: Promise<DbObject>[] = [];
      for (let i = 0; i < 3; i++) {
        made.push(later(i).then(() => b.exit(wiz, room, { name: `Out${i}`, aliases: [] }, start)));
        made.push(
          later(i + 1).then(() =>
            w.create({ name: `Made${round}x${i}`, type: "thing", location: room.id, owner: wiz.id })
          ),
        );
      }
      const links = doors.map((d, i) => later(i + 2).then(() => b.link(wiz, d, room)));
      const destroyed = b.destroy(wiz, room, true);
      const results = await Promise.allSettled([destroyed, ...made, ...links]);
      assert.equal(
        results[0].status,
        "fulfilled",
        String((results[0] as PromiseRejectedResult).reason),
      );
      for (const r of results.slice(1)) {
        if (r.status === "fulfilled") continue;
        refused++;
        told.add(String((r.reason as Error).message).replace(/#\d+/, "#N"));
      }
      assert.equal(await w.get(room.id), null);
      assert.deepEqual((await w.storedContents(room.id, 10)).map((o) => o.name), []);
      assert.deepEqual((await w.storedExitsTo(room.id, 10)).map((o) => o.name), []);
      for (const d of doors) {
        assert.notEqual((await w.get(d.id))?.data.destination, room.id, `${d.name} leads nowhere`);
      }
      for (const r of await Promise.allSettled(made)) {
        if (r.status !== "fulfilled") continue;
        const now = await w.get(r.value.id);
        assert.ok(!now || await w.get(now.location), `${r.value.name} is in a place that exists`);
      }
    }
    // Some came after the delete: each was refused, saying why, and made or changed nothing.
    assert.ok(refused > 0, "nothing came after a delete: the race was not run");
    assert.deepEqual(
      [...told].sort(),
      ["#N no longer exists; nothing linked.", "#N no longer exists; nothing made."],
    );
  }));

Deno.test("building: @destroy of a room goes on when an exit leading to it is destroyed meanwhile", () =>
  // Before: the unlink of an exit destroyed since the destroy read it threw "No such object.",
  // and the destroy stopped after its delete with the other exits still leading to the room.
  withBuilder(async ({ w, b, wiz }) => {
    const start = (await w.get(await w.startingRoom()))!;
    let raced = 0;
    for (let round = 0; round < 20; round++) {
      const room = await b.room(wiz, `Ruin ${round}`);
      const doors: DbObject[] = [];
      for (let i = 0; i < 4; i++) {
        doors.push(await b.exit(wiz, start, { name: `Door${round}x${i}`, aliases: [] }, room));
      }
      // Set off with the room's destroy, a turn after it, and a few milliseconds after it.
      const wait = (i: number) => setOff(i, (round + i) % 3);
      const gone = doors.slice(0, 3).map((d, i) => wait(i).then(() => b.destroy(wiz, d, true)));
      const results = await Promise.allSettled([b.destroy(wiz, room, true), ...gone]);
      assert.equal(
        results[0].status,
        "fulfilled",
        String((results[0] as PromiseRejectedResult).reason),
      );
      const r = (results[0] as PromiseFulfilledResult<{ unlinked: number } | null>).value!;
      if (r.unlinked < 4) raced++;
      for (const d of doors) {
        assert.notEqual((await w.get(d.id))?.data.destination, room.id, d.name);
      }
    }
    assert.ok(raced > 0, "no exit was destroyed during a destroy: the race was not run");
  }));

Deno.test("building: @destroy goes on when a thing or its home is destroyed meanwhile", async () => {
  for (const gone of ["home", "thing"] as const) await raceHome(gone);
});

/** Destroys a room holding a thing while `gone` (its home, or itself) is destroyed too. */
async function raceHome(gone: "home" | "thing"): Promise<void> {
  const game = await startTestGame({ plugins: ["building"] });
  try {
    const w = game.world;
    const wiz = (await w.get((await game.player("Wiz", { flags: ["wizard"] })).id))!;
    const start = await w.startingRoom();
    const built = new Builder(w, game.deliver);
    const ruin = await built.room(wiz, "Ruin");
    const home = await built.room(wiz, "Home");
    const t = await built.thing(wiz, "Pot");
    await w.update(t.id, (o) => {
      o.location = ruin.id;
      o.data.home = home.id;
    });
    // The home (or the thing) is destroyed, by another @destroy, between the home's read and
    // the move home.
    let armed = true;
    const raced = {
      ...w,
      get: async (id: string) => {
        const o = await w.get(id);
        if (id === home.id && armed) {
          armed = false;
          await w.destroy(gone === "home" ? home.id : t.id);
        }
        return o;
      },
    };
    const b = new Builder(raced, game.deliver);
    assert.ok(await b.destroy(wiz, ruin, true), gone);
    assert.equal(armed, false, "the race was run");
    assert.equal(await w.get(ruin.id), null);
    if (gone === "home") assert.equal((await w.get(t.id))!.location, start);
    else assert.equal(await w.get(t.id), null);
    assert.deepEqual(await w.storedContents(ruin.id, 10), []);
  } finally {
    await game.close();
  }
}
