/**
 * The first hour side by side with TinyMUX 2.12 (the same lines typed on both, over telnet):
 * where this game answered in other words or refused otherwise, it now answers as MUX does.
 * `get`, `drop` and `give`; `@describe`, `@name` and `@doing`; a builder's `@create`, `@dig`, `@open`,
 * `@link`, `@unlink`, `@clone` and `@destroy` of what is set safe.
 */
import { assertEquals } from "./assert.ts";
import { register } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin, telnetReply } from "./supervised.ts";

Deno.test("first hour as MUX: get, drop and give say MUX's words and refuse as MUX does", async () => {
  const srv = await startSupervised({});
  const closers: (() => Promise<void>)[] = [];
  try {
    await register(srv.base, "Alice");
    await register(srv.base, "Bob");
    const alice = await telnetLogin(srv, "Alice", "password123");
    closers.push(() => alice.close());
    const bob = await telnetLogin(srv, "Bob", "password123");
    closers.push(() => bob.close());
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    closers.push(() => admin.close());
    await telnetReply(admin, "@set *Alice=builder");
    await telnetReply(alice, "@create Widget");

    // drop: "Dropped.", the room hears "<name> dropped <thing>."; get: "Taken.", the room
    // hears "<thing> has left." (and the thing's @osucc: none here).
    let heard = bob.text.length;
    assertEquals(await telnetReply(alice, "drop Widget"), "Dropped.");
    assertEquals(await telnetReply(bob, "think done"), "done");
    assertEquals(bob.text.slice(heard).includes("Alice dropped Widget."), true);
    heard = bob.text.length;
    assertEquals(await telnetReply(alice, "get Widget"), "Taken.");
    assertEquals(await telnetReply(bob, "think done"), "done");
    assertEquals(bob.text.slice(heard).split("Widget").length - 1, 1, bob.text.slice(heard));
    assertEquals(bob.text.slice(heard).includes("Widget has left."), true, bob.text.slice(heard));

    for (
      const [line, said] of [
        ["get Widget", "You already have that!"],
        ["get me", "I don't see that here."],
        ["get", "I don't see that here."],
        ["get nosuch", "I don't see that here."],
        ["drop nosuch", "You don't have that!"],
        ["drop Bob", "You don't have that!"],
        ["drop", "You don't have that!"],
        ["give nosuch=Widget", "Give to whom?"],
        ["give Bob", "Give to whom?"],
        ["give Bob=nosuch", "You don't have that!"],
        // A player takes gifts when set enter_ok (or from whoever controls them).
        ["give Bob=Widget", "Permission denied."],
      ]
    ) assertEquals(await telnetReply(alice, line), said, line);

    await telnetReply(bob, "@set me=enter_ok");
    const widget = await telnetReply(alice, "think [num(Widget)]");
    await telnetReply(bob, `@lock/receive me=!${widget}`);
    assertEquals(await telnetReply(alice, "give Bob=Widget"), "Bob doesn't want Widget.");
    assertEquals(await telnetReply(bob, "@rfail me=No thanks, %n."), "Set.");
    assertEquals(await telnetReply(alice, "give Bob=Widget"), "No thanks, Alice.");
    await telnetReply(bob, "@unlock/receive me");
    await telnetReply(alice, "@lock/give Widget=*Bob");
    assertEquals(await telnetReply(alice, "give Bob=Widget"), "You can't give Widget away.");
    await telnetReply(alice, "@unlock/give Widget");

    heard = bob.text.length;
    assertEquals(await telnetReply(alice, "give Bob=Widget"), "Given.");
    assertEquals(await telnetReply(bob, "think [name(con(me))]"), "Widget");
    assertEquals(bob.text.slice(heard).includes("Alice gave you Widget."), true);

    // To a thing: it must be enter_ok or the giver's.
    await telnetReply(alice, "@create Box");
    await telnetReply(alice, "drop Box");
    assertEquals(await telnetReply(bob, "give Box=Widget"), "Permission denied.");
    assertEquals(await telnetReply(bob, "give here=Widget"), "Give to whom?");
    await telnetReply(alice, "@set Box=enter_ok");
    assertEquals(await telnetReply(bob, "give Box=Widget"), "Given.");
    assertEquals(await telnetReply(alice, "think [name(con(Box))]"), "Widget");
  } finally {
    for (const c of closers) await c().catch(() => {});
    await srv.stop();
  }
});

