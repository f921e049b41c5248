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
      "You paged Bobby with 'Hi there%cn'.",
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
      data: { locks: { get: "#0" } },
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
    assert.deepEqual(await w.run(a.conn, "get lantern"), ["You pick up Lantern."]);
    assert.equal(w.hub.last(b.obj.id)?.msg, "Alice picks up Lantern.");
    assert.deepEqual(await w.run(a.conn, "get lantern"), ["You already have that."]);
    assert.deepEqual(await w.run(a.conn, "get anvil"), ["You can't pick that up."]);
    assert.deepEqual(await w.run(a.conn, "get bob"), ["You can't pick that up."]);
    assert.match((await w.run(a.conn, "inventory"))[0], /Lantern/);
    assert.deepEqual(await w.run(a.conn, "give bob=lantern"), ["You give Lantern to Bob."]);
    assert.equal(w.hub.last(b.obj.id)?.msg, "Alice gives you Lantern.");
    assert.deepEqual(await w.run(a.conn, "drop lantern"), ["I don't see that here."]);
    assert.deepEqual(await w.run(b.conn, "drop lantern"), ["You drop Lantern."]);
    assert.equal(w.hub.last(a.obj.id)?.msg, "Bob drops Lantern.");
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
    assert.deepEqual(await w.run(a.conn, "@describe box=A sturdy box."), [
      "Description set on Box.",
    ]);
    assert.equal((await w.services.objects.get(box.id))?.data.description, "A sturdy box.");
    assert.deepEqual(await w.run(b.conn, "@desc box=Mine now."), ["Permission denied."]);
    assert.deepEqual(await w.run(b.conn, "@name box=Crate"), ["Permission denied."]);
    assert.deepEqual(await w.run(a.conn, "@name box=Crate"), ["Name set: Box is now Crate."]);
    assert.deepEqual(await w.run(a.conn, "@name me=Bob"), ["That name is already taken."]);
    assert.deepEqual(await w.run(a.conn, "@name me=Alicia"), ["Name set: Alice is now Alicia."]);
    assert.equal((await w.services.objects.playerByName("alicia"))?.id, a.obj.id);
    assert.equal(await w.services.objects.playerByName("alice"), null);
    assert.match((await w.run(a.conn, "@name me=#bad"))[0], /That name won't do/);
  } finally {
    await w.close();
  }
});
