/**
 * What a player or builder meets in the first hour, in TinyMUX 2.12's words and layouts (the
 * same lines typed on both over telnet): `@set`'s `Set.`/`Cleared.` and its refusals.
 */
import { assertEquals } from "./assert.ts";
import { register } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin, telnetReply } from "./supervised.ts";

Deno.test("MUX words: @set answers Set. and Cleared. for each flag, and refuses as MUX does", async () => {
  const srv = await startSupervised({});
  const closers: (() => Promise<void>)[] = [];
  try {
    await register(srv.base, "Alice");
    await register(srv.base, "Bob");
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    closers.push(() => admin.close());
    const alice = await telnetLogin(srv, "Alice", "password123");
    closers.push(() => alice.close());
    const bob = await telnetLogin(srv, "Bob", "password123");
    closers.push(() => bob.close());
    assertEquals(await telnetReply(admin, "@set *Alice=builder"), "Set.");
    await telnetReply(alice, "@create Widget");
    await telnetReply(alice, "drop Widget");
    const widget = await telnetReply(alice, "think [num(Widget)]");

    for (
      const [line, said] of [
        ["@set Widget=dark", "Set."],
        // Already set: the same answer, as MUX 2.12 gives.
        ["@set Widget=dark", "Set."],
        ["@set Widget=!dark", "Cleared."],
        ["@set Widget=!dark", "Cleared."],
        ["@set Widget=halted", "Set."],
        ["think [hasflag(Widget,halt)]", "1"],
        ["@set Widget=foo", "I do not understand that flag."],
        ["@set Widget=thing", "I do not understand that flag."],
        ["@set Widget=!!halt", "I do not understand that flag."],
        ["@set Widget=opaque foo ! halt", "Set.\r\nI do not understand that flag.\r\nCleared."],
        ["think [hasflag(Widget,opaque)][hasflag(Widget,halt)]", "10"],
        ["@set Widget=", "You must specify a flag to set."],
        ["@set Widget", "You must specify a flag to set."],
        ["@set Widget=!", "You must specify a flag to clear."],
        ["@set nosuch=dark", "I don't see that here."],
        // The attribute forms.
        ["&note Widget=hello", "Set."],
        ["@set Widget=other:there", "Set."],
        ["@set Widget/note=visual", "Set."],
        ["@set Widget/note=!visual", "Cleared."],
        ["@set Widget/note=blah", "You can't set that!"],
        ["@set Widget/note=", "I don't know what you want to set!"],
      ]
    ) assertEquals(await telnetReply(alice, line), said, line);

    // Bob controls nothing of Alice's: refused before the flags are read, by name or by dbref.
    for (
      const [line, said] of [
        ["@set Widget=dark", "Permission denied."],
        [`@set ${widget}=bogus`, "Permission denied."],
        ["@set Widget=other:x", "Permission denied."],
      ]
    ) assertEquals(await telnetReply(bob, line), said, line);
    assertEquals(await telnetReply(alice, "think [hasflag(Widget,dark)][get(Widget/other)]"), "0there");

    // A quiet actor is not told Set./Cleared. (the refusals still), `@set me=quiet` included.
    assertEquals(await telnetReply(alice, "@set me=quiet"), "");
    assertEquals(await telnetReply(alice, "@set Widget=dark foo"), "I do not understand that flag.");
    assertEquals(await telnetReply(alice, "think [hasflag(Widget,dark)]"), "1");
    assertEquals(await telnetReply(alice, "@set me=!quiet"), "Cleared.");
  } finally {
    for (const c of closers) await c().catch(() => {});
    await srv.stop();
  }
});
