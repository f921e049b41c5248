/**
 * link() and wipe() in a small world, under @link's and @wipe's rules (the engine's own are
 * exercised end to end in tests/softcode_link_wipe_test.ts): what changes, what the executor is
 * told, and that a refusal changes nothing.
 */
import assert from "node:assert/strict";
import { testSoftcode } from "./_test_world.ts";

/** A wizard (#1) in Limbo (#0); Alice, a builder, and Bob, a player; rooms of each. */
function world() {
  const t = testSoftcode();
  const alice = t.world.add("Alice", "player", { location: t.room, flags: ["builder"] });
  const bob = t.world.add("Bob", "player", { location: t.room });
  const garden = t.world.add("Garden", "room", { owner: alice });
  const hall = t.world.add("Hall", "room", { owner: bob });
  const locked = t.world.add("Vault", "room", {
    owner: bob,
    data: { locks: { link: "#1" } },
  });
  const door = t.world.add("Door", "exit", { location: t.room, owner: alice });
  const box = t.world.add("box", "thing", { location: alice, owner: alice });
  const told = (to: string) => t.world.sent.filter((m) => m.to === to).map((m) => m.msg);
  return { t, alice, bob, garden, hall, locked, door, box, told };
}

Deno.test("link(): an exit's destination, a thing's home, and what @link says", () => {
  const { t, alice, garden, hall, door, box, told } = world();
  const as = (s: string) => t.run(s, alice);
  assert.equal(as(`[link(door,#${garden})]x`), "x", "it gives nothing");
  assert.equal(t.world.objects.get(door)?.data.destination, garden);
  assert.equal(told(alice).at(-1), "Linked.");
  assert.equal(as(`[link(box,#${hall})][home(box)]`), `#${hall}`, "any room passes no link lock");
  assert.equal(told(alice).at(-1), `Home of box(#${box}) changed from Nothing to Hall(#${hall}).`);
  assert.equal(as(`[link(box,#${garden})]`), "");
  assert.equal(
    told(alice).at(-1),
    `Home of box(#${box}) changed from Hall(#${hall}) to Garden(#${garden}).`,
  );
});

Deno.test("link(): @link's refusals are told and change nothing; a non-builder is denied", () => {
  const { t, alice, bob, garden, locked, door, box, told } = world();
  const as = (s: string, who = alice) => t.run(s, who);
  const before = JSON.stringify([...t.world.objects.values()]);
  assert.equal(as(`[link(box,#${locked})]`), "");
  assert.equal(told(alice).at(-1), "Permission denied.", "the room's link lock");
  assert.equal(as(`[link(here,#${garden})]`), "");
  assert.match(told(alice).at(-1)!, /^You don't control Limbo\.$/);
  assert.equal(as(`[link(box,box)]`), "");
  assert.equal(told(alice).at(-1), `#${box} is not a room.`);
  assert.equal(as(`[link(nothing,#${garden})] [link(box,nowhere)]`), " ");
  assert.deepEqual(told(alice).slice(-2), ["I don't see that here.", "I don't see that here."]);
  assert.equal(JSON.stringify([...t.world.objects.values()]), before, "nothing changed");
  // Not a builder: MUX's check of the @link command, before anything is matched.
  assert.equal(as(`[link(#${door},#${garden})]`, bob), "#-1 PERMISSION DENIED");
  assert.equal(as(`[link(nothing,nowhere)]`, bob), "#-1 PERMISSION DENIED");
  // Staff link anything anywhere (the lock is not asked).
  assert.equal(t.run(`[link(#${box},#${locked})][home(#${box})]`), `#${locked}`);
});

Deno.test("wipe(): clears what matches, as @wipe, for whoever controls the object", () => {
  const { t, alice, bob, box, told } = world();
  for (const n of ["TEMP_A", "TEMP_B", "KEEP"]) t.world.set(box, n, "v");
  assert.equal(t.run(`[wipe(#${box}/temp_*)][lattr(#${box})]`, alice), "KEEP");
  assert.equal(told(alice).at(-1), "Wiped.");
  assert.equal(t.run(`[wipe(#${box}/nothing*)]`, alice), "");
  assert.equal(told(alice).at(-1), "No matching attributes.");
  assert.equal(t.run(`[wipe(#${box})]`, bob), "");
  assert.equal(told(bob).at(-1), "Permission denied.");
  assert.equal(t.run(`lattr(#${box})`), "KEEP", "a refusal clears nothing");
  assert.equal(t.run(`[wipe(#${box})][lattr(#${box})]`, alice), "");
  assert.equal(t.run(`[wipe(nothing)]`, alice), "");
  assert.equal(told(alice).at(-1), "I don't see that here.");
  assert.equal(t.run(`[wipe(#${box}/${"x".repeat(300)})]`, alice), "");
  assert.equal(told(alice).at(-1), "That pattern is too long.");
});

Deno.test("lock(): with a key, sets the lock as @lock does, for whoever controls the object", () => {
  const { t, alice, bob, box, told } = world();
  assert.equal(t.run(`[lock(#${box}/use,me)]`, alice), `#${alice}`, "names become dbrefs");
  assert.equal(t.world.objects.get(box)?.data.locks?.use, `#${alice}`);
  assert.equal(t.run(`[lock(#${box},*Bob|builder)]`, alice), `#${bob}|builder`);
  assert.equal(t.run(`[lock(#${box}/use,)][lock(#${box}/use)]x`, alice), "x", "empty: removed");
  assert.equal(t.world.objects.get(box)?.data.locks?.use, undefined);
  assert.equal(t.run(`[lock(#${box},nobody)]`, alice), "#-1 I DON'T UNDERSTAND THAT KEY");
  assert.equal(told(alice).at(-1), "I don't see that here. (nobody)");
  assert.equal(t.run(`[lock(#${box},#1&)]`, alice), "#-1 I DON'T UNDERSTAND THAT KEY");
  assert.equal(t.run(`[lock(#${box},me)]`, bob), "#-1 PERMISSION DENIED");
  assert.equal(t.world.objects.get(box)?.data.locks?.basic, `#${bob}|builder`, "unchanged");
  assert.equal(t.run(`[lock(#${box}/nosuch,me)]`, alice), "#-1 LOCK NOT FOUND");
});
