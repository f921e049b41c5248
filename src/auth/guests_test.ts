/** Guests: names, caps, what a removed guest leaves behind, and the sweep's grace. */
import assert from "node:assert/strict";
import { testWorld } from "../commands/_test_util.ts";
import { Guests } from "./guests.ts";
import { RateLimitError, ValidationError } from "../errors.ts";
import { setOff } from "../../tests/race.ts";

/** The default `game.guestGrace`, a minute. */
const GUEST_GRACE_MS = 60_000;

async function setup(config: Record<string, unknown> = {}) {
  const w = await testWorld();
  const cfg = w.services.config;
  for (const [k, v] of Object.entries({ "game.guestEnabled": true, ...config })) {
    assert.equal(cfg.set(k, v), null, k);
  }
  let now = Date.UTC(2030, 0, 1);
  const logs: string[] = [];
  const make = () =>
    new Guests({
      config: cfg,
      objects: w.services.objects,
      presence: w.hub,
      startingRoom: () => Promise.resolve("1"),
      now: () => now,
      log: (l) => logs.push(l),
    });
  return {
    w,
    guests: make(),
    make,
    logs,
    tick: (ms: number) => now += ms,
  };
}

Deno.test("guests: named <prefix><n>, flagged, passwordless; closed when guests are off", async () => {
  const t = await setup();
  try {
    const g1 = await t.guests.create("198.51.100.1");
    assert.deepEqual([g1.name, [...g1.flags].sort(), g1.location], [
      "Guest1",
      ["guest", "player"],
      "1",
    ]);
    assert.equal(await t.w.services.accounts.credentials(g1.id), null, "no password to guess");
    assert.equal(await t.w.services.accounts.authenticate("Guest1", ""), null);
    t.w.hub.connect(g1);
    // A player who took a guest's name is skipped, not replaced.
    await t.w.player("Guest2");
    assert.equal((await t.guests.create("198.51.100.2")).name, "Guest3");
    assert.ok(t.guests.isGuestWord("GUEST") && !t.guests.isGuestWord("Guest1"));
    t.w.services.config.set("game.guestEnabled", false);
    await assert.rejects(
      t.guests.create("198.51.100.3"),
      (e) => e instanceof ValidationError && /not open/.test(e.message),
    );
    t.w.services.config.set("game.guestEnabled", true);
    t.w.services.config.set("game.guestPrefix", "Visitor");
    assert.equal((await t.guests.create("198.51.100.4")).name, "Visitor1");
    assert.ok(t.guests.isGuestWord("visitor"));
    t.w.services.config.set("game.guestPrefix", "A Guest");
    await assert.rejects(
      t.guests.create("198.51.100.5"),
      (e) => e instanceof ValidationError && /not available/.test(e.message),
    );
    assert.match(t.logs.at(-1)!, /guestPrefix 'A Guest' does not make valid names/);
  } finally {
    await t.w.close();
  }
});

Deno.test("guests: at most game.maxGuests at once and game.maxGuestsPerIp per address", async () => {
  const t = await setup({ "game.maxGuests": 3, "game.maxGuestsPerIp": 2 });
  try {
    const a = await t.guests.create("198.51.100.1");
    await t.guests.create("198.51.100.1"); // made, not yet connected: it counts
    await assert.rejects(
      t.guests.create("198.51.100.1"),
      (e) => e instanceof RateLimitError && /from your address/.test(e.message),
    );
    t.w.hub.connect(a, { ip: "198.51.100.1" });
    await t.guests.create("198.51.100.2");
    await assert.rejects(
      t.guests.create("198.51.100.3"),
      (e) => e instanceof RateLimitError && /all the guest/i.test(e.message),
    );
    // Two at once from one address cannot both take the last place.
    t.w.services.config.set("game.maxGuests", 5);
    const both = await Promise.allSettled([
      t.guests.create("198.51.100.2"),
      t.guests.create("198.51.100.2"),
    ]);
    assert.deepEqual(both.map((r) => r.status).sort(), ["fulfilled", "rejected"]);
    // A guest that never connected stops counting once past the grace time.
    t.tick(GUEST_GRACE_MS);
    assert.ok(await t.guests.create("198.51.100.1"));
  } finally {
    await t.w.close();
  }
});

