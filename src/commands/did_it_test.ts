import assert from "node:assert/strict";
import { testWorld } from "./_test_util.ts";

/** A test world where Alice, a builder, owns Limbo, a Garden and an exit North from Limbo to it. */
async function aliceBuilds() {
  const w = await testWorld();
  const s = w.services;
  const a = await w.player("Alice", { flags: ["player", "builder"] });
  const garden = await s.objects.create({ name: "Garden", type: "room", owner: a.obj.id });
  const exit = await s.objects.create({
    name: "North;n",
    type: "exit",
    location: "1",
    owner: a.obj.id,
    data: { destination: garden.id },
  });
  await s.objects.update("1", (o) => {
    o.owner = a.obj.id;
  });
  /** Alice runs a line that answers "Set.". */
  const set = async (line: string) => assert.deepEqual(await w.run(a.conn, line), ["Set."]);
  return { w, s, a, garden, exit, set };
}

Deno.test("actions: look evaluates descriptions and tells the others @odesc and @osucc", async () => {
  const w = await testWorld();
  try {
    const s = w.services;
    const a = await w.player("Alice", { flags: ["player", "builder"] });
    const b = await w.player("Bob");
    await s.objects.create({
      name: "Box",
      type: "thing",
      location: "1",
      owner: a.obj.id,
    });
    await w.run(a.conn, `@desc box=Made by [name(owner(me))] for %n.`);
    await w.run(a.conn, "@odesc box=looks at [name(me)].");
    w.hub.clear();
    assert.match((await w.run(a.conn, "look box")).join("\n"), /Made by Alice for Alice\./);
    assert.equal(w.hub.last(b.obj.id)?.msg, "Alice looks at Box.");
    assert.match((await w.run(b.conn, "look box")).join("\n"), /Made by Alice for Bob\./);
    assert.equal(w.hub.last(a.obj.id)?.msg, "Bob looks at Box.");
    // no_name leaves the name out; an @odesc that gives nothing says nothing.
    await w.run(a.conn, "@set box/odesc=no_name");
    await w.run(b.conn, "look box");
    assert.equal(w.hub.last(a.obj.id)?.msg, "looks at Box.");
    await w.run(a.conn, "@odesc box=[null(x)]");
    w.hub.clear();
    await w.run(b.conn, "look box");
    assert.deepEqual(w.hub.texts(a.obj.id), []);

    // The room: its description evaluated, @succ shown after it by the room's lock, else @fail.
    await s.objects.update("1", (o) => {
      o.owner = a.obj.id;
    });
    await w.run(a.conn, "@desc here=A [lcstr(DARK)] place.");
    await w.run(a.conn, "@succ here=You feel welcome, %n.");
    await w.run(a.conn, "@osucc here=settles in.");
    await w.run(a.conn, "@fail here=You feel watched.");
    const look = (await w.run(b.conn, "look")).join("\n");
    assert.match(look, /A dark place\.\nYou feel welcome, Bob\./);
    assert.equal(w.hub.last(b.obj.id)?.data?.description, "A dark place.");
    assert.equal(w.hub.last(a.obj.id)?.msg, "Bob settles in.");
    await s.objects.update("1", (o) => {
      o.data.locks = { basic: `#${a.obj.id}` };
    });
    assert.match((await w.run(b.conn, "look")).join("\n"), /You feel watched\./);
    assert.deepEqual(await w.run(a.conn, "@fail here"), ["Cleared."]);
    assert.doesNotMatch((await w.run(b.conn, "look")).join("\n"), /watched/);
  } finally {
    await w.close();
  }
});

