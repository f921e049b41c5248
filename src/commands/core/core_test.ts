import assert from "node:assert/strict";
import { testWorld } from "../_test_util.ts";

Deno.test("core: say, pose, semipose, @emit and think reach the right people", async () => {
  const w = await testWorld();
  try {
    const a = await w.player("Alice");
    const b = await w.player("Bob");
    const attic = await w.services.objects.create({ name: "Attic", type: "room" });
    const c = await w.player("Carol", { location: attic.id });
    assert.deepEqual(await w.run(a.conn, '"Hello'), ['You say, "Hello%cn"']);
    assert.equal(w.hub.last(b.obj.id)?.msg, 'Alice says, "Hello%cn"');
    assert.deepEqual(w.hub.last(b.obj.id)?.data, {
      type: "say",
      from: { id: a.obj.id, name: "Alice", moniker: "Alice" },
      text: "Hello",
    });
    await w.run(a.conn, ":waves.");
    assert.equal(w.hub.last(b.obj.id)?.msg, "Alice waves.");
    assert.equal(w.hub.last(a.obj.id)?.msg, "Alice waves.");
    await w.run(a.conn, ";'s cat purrs.");
    assert.equal(w.hub.last(b.obj.id)?.msg, "Alice's cat purrs.");
    await w.run(a.conn, "\\\\The wind howls.");
    assert.equal(w.hub.last(b.obj.id)?.msg, "The wind howls.");
    assert.deepEqual(await w.run(a.conn, "think secret"), ["secret"]);
    assert.equal(w.hub.last(b.obj.id)?.msg, "The wind howls.");
    assert.deepEqual(w.hub.texts(c.obj.id), [], "nothing leaks to another room");
    assert.deepEqual(await w.run(a.conn, "say"), ["Say what?"]);
  } finally {
    await w.close();
  }
});

Deno.test("core: page, page-pose, offline and unknown targets", async () => {
  const w = await testWorld();
  try {
    const attic = await w.services.objects.create({ name: "Attic", type: "room" });
    const a = await w.player("Alice");
    const b = await w.player("Bobby", { location: attic.id });
    await w.player("Zed", { online: false });
    assert.deepEqual(await w.run(a.conn, "page bobby=Hi there"), [
      "You paged Bobby with 'Hi there%cn'",
    ]);
    assert.equal(w.hub.last(b.obj.id)?.msg, "Alice pages: Hi there%cn");
    assert.equal(w.hub.last(b.obj.id)?.data?.type, "page");
    await w.run(a.conn, "page bob=:waves.");
    assert.equal(w.hub.last(b.obj.id)?.msg, "From afar, Alice waves.%cn");
    assert.deepEqual(await w.run(a.conn, "page Zed=hello"), ["Zed is not connected."]);
    assert.deepEqual(await w.run(a.conn, "page Nobody=hello"), [
      "I don't recognize a player named 'Nobody'.",
    ]);
    assert.deepEqual(await w.run(a.conn, "page Bobby"), ["Usage: page <player>=<message>"]);
  } finally {
    await w.close();
  }
});

Deno.test("core: look, inventory, get, drop, give", async () => {
  const w = await testWorld();
  try {
    const s = w.services;
    const a = await w.player("Alice");
    const b = await w.player("Bob");
    await s.objects.create({
      name: "Lantern",
      type: "thing",
      location: "1",
      owner: a.obj.id,
      data: { description: "A brass lantern." },
    });
    await s.objects.create({
      name: "Anvil",
      type: "thing",
      location: "1",
      data: { locks: { basic: "#0" } },
    });
    const look = (await w.run(a.conn, "look")).join("\n");
    assert.match(look, /Limbo/);
    assert.match(look, /Players:.*Bob/);
    assert.match(look, /Contents:.*Lantern/);
    const data = w.hub.last(a.obj.id)?.data as Record<string, unknown>;
    assert.equal(data.type, "room");
    assert.deepEqual((data.players as { name: string }[]).map((p) => p.name).sort(), [
      "Alice",
      "Bob",
    ]);
    assert.match((await w.run(a.conn, "l lantern")).join("\n"), /A brass lantern\./);
    assert.deepEqual(await w.run(a.conn, "i"), ["You aren't carrying anything."]);
    assert.deepEqual(await w.run(a.conn, "get lantern"), ["Taken."]);
    assert.deepEqual(await w.run(a.conn, "get lantern"), ["You already have that!"]);
    assert.deepEqual(await w.run(a.conn, "get anvil"), ["You can't pick that up."]);
    assert.deepEqual(await w.run(a.conn, "get bob"), ["You can't pick that up."]);
    assert.match((await w.run(a.conn, "inventory"))[0], /Lantern/);
    await w.run(b.conn, "@set me=enter_ok");
    assert.deepEqual(await w.run(a.conn, "give bob=lantern"), ["Given."]);
    assert.equal(w.hub.last(b.obj.id)?.msg, "Alice gave you Lantern.");
    assert.deepEqual(await w.run(a.conn, "drop lantern"), ["You don't have that!"]);
    assert.deepEqual(await w.run(b.conn, "drop lantern"), ["Dropped."]);
    assert.equal(w.hub.last(a.obj.id)?.msg, "Bob dropped Lantern.");
  } finally {
    await w.close();
  }
});

