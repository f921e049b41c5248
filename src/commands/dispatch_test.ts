import assert from "node:assert/strict";
import { testWorld } from "./_test_util.ts";
import { DENIED, dispatch, FAILED, forceShortcut } from "./dispatch.ts";
import { HUH } from "./limits.ts";
import { CommandError } from "./errors.ts";
import { NotFoundError } from "../errors.ts";

Deno.test("dispatch: unknown command, lock refusal, unknown switches", async () => {
  const w = await testWorld();
  try {
    const { conn } = await w.player("Alice");
    const b = await w.player("Bob", { flags: ["builder"] });
    w.engine.commands.add(
      { name: "+build", lock: "builder+", exec: (u) => u.send("built") },
      "t",
    );
    w.engine.commands.add({ name: "+sw", switches: ["a", "b"], exec: (u) => u.send("ok") }, "t");
    assert.deepEqual(await w.run(conn, "xyzzy"), [HUH]);
    assert.deepEqual(await w.run(conn, "+build"), [DENIED]);
    assert.deepEqual(await w.run(b.conn, "+build"), ["built"]);
    assert.deepEqual(await w.run(conn, "look/fancy"), ["look takes no switches (got /fancy)."]);
    assert.deepEqual(await w.run(conn, "+sw/c"), ["Unknown switch /c for +sw. Switches: /a, /b."]);
    assert.deepEqual(await w.run(conn, "+sw/b"), ["ok"]);
    assert.deepEqual(await w.run(conn, "   "), []);
  } finally {
    await w.close();
  }
});

Deno.test("dispatch: errors map to messages; unexpected ones are logged, not shown", async () => {
  const w = await testWorld();
  const logged: unknown[] = [];
  const original = console.error;
  console.error = (...a: unknown[]) => logged.push(a);
  try {
    const { conn } = await w.player("Alice");
    w.engine.commands.add({
      name: "+fail",
      exec(u) {
        if (u.cmd.args === "cmd") throw new CommandError("You can't do that here.");
        if (u.cmd.args === "typed") throw new NotFoundError("No such scene.");
        throw new TypeError("secret internal detail");
      },
    }, "t");
    assert.deepEqual(await w.run(conn, "+fail cmd"), ["You can't do that here."]);
    assert.deepEqual(await w.run(conn, "+fail typed"), ["No such scene."]);
    assert.deepEqual(await w.run(conn, "+fail other"), [FAILED]);
    assert.equal(logged.length, 1);
    assert.equal(w.hub.last(conn.playerId)?.data?.type, "error");
  } finally {
    console.error = original;
    await w.close();
  }
});

Deno.test("dispatch: hostile lines are refused or cleaned, never crash", async () => {
  const w = await testWorld();
  try {
    const { conn } = await w.player("Alice");
    const huge = await w.run(conn, "say " + "x".repeat(100_000));
    assert.equal(huge.length, 1);
    assert.match(huge[0], /too long/);
    assert.deepEqual(await w.run(conn, "say he\x07l\x00lo\x1b[31m!"), ['You say, "hello!%cn"']);
    assert.deepEqual(await w.run(conn, "\x1b\x1b\x00\x01"), []);
    assert.deepEqual(await w.run(conn, "look/" + "a".repeat(5000)), [
      `look takes no switches (got /${"a".repeat(32)}...).`,
    ]);
    assert.deepEqual(await w.run(conn, "@set me=" + "(".repeat(3000)), [
      "I do not understand that flag.",
    ]);
  } finally {
    await w.close();
  }
});

Deno.test("dispatch: target lookup by me, here, dbref, name, prefix, with ambiguity", async () => {
  const w = await testWorld();
  try {
    const { obj: alice, conn } = await w.player("Alice");
    await w.player("Zed", { location: "1", online: false });
    const room2 = await w.services.objects.create({ name: "Attic", type: "room" });
    await w.player("Bob", { location: room2.id });
    const mk = (name: string, location: string) =>
      w.services.objects.create({ name, type: "thing", location, owner: alice.id });
    await mk("Red Ball", "1");
    await mk("Red Box", "1");
    await mk("Lantern", alice.id);
    w.engine.commands.add({
      name: "+t",
      exec: async (u) => u.send((await u.target(u.cmd.args)).name),
    }, "t");
    const t = async (ref: string) => (await w.run(conn, `+t ${ref}`))[0];
    assert.equal(await t("me"), "Alice");
    assert.equal(await t("here"), "Limbo");
    assert.equal(await t("#1"), "Limbo");
    assert.equal(await t(`#${room2.id}`), "Attic");
    assert.equal(await t("red ball"), "Red Ball");
    assert.equal(await t("RED BOX"), "Red Box");
    assert.equal(await t("ball"), "Red Ball");
    assert.equal(await t("lan"), "Lantern");
    assert.equal(await t("red"), "I don't know which one you mean: Red Ball, Red Box.");
    assert.equal(await t("bob"), "Bob", "players are found by full name anywhere");
    assert.equal(await t("*zed"), "Zed");
    assert.equal(await t("bo"), "Red Box", "word prefixes match only nearby things");
    assert.equal(await t("att"), "I don't see that here.", "nothing elsewhere by prefix");
    assert.equal(await t("nothing"), "I don't see that here.");
    assert.equal(await t("#99999"), "I don't see that here.");
    assert.equal(await t("#abc"), "I don't see that here.");
    assert.equal(await t(".*"), "I don't see that here.", "text is never a regular expression");
  } finally {
    await w.close();
  }
});