Deno.test("actions: exits' @succ, @fail and @drop families, rooms' @leave and @enter", async () => {
  const { w, s, a, garden, exit, set } = await aliceBuilds();
  try {
    const bob = await w.player("Bob", { location: garden.id });
    const carol = await w.player("Carol");
    await set("@succ north=You walk north, [name(%#)].");
    await set("@osucc north=heads north.");
    await set("@drop north=You arrive through [name(me)].");
    await set("@odrop north=comes in from the south.");
    await set("@leave here=You leave Limbo.");
    await set("@oleave here=slips out.");
    await set(`@oxenter #${garden.id}=is off to the garden.`);
    await set(`@enter #${garden.id}=Welcome to the garden.`);
    await set(`@oenter #${garden.id}=steps onto the lawn.`);
    await set("@oxleave here=left Limbo for here.");
    await set("@move me=You moved.");
    await set("@omove me=moved in.");
    w.hub.clear();
    const got = await w.run(a.conn, "n");
    assert.equal(got[0], "You walk north, Alice.");
    assert.equal(got[1], "You leave Limbo.");
    assert.match(got[2], /^%chGarden/);
    assert.deepEqual(got.slice(3), [
      "You arrive through North.",
      "You moved.",
      "Welcome to the garden.",
    ]);
    assert.deepEqual(w.hub.texts(carol.obj.id), [
      "Alice heads north.",
      "Alice slips out.",
      "Alice is off to the garden.",
      "Alice has left.",
    ]);
    assert.deepEqual(w.hub.texts(bob.obj.id), [
      "Alice comes in from the south.",
      "Alice moved in.",
      "Alice steps onto the lawn.",
      "Alice left Limbo for here.",
      "Alice has arrived.",
    ]);

    // A locked exit: its @fail to the actor, @ofail to the others; nobody moves.
    await s.objects.update(exit.id, (o) => {
      o.data.locks = { basic: "#0" };
    });
    await w.run(carol.conn, "home");
    w.hub.clear();
    await set(`@fail #${exit.id}=The hedge is too thick, %n.`);
    await set(`@ofail #${exit.id}=bumps into the hedge.`);
    assert.deepEqual(await w.run(carol.conn, "n"), ["The hedge is too thick, Carol."]);
    assert.equal(w.hub.last(carol.obj.id)?.data?.wrongDir, "n");
    assert.equal((await s.objects.get(carol.obj.id))?.location, "1");
  } finally {
    await w.close();
  }
});

Deno.test("actions: get and drop take the thing's @succ, @fail and @drop families", async () => {
  const w = await testWorld();
  try {
    const s = w.services;
    const a = await w.player("Alice", { flags: ["player", "builder"] });
    const b = await w.player("Bob");
    const gem = await s.objects.create({
      name: "Gem",
      type: "thing",
      location: "1",
      owner: a.obj.id,
    });
    const set = async (line: string) => assert.deepEqual(await w.run(a.conn, line), ["Set."]);
    await set("@succ gem=It glitters in your hand, %n.");
    await set("@osucc gem=pockets [name(me)].");
    await set("@drop gem=It clatters down.");
    await set("@odrop gem=lets [name(me)] fall.");
    await set("@fail gem=Too heavy for [name(%#)].");
    await set("@ofail gem=strains at the gem.");
    assert.deepEqual(await w.run(b.conn, "get gem"), ["It glitters in your hand, Bob."]);
    assert.equal(w.hub.last(a.obj.id)?.msg, "Bob pockets Gem.");
    assert.equal(w.hub.last(a.obj.id)?.data?.type, "get");
    assert.deepEqual(await w.run(b.conn, "drop gem"), ["It clatters down."]);
    assert.equal(w.hub.last(a.obj.id)?.msg, "Bob lets Gem fall.");
    await s.objects.update(gem.id, (o) => {
      o.data.locks = { basic: `#${a.obj.id}` };
    });
    assert.deepEqual(await w.run(b.conn, "get gem"), ["Too heavy for Bob."]);
    assert.equal(w.hub.last(a.obj.id)?.msg, "Bob strains at the gem.");
    assert.equal((await s.objects.get(gem.id))?.location, "1");
    await w.run(a.conn, "@succ gem");
    await w.run(a.conn, "@osucc gem");
    // Without the attributes, MUX's words: "Taken.", and the room hears only that it left.
    assert.deepEqual(await w.run(a.conn, "get gem"), ["Taken."]);
    assert.equal(w.hub.last(b.obj.id)?.msg, "Gem has left.");
    // Someone else's object: the attribute commands answer as & does.
    assert.deepEqual(await w.run(b.conn, `@succ #${gem.id}=mine`), ["Permission denied."]);
    assert.deepEqual(await w.run(b.conn, "@succ"), ["Usage: @succ <object>=<text>"]);
  } finally {
    await w.close();
  }
});

