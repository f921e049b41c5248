import assert from "node:assert/strict";
import { testSoftcode } from "./_test_world.ts";
import { quotaLeft } from "../world/building.ts";

/** A world: a wizard (#1) in Limbo (#0); Alice, a builder, and Bob, a player, there too. */
function world() {
  const t = testSoftcode();
  const alice = t.world.add("Alice", "player", { location: t.room, flags: ["builder"] });
  const bob = t.world.add("Bob", "player", { location: t.room });
  const hall = t.world.add("Hall", "room", { owner: bob });
  const box = t.world.add("box", "thing", { location: bob, owner: bob });
  const told = (to: string) => t.world.sent.filter((m) => m.to === to).map((m) => m.msg);
  return { t, alice, bob, hall, box, told };
}

Deno.test("softcode create(): a thing, room or exit at once, as MUX 2.12 makes them", () => {
  const { t, alice } = world();
  const as = (s: string) => t.run(s, alice);
  const id = as("[setq(0,create(widget,10))]%q0").slice(1);
  assert.equal(
    as(`[name(#${id})] [type(#${id})] [loc(#${id})] [owner(#${id})] [member(lcon(me),#${id})]`),
    `widget THING #${alice} #${alice} 1`,
    "the rest of the evaluation sees it",
  );
  assert.equal(t.world.objects.get(id)?.data.home, t.room);
  const room = as("[create(Garden,1,r)]").slice(1);
  assert.equal(as(`[type(#${room})] [owner(#${room})] [loc(#${room})]`), `ROOM #${alice} #-1`);
  const exit = as("[create(North;n,0,E)]").slice(1);
  assert.equal(as(`[type(#${exit})] [name(#${exit})] [lexits(here)]`), `EXIT North #${exit}`);
  // Any other type letter (or none) makes a thing, as MUX does.
  assert.equal(
    as("[type(create(a,505,t))] [type(create(b,10,))] [type(create(c,10,q))]"),
    "THING THING THING",
  );
});