Deno.test("core: examine shows the full record to the owner and the public part to others", async () => {
  const w = await testWorld();
  try {
    const a = await w.player("Alice");
    const b = await w.player("Bob");
    await w.services.objects.create({
      name: "Box",
      type: "thing",
      location: "1",
      owner: a.obj.id,
      data: { description: "Plain.", secretNote: "hidden" },
    });
    const full = (await w.run(a.conn, "examine box")).join("\n");
    assert.match(full, /Flags: thing/);
    assert.match(full, /secretNote/);
    const pub = (await w.run(b.conn, "ex box")).join("\n");
    assert.match(pub, /Owner: Alice/);
    assert.match(pub, /Plain\./);
    assert.doesNotMatch(pub, /secretNote|Flags/);
  } finally {
    await w.close();
  }
});

Deno.test("core: @describe and @name need control; player names stay unique", async () => {
  const w = await testWorld();
  try {
    const a = await w.player("Alice");
    const b = await w.player("Bob");
    const box = await w.services.objects.create({
      name: "Box",
      type: "thing",
      location: "1",
      owner: a.obj.id,
    });
    assert.deepEqual(await w.run(a.conn, "@describe box=A sturdy box."), ["Set."]);
    assert.equal((await w.services.objects.get(box.id))?.data.description, "A sturdy box.");
    assert.deepEqual(await w.run(b.conn, "@desc box=Mine now."), ["Permission denied."]);
    assert.deepEqual(await w.run(b.conn, "@name box=Crate"), ["Permission denied."]);
    assert.deepEqual(await w.run(a.conn, "@name box=Crate"), ["Name set."]);
    assert.deepEqual(await w.run(a.conn, "@name me=Bob"), ["That name is already taken."]);
    assert.deepEqual(await w.run(a.conn, "@name me=Alicia"), ["Name set."]);
    assert.equal((await w.services.objects.playerByName("alicia"))?.id, a.obj.id);
    assert.equal(await w.services.objects.playerByName("alice"), null);
    assert.match((await w.run(a.conn, "@name me=#bad"))[0], /That name won't do/);
  } finally {
    await w.close();
  }
});

Deno.test("core: whisper reaches only its listeners, in MUX's words", async () => {
  const w = await testWorld();
  try {
    const attic = await w.services.objects.create({ name: "Attic", type: "room" });
    const a = await w.player("Alice");
    const b = await w.player("Bobby");
    const c = await w.player("Carol");
    const d = await w.player("Dave");
    const far = await w.player("Faraway", { location: attic.id });
    await w.player("Zed", { online: false });
    assert.deepEqual(await w.run(a.conn, "whisper bob=Meet me outside."), [
      'You whisper "Meet me outside.%cn" to Bobby.',
    ]);
    assert.equal(w.hub.last(b.obj.id)?.msg, 'Alice whispers "Meet me outside.%cn"');
    assert.deepEqual(w.hub.last(b.obj.id)?.data, {
      type: "whisper",
      from: { id: a.obj.id, name: "Alice", moniker: "Alice" },
      to: [{ id: b.obj.id, name: "Bobby" }],
      text: "Meet me outside.",
      pose: false,
    });
    // Nobody else in the room hears it, nor that it happened.
    assert.deepEqual([w.hub.texts(c.obj.id), w.hub.texts(d.obj.id)], [[], []]);
    assert.deepEqual(await w.run(a.conn, "w Bobby,Carol=:winks."), [
      'Bobby and Carol sense "Alice winks.%cn"',
    ]);
    assert.equal(w.hub.last(b.obj.id)?.msg, "You sense Alice winks.%cn");
    assert.equal(w.hub.last(c.obj.id)?.msg, "You sense Alice winks.%cn");
    await w.run(a.conn, "whisper carol=;'s hat tilts.");
    assert.equal(w.hub.last(c.obj.id)?.msg, "You sense Alice's hat tilts.%cn");
    await w.run(a.conn, 'whisper carol="quoted');
    assert.equal(w.hub.last(c.obj.id)?.msg, 'Alice whispers "quoted%cn"');
    assert.deepEqual(w.hub.texts(d.obj.id), []);
    assert.deepEqual(await w.run(a.conn, "whisper faraway=hi"), ["Faraway is not here."]);
    assert.deepEqual(w.hub.texts(far.obj.id), []);
    assert.deepEqual(await w.run(a.conn, "whisper Zed=hi"), ["Zed is not connected."]);
    assert.deepEqual(await w.run(a.conn, "whisper Nobody=hi"), [
      "I don't recognize a player named 'Nobody'.",
    ]);
    assert.deepEqual(await w.run(a.conn, "whisper alice=hi"), ["You can't whisper to yourself."]);
    assert.deepEqual(await w.run(a.conn, "whisper bobby"), ["Usage: whisper <player>=<message>"]);
    assert.deepEqual(await w.run(a.conn, "whisper bobby= "), ["Whisper what?"]);
  } finally {
    await w.close();
  }
});

Deno.test("core: @doing shows in who; staff set the column's header", async () => {
  const w = await testWorld();
  try {
    const a = await w.player("Alice");
    const staff = await w.player("Wiz", { flags: ["admin"] });
    assert.deepEqual(await w.run(a.conn, "@doing Looking for a %chscene"), ["Set."]);
    const who = (await w.run(a.conn, "who"))[0];
    assert.match(who, /^%chPlayer Name +On For +Idle {2}Doing%cn$/m);
    assert.match(who, /^Alice +\S+ +\S+ {2}Looking for a %chscene/m);
    assert.equal(w.hub.last(a.obj.id)?.data?.header, "Doing");
    assert.deepEqual(await w.run(a.conn, "@doing/header Poll?"), [
      "Only staff can set the header.",
    ]);
    assert.deepEqual(await w.run(staff.conn, "@doing/header What's up?"), [
      "Poll set: What's up?%cn",
    ]);
    assert.deepEqual(await w.run(a.conn, "@doing/poll"), ["Poll: What's up?"]);
    assert.match((await w.run(a.conn, "who"))[0], /Idle {2}What's up\?%cn$/m);
    // A narrow screen drops the column rather than squeezing it.
    const narrow = await w.run(w.hub.connect(a.obj, { width: 30 }), "who");
    assert.doesNotMatch(narrow[0], /What's up|Looking/);
    assert.deepEqual(await w.run(a.conn, `@doing ${"x".repeat(61)}`), [
      "Your doing message must be 60 characters or fewer.",
    ]);
    assert.deepEqual(await w.run(a.conn, "@doing two%rlines"), [
      "Your doing message must be one line.",
    ]);
    assert.deepEqual(await w.run(a.conn, "@doing"), ["Set."]);
    assert.doesNotMatch((await w.run(a.conn, "who"))[0], /Looking/);
    assert.deepEqual(await w.run(staff.conn, "@doing/header"), [
      "Poll cleared: the header is Doing again.",
    ]);
    // MUX's @poll is @doing/header under another name.
    assert.deepEqual(await w.run(a.conn, "@poll Mine?"), ["Only staff can set the header."]);
    assert.deepEqual(await w.run(staff.conn, "@poll Plans?"), ["Poll set: Plans?%cn"]);
    assert.deepEqual(await w.run(a.conn, "@doing/poll"), ["Poll: Plans?"]);
    assert.deepEqual(await w.run(staff.conn, "@poll"), [
      "Poll cleared: the header is Doing again.",
    ]);
  } finally {
    await w.close();
  }
});

Deno.test("core: +where hides unfindable players and hidden rooms, but not from staff", async () => {
  const w = await testWorld();
  try {
    const attic = await w.services.objects.create({ name: "Attic", type: "room" });
    const vault = await w.services.objects.create({ name: "Vault", type: "room", flags: ["dark"] });
    const den = await w.services.objects.create({
      name: "Den",
      type: "room",
      flags: ["unfindable"],
    });
    const a = await w.player("Alice");
    await w.player("Bob", { location: attic.id });
    const shy = await w.player("Shy", { location: attic.id });
    await w.player("Vic", { location: vault.id });
    await w.player("Dee", { location: den.id });
    const staff = await w.player("Wiz", { flags: ["admin"], location: attic.id });
    assert.match((await w.run(shy.conn, "@set me=unfindable"))[0], /^Set\.$/);
    const seen = (await w.run(a.conn, "+where"))[0];
    assert.match(seen, /^%chLocation +Players%cn$/m);
    assert.match(seen, /^Attic +Bob, Wiz$/m);
    assert.match(seen, /^Limbo +Alice$|^\S+ +Alice$/m);
    assert.doesNotMatch(seen, /Shy|Vic|Dee|Vault|Den/);
    assert.match(seen, /^3 players in 2 places; 3 unfindable\.$/m);
    const all = (await w.run(staff.conn, "+where"))[0];
    assert.match(all, /^Attic +Bob, Shy \(unfindable\), Wiz$/m);
    assert.match(all, /^Vault \(hidden\) +Vic$/m);
    assert.match(all, /^Den \(hidden\) +Dee$/m);
    // A player in a hidden room still sees where they are.
    const vic = (await w.run((await w.player("Val", { location: vault.id })).conn, "+where"))[0];
    assert.match(vic, /^Vault \(hidden\) +Val$/m);
  } finally {
    await w.close();
  }
});

Deno.test("core: examine shows an exit with its aliases, look with its name", async () => {
  const w = await testWorld();
  try {
    const b0 = await w.player("Builder", { flags: ["builder"] });
    const garden = await w.services.objects.create({ name: "Garden", type: "room" });
    const hall = await w.services.objects.create({ name: "Hall", type: "room", owner: b0.obj.id });
    await w.services.objects.update(b0.obj.id, (o) => {
      o.location = hall.id;
    });
    const b = { ...b0, obj: (await w.services.objects.get(b0.obj.id))! };
    const exit = await w.services.objects.create({
      name: "North <N>;n;north",
      type: "exit",
      location: hall.id,
      owner: b.obj.id,
      data: { destination: garden.id, aliases: ["no"] },
    });
    const here = (await w.run(b.conn, "examine here"))[0];
    // MUX's examine: one exit a line under "Exits:".
    assert.match(here, new RegExp(`\nExits:\nNorth <N>;n;north;no%cn\\(#${exit.id}\\)\n`));
    const ex = (await w.run(b.conn, "examine n"))[0];
    assert.match(ex, new RegExp(`^%chNorth <N>;n;north;no%cn\\(#${exit.id}\\)%cn`));
    const look = (await w.run(b.conn, "look"))[0];
    assert.match(look, new RegExp(`Exits:%cn North <N>%cn\\(#${exit.id}\\)`));
  } finally {
    await w.close();
  }
});

Deno.test("core: guests may look, talk and move, and nothing that changes the world", async () => {
  const w = await testWorld();
  try {
    const g = await w.player("Guest1", { flags: ["guest"] });
    const b = await w.player("Bob");
    await w.services.objects.create({ name: "Stone", type: "thing", location: "1" });
    const denied =
      "Guests can't do that. To play, make a character: QUIT, then create <name> <password>.";
    for (const line of ["get stone", "@emit Boo", "@describe me=x", "@set me=unfindable"]) {
      assert.deepEqual(await w.run(g.conn, line), [denied], line);
    }
    assert.deepEqual(await w.run(g.conn, "@doing Visiting"), ["Set."]);
    assert.deepEqual(await w.run(g.conn, "say Hello!"), ['You say, "Hello!%cn"']);
    assert.equal(w.hub.last(b.obj.id)?.msg, 'Guest1 says, "Hello!%cn"');
    assert.deepEqual(await w.run(g.conn, "whisper bob=psst"), ['You whisper "psst%cn" to Bob.']);
    assert.match((await w.run(g.conn, "look"))[0], /Limbo/);
    assert.match((await w.run(g.conn, "who"))[0], /Guest1 .* Visiting/);
    // Staff commands stay what their locks make them.
    assert.deepEqual(await w.run(g.conn, "@boot Bob"), ["Permission denied."]);
  } finally {
    await w.close();
  }
});