Deno.test("first hour as MUX: @describe and @doing say Set., @name Name set.", async () => {
  const srv = await startSupervised({});
  const closers: (() => Promise<void>)[] = [];
  try {
    await register(srv.base, "Alice");
    const alice = await telnetLogin(srv, "Alice", "password123");
    closers.push(() => alice.close());
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    closers.push(() => admin.close());
    await telnetReply(admin, "@set *Alice=builder");
    await telnetReply(alice, "@create Widget");
    for (
      const [line, said] of [
        ["@describe me=A tall woman.", "Set."],
        ["think [get(me/desc)]", "A tall woman."],
        ["@describe me=", "Set."],
        ["think [hasattr(me,desc)]", "0"],
        ["@describe nosuch=x", "I don't see that here."],
        ["@name Widget=Gadget", "Name set."],
        ["think [name(con(me))]", "Gadget"],
        ["@name Gadget=", "Give it what new name?"],
        ["@name Gadget", "Give it what new name?"],
        ["@name nosuch=Foo", "I don't see that here."],
        ["@name me=Alicia", "Name set."],
        ["think %n", "Alicia"],
        ["@doing Having fun", "Set."],
        ["@doing", "Set."],
      ]
    ) assertEquals(await telnetReply(alice, line), said, line);
  } finally {
    for (const c of closers) await c().catch(() => {});
    await srv.stop();
  }
});

Deno.test("first hour as MUX: a builder's @create, @dig, @open, @link, @unlink, @clone, @destroy", async () => {
  const srv = await startSupervised({});
  const closers: (() => Promise<void>)[] = [];
  try {
    await register(srv.base, "Bob");
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    closers.push(() => admin.close());
    const bob = await telnetLogin(srv, "Bob", "password123");
    closers.push(() => bob.close());
    await telnetReply(admin, "@set *Bob=builder");

    const made = await telnetReply(bob, "@create Thing");
    const thing = /#\d+$/.exec(made)![0];
    assertEquals(made, `Thing created as object ${thing}`);
    assertEquals(await telnetReply(bob, "@create"), "Create what?");
    const copy = await telnetReply(bob, "@clone Thing");
    assertEquals(copy, `Thing cloned, new copy is object ${/#\d+/.exec(copy)![0]}.`);
    const named = await telnetReply(bob, `@clone ${thing}=Copy`);
    assertEquals(named, `Thing cloned as Copy, new copy is object ${/#\d+/.exec(named)![0]}.`);

    assertEquals(await telnetReply(bob, "@dig"), "Dig what?");
    const shop = await telnetReply(bob, "@dig Workshop");
    const shopId = /#\d+/.exec(shop)![0];
    assertEquals(shop, `Workshop created as room ${shopId}.`);
    const garden = await telnetReply(bob, "@dig Garden=Into the Garden;g,Back;b");
    const gardenId = /#\d+/.exec(garden)![0];
    assertEquals(
      garden,
      `Garden created as room ${gardenId}.\r\nOpened.\r\nLinked.\r\nOpened.\r\nLinked.`,
    );

    assertEquals(await telnetReply(bob, "@open"), "Open where?");
    assertEquals(await telnetReply(bob, "@open Up"), "Opened.");
    assertEquals(await telnetReply(bob, `@open East;e=${shopId}`), "Opened.\r\nLinked.");
    assertEquals(await telnetReply(bob, `@link Up=${gardenId}`), "Linked.");
    assertEquals(await telnetReply(bob, "think [rloc(Up,1)]"), gardenId);
    assertEquals(await telnetReply(bob, "@unlink Up"), "Unlinked.");
    assertEquals(await telnetReply(bob, "think [rloc(Up,1)]"), "#-1");
    assertEquals(
      await telnetReply(bob, `@link ${thing}=${shopId}`),
      `Home of Thing(${thing}) changed from Limbo(#1) to Workshop(${shopId}).`,
    );
    assertEquals(await telnetReply(bob, `think [home(${thing})]`), shopId);

    // MUX's SAFE: @destroy refuses it until /override.
    await telnetReply(bob, `@set ${thing}=safe`);
    const safe = "Sorry, that object is protected.  Use @destroy/override to destroy it.";
    assertEquals(await telnetReply(bob, `@destroy ${thing}`), safe);
    assertEquals(await telnetReply(bob, `think [name(${thing})]`), "Thing");
    assertEquals(
      await telnetReply(bob, `@destroy/override ${thing}`),
      `Destroyed Thing(${thing}).`,
    );
  } finally {
    for (const c of closers) await c().catch(() => {});
    await srv.stop();
  }
});