Deno.test("softcode create(): MUX's errors, and a refusal told to the executor changes nothing", () => {
  const { t, alice, bob, told } = world();
  const as = (s: string, who = alice) => t.run(s, who);
  const count = () => t.world.objects.size;
  const before = count();
  assert.equal(as("[create(widget)]"), "#-1 FUNCTION (CREATE) EXPECTS 2 OR 3 ARGUMENTS");
  assert.equal(
    as("[create(a,9)] [create(a,506)] [create(a,9.9)] [create(a,abc)]"),
    Array(4).fill("#-1 OUT OF RANGE").join(" "),
  );
  assert.equal(as("[create(a,10,room)]"), "#-1 SEPARATOR MUST BE ONE CHARACTER");
  assert.equal(as("[create(,10)] [create(%b,10)]"), "#-1 ILLEGAL NAME #-1");
  assert.match(told(alice).at(-1)!, /Thing name is required/);
  assert.equal(as("[create(a=b,10)]"), "#-1");
  assert.match(told(alice).at(-1)!, /must not contain '='/);
  // An exit name already taken here; a room another player owns is not Alice's to build in.
  as("[create(Out;o,0,e)]");
  assert.equal(as("[create(Way;o,0,e)]"), "#-1");
  assert.match(told(alice).at(-1)!, /already has an exit called Out/);
  t.world.objects.set(t.room, { ...t.world.objects.get(t.room)!, owner: bob });
  assert.equal(as("[create(Door,0,e)]"), "#-1");
  assert.match(told(alice).at(-1)!, /You don't control Limbo/);
  // Only builders build, as @create, @dig and @open.
  const made = count();
  assert.equal(as("[create(mine,10)]", bob), "#-1 PERMISSION DENIED");
  assert.deepEqual(told(bob), ["Permission denied."]);
  assert.equal(count(), made);
  assert.equal(made, before + 1, "only the one exit was made");
});

Deno.test("softcode create(): the object quota bounds a builder; staff have none", () => {
  const { t, alice, told } = world();
  t.world.objectQuota = 3;
  const out = t.run("[iter(lnum(10),create(thing##,10))]", alice);
  assert.equal(out.split(" ").filter((r) => r.startsWith("#") && r !== "#-1").length, 3);
  assert.equal(out.split(" ").filter((r) => r === "#-1").length, 7);
  assert.match(
    told(alice).at(-1)!,
    /^Sorry, your building contract has run out: you own 3 objects/,
  );
  assert.equal([...t.world.objects.values()].filter((o) => o.owner === alice).length, 4);
  assert.match(t.run("[create(staffthing,10)]"), /^#\d+$/);
});

Deno.test("softcode create(): a thing builds on its owner's quota, counted as the owner is", () => {
  const { t, alice, told } = world();
  t.world.objectQuota = 3;
  const maker = t.world.add("maker", "thing", {
    location: t.room,
    owner: alice,
    flags: ["builder"],
  });
  // Alice owns the maker: two more objects fill her quota of 3, whoever of hers builds them.
  const out = t.run("[iter(lnum(5),create(made##,10))]", maker);
  assert.equal(out.split(" ").filter((r) => r.startsWith("#") && r !== "#-1").length, 2, out);
  assert.equal(t.run("[create(more,10)]", alice), "#-1");
  assert.match(told(alice).at(-1)!, /you own 3 objects/);
  assert.equal([...t.world.objects.values()].filter((o) => o.owner === alice).length, 4);
});

Deno.test("quotaLeft: one rule for a player and its things (the owner is not charged)", () => {
  const { t, alice } = world();
  const me = t.world.objects.get(alice)!;
  const thing = t.world.add("maker", "thing", { location: t.room, owner: alice });
  // Alice and one thing of hers: the owner index counts 2, one of them charged to the quota.
  assert.equal(quotaLeft(me, 2, 3), 2);
  assert.equal(quotaLeft(t.world.objects.get(thing)!, 2, 3), 2);
  assert.equal(quotaLeft(me, 0, 3), 3, "an owner not in its own index is charged nothing");
  assert.equal(quotaLeft(me, 2, 0), null);
});

Deno.test("softcode tel(): staff move players and things anywhere, as @teleport", () => {
  const { t, hall, box, told } = world();
  assert.equal(t.run(`[tel(*Alice,#${hall})][loc(*Alice)]`), `#${hall}`, "seen at once");
  assert.equal(t.run(`[tel(#${box},#${hall})][loc(#${box})]`), `#${hall}`);
  assert.deepEqual(told(t.wiz), ["Teleported.", "Teleported."]);
  // A list, with /list; the quiet switch is taken.
  const cup = t.world.add("cup", "thing", { location: t.wiz });
  const pen = t.world.add("pen", "thing", { location: t.wiz });
  assert.equal(
    t.run(`[tel(cup pen,#${hall},lq)][loc(#${cup})] [loc(#${pen})]`),
    `#${hall} #${hall}`,
  );
  t.world.sent.length = 0;
  // MUX's messages, and nothing moves.
  t.run(`[tel(nosuch,#${hall})][tel(me,nosuch)][tel(me,*Bob)][tel(#${hall},here)]`);
  assert.deepEqual(told(t.wiz), [
    "I don't see that here.",
    "No match.",
    "A player cannot be teleported into a player.",
    "You can't teleport that.",
  ]);
  assert.equal(t.run(`[tel(*Alice,#${hall})]`), "");
  assert.match(told(t.wiz).at(-1)!, /Alice is already there/);
  assert.equal(t.run("[tel(me)]"), "#-1 FUNCTION (TEL) EXPECTS 2 OR 3 ARGUMENTS");
});

Deno.test("softcode tel(): players and their objects under @teleport's rules", () => {
  const { t, alice, bob, hall, box, told } = world();
  const loc = (id: string) => t.world.objects.get(id)?.location;
  // Bob moves his own box and himself into his own Hall, and is told of the box.
  assert.equal(t.run(`[tel(#${box},#${hall})][loc(#${box})]`, bob), `#${hall}`);
  assert.equal(t.run(`[tel(me,#${hall})][loc(me)]`, bob), `#${hall}`);
  assert.deepEqual(told(bob), ["Teleported."]);
  // An object of Bob's moves itself and Bob's other things to his Den (one owner controls them
  // all); not to Limbo, which it does not control.
  const den = t.world.add("Den", "room", { owner: bob });
  const wand = t.world.add("wand", "thing", { location: hall, owner: bob });
  assert.equal(t.run(`[tel(me,#${den})][tel(#${box},#${den})][tel(me,#${t.room})]`, wand), "");
  assert.deepEqual([loc(wand), loc(box)], [den, den]);
  assert.equal(t.run(`[tel(#${box},#${t.room})][loc(#${box})]`, bob), `#${den}`);
  // Alice may not move what she does not control, nor go where she does not control.
  t.world.sent.length = 0;
  assert.equal(t.run(`[tel(#${box},#${hall})][tel(me,#${hall})][loc(me)]`, alice), `#${t.room}`);
  assert.deepEqual(told(alice), ["Permission denied."], "the box; the place refuses her itself");
  assert.equal(loc(box), den);
  // A jump_ok place takes her, unless its teleport lock keeps her out.
  t.world.objects.get(hall)!.flags.push("jump_ok");
  t.world.objects.get(hall)!.data.locks = { teleport: `#${bob}` };
  assert.equal(t.run(`[tel(me,#${hall})][loc(me)]`, alice), `#${t.room}`);
  t.world.objects.get(hall)!.data.locks = {};
  assert.equal(t.run(`[tel(me,#${hall})][loc(me)]`, alice), `#${hall}`);
  // What stands in a place Bob controls is his to move: Alice, out of his Hall into his Den.
  assert.equal(t.run(`[tel(*Alice,#${den})][loc(*Alice)]`, bob), `#${den}`);
  // A telout lock keeps even its owner in; without it he goes.
  t.world.objects.get(hall)!.data.locks = { telout: `#${t.wiz}` };
  assert.equal(t.run(`[tel(me,#${den})][loc(me)]`, bob), `#${hall}`);
  t.world.objects.get(hall)!.data.locks = {};
  assert.equal(t.run(`[tel(me,#${den})][loc(me)]`, bob), `#${den}`);
  // A guest may not teleport at all, as MUX's tel() is @teleport's.
  const guest = t.world.add("Guest1", "player", { location: t.room, flags: ["guest"] });
  assert.equal(t.run(`[tel(me,#${hall})]`, guest), "#-1 PERMISSION DENIED");
  assert.equal(loc(guest), t.room);
});

Deno.test("softcode tel(): a long list stops at the evaluation's deadline", () => {
  // Before: the list was moved whole in one call: 2,000 `me`s ran 300 ms past the deadline.
  let clock = 0;
  const t = testSoftcode({ evaluationMs: 50, actorMs: 1e9, gameMs: 1e9 }, () => clock++);
  const hall = t.world.add("Hall", "room");
  const things = Array.from(
    { length: 300 },
    () => t.world.add("cup", "thing", { location: t.wiz }),
  );
  t.run(`[tel(${things.map((id) => `#${id}`).join(" ")},#${hall},l)]`);
  const moved = things.filter((id) => t.world.objects.get(id)?.location === hall).length;
  assert.ok(moved > 0 && moved < 100, `moved ${moved} of 300`);
});

Deno.test("softcode create(): a staff member's thing builds free of quota, as MUX's Free_Quota(Owner)", () => {
  const { t } = world();
  t.world.objectQuota = 2;
  // The wizard owns more than the quota already; its builder thing (not inherit) still builds.
  for (const n of ["a", "b", "c"]) t.world.add(n, "thing", { location: t.room, owner: t.wiz });
  const maker = t.world.add("maker", "thing", {
    location: t.room,
    owner: t.wiz,
    flags: ["builder"],
  });
  assert.match(t.run("[create(made,10)]", maker), /^#\d+$/);
  const wiz = t.world.objects.get(t.wiz)!;
  assert.equal(quotaLeft(t.world.objects.get(maker)!, 5, 2, wiz), null);
  assert.equal(quotaLeft(t.world.objects.get(maker)!, 5, 2), -2, "without its owner, charged");
});