Deno.test("actions: @asucc, @afail, @adrop, @adesc, @aenter, @aleave and @amove run as the object", async () => {
  const { w, s, a, garden, exit, set } = await aliceBuilds();
  try {
    const b = await w.player("Bob");
    const gem = await s.objects.create({
      name: "Gem",
      type: "thing",
      location: "1",
      owner: a.obj.id,
    });
    // Each action tells the one acting who ran it: %! the object, %# the actor.
    const says = (what: string) => `@pemit %#=${what} by [name(%!)] for [name(%#)]`;
    await set(`@aenter #${garden.id}=${says("aenter")}`);
    await set(`@adesc #${gem.id}=${says("adesc")}`);
    await set(`@asucc #${gem.id}=${says("asucc")}`);
    await set(`@afail #${gem.id}=${says("afail")}`);
    await set(`@amove me=${says("amove")}`);
    await w.run(b.conn, "look gem");
    await w.settle();
    assert.equal(w.hub.last(b.obj.id)?.msg, "adesc by Gem for Bob");
    await w.run(b.conn, "get gem");
    await w.settle();
    assert.equal(w.hub.last(b.obj.id)?.msg, "asucc by Gem for Bob");
    await s.objects.update(gem.id, (o) => {
      o.data.locks = { basic: `#${a.obj.id}` };
    });
    await w.run(b.conn, "drop gem");
    await w.run(b.conn, "get gem");
    await w.settle();
    assert.equal(w.hub.last(b.obj.id)?.msg, "afail by Gem for Bob");
    // After a move, the exit and the room left are far from the mover: they keep their own record.
    const notes = (what: string) => `think [set(me,RAN_${what}:[name(%!)] for [name(%#)])]`;
    await set(`@asucc #${exit.id}=${notes("ASUCC")}`);
    await set(`@adrop #${exit.id}=${notes("ADROP")}`);
    await set(`@aleave here=${notes("ALEAVE")}`);
    await w.run(a.conn, "n");
    await w.settle();
    const ran = (id: string, name: string) => s.attributes.peek(id, name)?.value;
    assert.equal(ran(exit.id, "RAN_ASUCC"), "North for Alice");
    assert.equal(ran(exit.id, "RAN_ADROP"), "North for Alice");
    assert.equal(ran("1", "RAN_ALEAVE"), "Limbo for Alice");
    const got = w.hub.texts(a.obj.id).filter((m) => / by /.test(m)).slice(-2);
    assert.deepEqual(got, ["amove by Alice for Alice", "aenter by Garden for Alice"]);
  } finally {
    await w.close();
  }
});

Deno.test("actions: an action that repeats its act is stopped as a runaway", async () => {
  const { w, s, a, garden } = await aliceBuilds();
  try {
    await s.objects.create({
      name: "South;s",
      type: "exit",
      location: garden.id,
      owner: a.obj.id,
      data: { destination: "1" },
    });
    s.config.value.queue.chainLimit = 30;
    // Alice walks back and forth for ever: every move queues the next.
    await w.run(a.conn, "@amove me=@switch [loc(me)]=#1,north,south");
    await w.run(a.conn, "n");
    await w.settle();
    const texts = w.hub.texts(a.obj.id);
    assert.ok(texts.some((m) => /Run away objects/.test(m)), texts.slice(-3).join("\n"));
    const moves = texts.filter((m) => /^%ch(Garden|Limbo)/.test(m)).length;
    assert.ok(moves > 10 && moves <= 32, `moved ${moves} times`);
  } finally {
    await w.close();
  }
});