Deno.test("dispatch: typing an exit name moves through it with messages", async () => {
  const w = await testWorld();
  try {
    const s = w.services;
    const hall = await s.objects.create({
      name: "Hall",
      type: "room",
      data: { description: "A long hall." },
    });
    await s.objects.create({
      name: "North",
      type: "exit",
      location: "1",
      data: { destination: hall.id, aliases: ["n"] },
    });
    await s.objects.create({
      name: "Locked Door;door",
      type: "exit",
      location: "1",
      data: { destination: hall.id, locks: { basic: "admin+" } },
    });
    const a = await w.player("Alice");
    const b = await w.player("Bob");
    const c = await w.player("Carol", { location: hall.id });
    const out = await w.run(a.conn, "N");
    assert.match(out.join("\n"), /Hall[\s\S]*A long hall\./);
    assert.equal(w.hub.last(a.obj.id)?.data?.type, "room");
    assert.equal(w.hub.roomOf(a.obj.id), hall.id, "the store's change event moved Alice");
    assert.equal((await s.objects.get(a.obj.id))?.location, hall.id);
    assert.ok(w.hub.texts(b.obj.id).includes("Alice has left."));
    assert.ok(w.hub.texts(c.obj.id).includes("Alice has arrived."));
    assert.deepEqual(await w.run(b.conn, "door"), ["You can't go that way."]);
    assert.equal((await s.objects.get(b.obj.id))?.location, "1");
    await w.run(b.conn, "go north");
    assert.equal((await s.objects.get(b.obj.id))?.location, hall.id);
    assert.ok((await w.run(b.conn, "home")).includes("There's no place like home..."));
    assert.equal((await s.objects.get(b.obj.id))?.location, "1");
  } finally {
    await w.close();
  }
});

Deno.test("dispatch: #<dbref> <command> is @force's shortcut; other lines are not", () => {
  assert.equal(forceShortcut("#12 say Hello=there"), "@force #12=say Hello=there");
  assert.equal(forceShortcut("  #7   @emit {a;b}"), "@force #7=@emit {a;b}");
  assert.equal(forceShortcut("#12"), null);
  assert.equal(forceShortcut("#12say"), null);
  assert.equal(forceShortcut("#me say"), null);
  assert.equal(forceShortcut("say #12 hi"), null);
});

Deno.test("dispatch: a line waiting for its player's turn to end never runs after its connection closed", async () => {
  const w = await testWorld();
  try {
    const { conn } = await w.player("Alice");
    const ran: string[] = [];
    w.engine.commands.add({ name: "+mark", exec: (u) => void ran.push(u.cmd.args) }, "t");
    // A player whose softcode has used its slice: their next line waits for the turn's end.
    const sc = w.ports.softcode;
    const held = (turn: Promise<void>) => {
      let waited = false;
      sc.turnWait = () => waited ? null : (waited = true, turn);
    };
    const first = Promise.withResolvers<void>();
    held(first.promise);
    const alices = dispatch(w.ports, w.engine.commands, conn, "+mark one");
    conn.close("gone");
    first.resolve();
    await alices;
    assert.deepEqual(ran, [], "the held line was dropped with its connection");
    // The same wait with the connection still open runs the line.
    const b = await w.player("Bob");
    const second = Promise.withResolvers<void>();
    held(second.promise);
    const bobs = dispatch(w.ports, w.engine.commands, b.conn, "+mark two");
    second.resolve();
    await bobs;
    assert.deepEqual(ran, ["two"]);
  } finally {
    await w.close();
  }
});