Deno.test("guests: a removed guest's things go home, what it owned is nobody's", async () => {
  const t = await setup();
  try {
    const o = t.w.services.objects;
    const guest = await t.guests.create("198.51.100.1");
    t.w.hub.connect(guest);
    const garden = await o.create({ name: "Garden", type: "room" });
    const lamp = await o.create({
      name: "Lamp",
      type: "thing",
      location: guest.id,
      data: { home: garden.id },
    });
    const stone = await o.create({ name: "Stone", type: "thing", location: guest.id });
    const kept = await o.create({ name: "Kept", type: "thing", location: "1", owner: guest.id });
    const player = await t.w.player("Alice");
    assert.equal(await t.guests.remove(guest.id), false, "online guests stay");
    assert.equal(await t.guests.remove(player.obj.id), false, "players are not guests");
    const toad = await o.create({ name: "Toad", type: "thing", location: "1", flags: ["guest"] });
    assert.equal(await t.guests.remove(toad.id), false, "a toaded guest is staff's thing");
    t.w.hub.disconnect(guest.id, "");
    assert.equal(await t.guests.remove(guest.id), true);
    assert.equal(await o.get(guest.id), null);
    assert.equal((await o.get(lamp.id))?.location, garden.id);
    assert.equal((await o.get(stone.id))?.location, "1", "no home: where the guest was");
    assert.equal((await o.get(kept.id))?.owner, "");
    assert.equal(await o.playerByName("Guest1"), null, "the name is free again");
    assert.ok(await o.get(player.obj.id));
    assert.match(t.logs.at(-1)!, new RegExp(`removed Guest1\\(#${guest.id}\\)`));
  } finally {
    await t.w.close();
  }
});

Deno.test("guests: things given to a guest while it is removed are not left inside it", async () => {
  // Before: a thing that moved into the guest after its contents were read and before its
  // delete stayed located in a guest that no longer existed.
  const t = await setup({ "game.maxGuestsPerIp": 0 });
  try {
    const o = t.w.services.objects;
    let refused = 0;
    for (let round = 0; round < 30; round++) {
      const guest = await t.guests.create("198.51.100.1");
      const things = [];
      for (let i = 0; i < 6; i++) {
        things.push(await o.create({ name: `T${round}x${i}`, type: "thing", location: "1" }));
      }
      // Givers set off before the removal, with it, and a few turns and milliseconds after it.
      const later = (i: number) => setOff(i < 2 ? 0 : i < 4 ? 1 : 2, (round + i) % 4);
      const gives = things.map((x, i) =>
        later(i).then(() => o.update(x.id, (y) => void (y.location = guest.id)))
      );
      const results = await Promise.allSettled([t.guests.remove(guest.id), ...gives]);
      assert.deepEqual(results[0], { status: "fulfilled", value: true });
      refused += results.filter((r) => r.status === "rejected").length;
      assert.equal(await o.get(guest.id), null);
      assert.deepEqual((await o.storedContents(guest.id, 10)).map((x) => x.name), []);
      for (const x of things) assert.equal((await o.get(x.id))?.location, "1", x.name);
    }
    assert.ok(refused > 0, "some gives came after the delete and were refused");
  } finally {
    await t.w.close();
  }
});

Deno.test("guests: the sweep waits out the grace time, from creation and from the start", async () => {
  const t = await setup();
  try {
    const o = t.w.services.objects;
    const never = await t.guests.create("198.51.100.1");
    const playing = await t.guests.create("198.51.100.2");
    t.w.hub.connect(playing);
    t.tick(GUEST_GRACE_MS - 1000);
    assert.equal(await t.guests.sweep(), 0);
    t.tick(1000);
    assert.equal(await t.guests.sweep(), 1);
    assert.equal(await o.get(never.id), null);
    assert.ok(await o.get(playing.id), "online: kept");
    // A restarted engine gives a guest left offline (a crash, say) the grace time to resume.
    t.w.hub.disconnect(playing.id, "");
    const restarted = t.make();
    assert.equal(await restarted.sweep(), 0);
    t.tick(GUEST_GRACE_MS);
    assert.equal(await restarted.sweep(), 1);
    assert.deepEqual(await o.idsWithFlag("guest"), [], "no guest record left");
  } finally {
    await t.w.close();
  }
});

Deno.test("guests: game.guestGrace sets the grace time", async () => {
  const t = await setup({ "game.guestGrace": 5 });
  try {
    const never = await t.guests.create("198.51.100.1");
    t.tick(4_999);
    assert.equal(await t.guests.sweep(), 0);
    t.tick(1);
    assert.equal(await t.guests.sweep(), 1);
    assert.equal(await t.w.services.objects.get(never.id), null);
    // Read at each sweep: a longer grace set while the game runs holds from then on.
    t.w.services.config.set("game.guestGrace", 120);
    const later = await t.guests.create("198.51.100.1");
    t.tick(GUEST_GRACE_MS);
    assert.equal(await t.guests.sweep(), 0);
    t.tick(GUEST_GRACE_MS);
    assert.equal(await t.guests.sweep(), 1);
    assert.equal(await t.w.services.objects.get(later.id), null);
  } finally {
    await t.w.close();
  }
});

Deno.test("guests: a name held by a guest nobody plays is taken back", async () => {
  const t = await setup();
  try {
    const old = await t.guests.create("198.51.100.1");
    const fresh = t.make();
    assert.equal((await fresh.create("198.51.100.1")).name, "Guest2", "Guest1 may still resume");
    t.tick(GUEST_GRACE_MS);
    const again = await fresh.create("198.51.100.1");
    assert.equal(again.name, "Guest1");
    assert.notEqual(again.id, old.id);
    assert.equal(await t.w.services.objects.get(old.id), null);
  } finally {
    await t.w.close();
  }
});