Deno.test("actions: enter and leave a thing, with @idesc, @efail and @lfail", async () => {
  const w = await testWorld();
  try {
    const s = w.services;
    const a = await w.player("Alice", { flags: ["player", "builder"] });
    const b = await w.player("Bob");
    const wagon = await s.objects.create({
      name: "Wagon",
      type: "thing",
      location: "1",
      owner: a.obj.id,
      data: { description: "A red wagon." },
    });
    const set = async (line: string) => assert.deepEqual(await w.run(a.conn, line), ["Set."]);
    assert.deepEqual(await w.run(b.conn, "enter wagon"), ["Permission denied."]);
    await set("@efail wagon=The wagon is full, %n.");
    await set("@oefail wagon=tries to climb into the wagon.");
    assert.deepEqual(await w.run(b.conn, "enter wagon"), ["The wagon is full, Bob."]);
    assert.equal(w.hub.last(a.obj.id)?.msg, "Bob tries to climb into the wagon.");
    await w.run(a.conn, "@set wagon=enter_ok");
    await set("@idesc wagon=Straw, and a view of [name(loc(me))].");
    await set("@enter wagon=You climb in.");
    await set("@oxenter wagon=climbs into the wagon.");
    await set("@oxleave wagon=climbs down from the wagon.");
    const inside = await w.run(b.conn, "enter wagon");
    assert.match(inside[0], /^%chWagon/);
    assert.match(inside[0], /Straw, and a view of Limbo\./);
    assert.equal(inside[1], "You climb in.");
    assert.equal((await s.objects.get(b.obj.id))?.location, wagon.id);
    assert.ok(w.hub.texts(a.obj.id).includes("Bob climbs into the wagon."));
    assert.match((await w.run(b.conn, "look")).join("\n"), /Straw/);
    assert.match((await w.run(a.conn, "look wagon")).join("\n"), /A red wagon\./);
    // The leave lock holds Bob in; its @lfail says so.
    await s.objects.update(wagon.id, (o) => {
      o.data.locks = { leave: `#${a.obj.id}` };
    });
    await set("@lfail wagon=The door is stuck.");
    assert.deepEqual(await w.run(b.conn, "leave"), ["The door is stuck."]);
    await s.objects.update(wagon.id, (o) => {
      o.data.locks = {};
    });
    const out = await w.run(b.conn, "leave");
    assert.match(out[0], /^%chLimbo/);
    assert.equal((await s.objects.get(b.obj.id))?.location, "1");
    assert.ok(w.hub.texts(a.obj.id).includes("Bob climbs down from the wagon."));
    assert.deepEqual(await w.run(b.conn, "leave"), ["You can't leave."]);
    assert.deepEqual(await w.run(b.conn, "enter me"), ["You can't enter that."]);
    // Out of a wagon Alice carries, Bob stands where Alice stands, never inside her.
    await w.run(b.conn, "enter wagon");
    assert.deepEqual(await w.run(a.conn, "get wagon"), ["Taken."]);
    assert.equal((await s.objects.get(wagon.id))?.location, a.obj.id);
    assert.match((await w.run(b.conn, "leave"))[0], /^%chLimbo/);
    assert.equal((await s.objects.get(b.obj.id))?.location, "1");
  } finally {
    await w.close();
  }
});

Deno.test("actions: @nameformat, @descformat, @conformat and @exitformat shape what look shows", async () => {
  const { w, s, a, set } = await aliceBuilds();
  try {
    const b = await w.player("Bob");
    await s.objects.create({ name: "Gem", type: "thing", location: "1", owner: a.obj.id });
    await w.run(a.conn, "@desc here=A plain room.");
    await set("@nameformat here=== [ucstr(name(me))] ==");
    await set("@descformat here=%1: %0 (for [name(%#)])");
    await set("@conformat here=%1 [iter(%0,name(##),,\\,)]");
    await set("@exitformat here=Ways: [iter(%0,name(##),,\\,)]");
    const look = (await w.run(b.conn, "look")).join("\n");
    assert.equal(
      look,
      "== LIMBO ==\nDESC: A plain room. (for Bob)\nContents: Alice,Gem\nWays: North",
    );
    // The web client's data keeps the lists and gets the formatted description.
    const data = w.hub.last(b.obj.id)?.data as Record<string, unknown>;
    assert.equal(data.description, "DESC: A plain room. (for Bob)");
    assert.deepEqual((data.contents as { name: string }[]).map((c) => c.name), ["Gem"]);
    // A thing looked at takes its own @descformat.
    await set("@descformat gem=It is [lcstr(%0)]!");
    await w.run(a.conn, "@desc gem=SHINY");
    assert.match((await w.run(b.conn, "look gem")).join("\n"), /It is shiny!/);
  } finally {
    await w.close();
  }
});
