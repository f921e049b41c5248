/**
 * What a player or builder meets in the first hour, in TinyMUX 2.12's words and layouts (the
 * same lines typed on both over telnet): `@set`'s `Set.`/`Cleared.` and its refusals.
 */
import { assertEquals } from "./assert.ts";
import { register } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin, telnetReply } from "./supervised.ts";
import type { TelnetClient } from "./telnet_client.ts";

/** The players of one test, by their names in lower case, each on a telnet connection. */
type Players = Record<string, TelnetClient>;

/**
 * Runs `body` in a supervised game of its own with `names` registered and logged in over telnet;
 * unless `builder` is false, the superuser makes the first of them a builder. Every connection
 * closes and the game stops after, whatever `body` did.
 */
async function inGame(
  names: string[],
  body: (players: Players) => Promise<void>,
  { builder = true } = {},
): Promise<void> {
  const srv = await startSupervised({});
  const closers: (() => Promise<void>)[] = [];
  try {
    for (const name of names) await register(srv.base, name);
    const admin = builder ? await telnetLogin(srv, ADMIN.name, ADMIN.password) : null;
    if (admin) closers.push(() => admin.close());
    const players: Players = {};
    for (const name of names) {
      const t = await telnetLogin(srv, name, "password123");
      closers.push(() => t.close());
      players[name.toLowerCase()] = t;
    }
    if (admin) assertEquals(await telnetReply(admin, `@set *${names[0]}=builder`), "Set.");
    await body(players);
  } finally {
    for (const c of closers) await c().catch(() => {});
    await srv.stop();
  }
}

Deno.test("MUX words: @set answers Set. and Cleared. for each flag, and refuses as MUX does", () =>
  inGame(["Alice", "Bob"], async ({ alice, bob }) => {
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
    assertEquals(
      await telnetReply(alice, "think [hasflag(Widget,dark)][get(Widget/other)]"),
      "0there",
    );

    // A quiet actor is not told Set./Cleared. (the refusals still), `@set me=quiet` included.
    assertEquals(await telnetReply(alice, "@set me=quiet"), "");
    assertEquals(
      await telnetReply(alice, "@set Widget=dark foo"),
      "I do not understand that flag.",
    );
    assertEquals(await telnetReply(alice, "think [hasflag(Widget,dark)]"), "1");
    assertEquals(await telnetReply(alice, "@set me=!quiet"), "Cleared.");
  }));

Deno.test("MUX words: inventory and examine list one name a line", () =>
  inGame(["Alice"], async ({ alice }) => {
    assertEquals(await telnetReply(alice, "inventory"), "You aren't carrying anything.");
    const widget = /#\d+/.exec(await telnetReply(alice, "@create Widget"))![0];
    const ball = /#\d+/.exec(await telnetReply(alice, "@create Ball"))![0];
    const inv = (await telnetReply(alice, "inventory")).split("\r\n");
    assertEquals(inv[0], "You are carrying:");
    assertEquals(inv.slice(1).sort(), [`Ball(${ball})`, `Widget(${widget})`].sort());

    // examine: Contents: and Exits: one a line; No exits. where there are none.
    const me = (await telnetReply(alice, "examine me")).split("\r\n");
    const at = me.indexOf("Contents:");
    assertEquals(me.slice(at + 1, at + 3).sort(), [`Ball(${ball})`, `Widget(${widget})`].sort());
    assertEquals(me[at + 3], "No exits.");
    const room = /#\d+/.exec(await telnetReply(alice, "@dig Workshop"))![0];
    await telnetReply(alice, `@tel me=${room}`);
    await telnetReply(alice, "@open North;n");
    await telnetReply(alice, "@open South;s");
    await telnetReply(alice, "drop Ball");
    const here = (await telnetReply(alice, "examine here")).split("\r\n");
    const c = here.indexOf("Contents:");
    assertEquals(
      here.slice(c + 1, c + 3).sort(),
      [`Alice(${await num(alice, "me")})`, `Ball(${ball})`].sort(),
    );
    const e = here.indexOf("Exits:");
    assertEquals(
      here.slice(e + 1, e + 3).sort(),
      [
        `North;n(${await num(alice, "north")})`,
        `South;s(${await num(alice, "south")})`,
      ].sort(),
    );
    assertEquals(here.includes("No exits."), false);
    const exit = await telnetReply(alice, "examine north");
    assertEquals(exit.includes("No exits."), false);
  }));

/** The dbref of what `name` matches for the player (`num()`). */
function num(t: Parameters<typeof telnetReply>[0], name: string): Promise<string> {
  return telnetReply(t, `think [num(${name})]`);
}

Deno.test("MUX words: @pemit, @remit and @oemit take lists and say Emit error(s)", () =>
  inGame(["Alice", "Bob"], async ({ alice, bob }) => {
    await telnetReply(alice, "@create Ball2");
    await telnetReply(alice, "@create Ball3");
    for (
      const [line, said] of [
        ["@pemit nobody=hi", "Emit error(s): nobody (unknown)"],
        ["@pemit nobody #9999=hi", "Emit error(s): nobody (unknown), #9999 (unknown)"],
        ["@pemit me nobody,me=hi", "hi\r\nEmit error(s): nobody (unknown)"],
        ["@pemit Ball=hi", "Emit error(s): Ball (ambiguous)"],
        ["@npemit nobody=hi", "Emit error(s): nobody (unknown)"],
        ["@remit nowhere=hi", "Emit error(s): nowhere (unknown)"],
        ["@oemit nobody=hi", "Emit error(s): nobody (unknown)"],
        // Nothing to send: silence, as MUX.
        ["@pemit me=[null(x)]", ""],
        ["@pemit [null(x)]=hi", ""],
      ]
    ) assertEquals(await telnetReply(alice, line), said, line);

    // The list reaches each one named once; the errors come after.
    let heard = bob.text.length;
    assertEquals(
      await telnetReply(alice, "@pemit Bob nobody Bob=psst"),
      "Emit error(s): nobody (unknown)",
    );
    assertEquals(await telnetReply(bob, "think done"), "done");
    assertEquals(bob.text.slice(heard).split("psst").length - 1, 1);
    // @oemit: the room of the first, except every one named.
    heard = bob.text.length;
    assertEquals(await telnetReply(alice, "@oemit Bob me=not for you"), "");
    assertEquals(await telnetReply(bob, "think done"), "done");
    assertEquals(bob.text.slice(heard).includes("not for you"), false);
  }));

Deno.test("MUX words: the room hears a thing picked up leave, before its @osucc; a puppet arrive", () =>
  inGame(["Alice", "Bob"], async ({ alice, bob }) => {
    await telnetReply(alice, "@create Widget");
    /** What Bob heard while Alice typed `line` (Alice's own reply checked). */
    const bobHears = async (line: string, said: string) => {
      const from = bob.text.length;
      assertEquals(await telnetReply(alice, line), said, line);
      assertEquals(await telnetReply(bob, "think done"), "done");
      return bob.text.slice(from).split("\r\n").filter((l) => l && !/done|end of reply/.test(l));
    };
    assertEquals(await bobHears("drop Widget", "Dropped."), ["Alice dropped Widget."]);
    assertEquals(await bobHears("get Widget", "Taken."), ["Widget has left."]);
    await telnetReply(alice, "@osucc Widget=picks up the widget.");
    await telnetReply(alice, "@odrop Widget=drops the widget.");
    assertEquals(await bobHears("drop Widget", "Dropped."), ["Alice drops the widget."]);
    assertEquals(await bobHears("get Widget", "Taken."), [
      "Widget has left.",
      "Alice picks up the widget.",
    ]);
    // A dark thing, or a thing in a dark room, leaves unheard (its @osucc is still told).
    await telnetReply(alice, "@set Widget=dark");
    await telnetReply(alice, "drop Widget");
    assertEquals(await bobHears("get Widget", "Taken."), ["Alice picks up the widget."]);
    await telnetReply(alice, "@set Widget=!dark");
    // A puppet hears, so it is heard arriving when dropped, and leaving even when dark.
    await telnetReply(alice, "@set Widget=puppet");
    assertEquals(await bobHears("drop Widget", "Dropped."), [
      "Widget has arrived.",
      "Alice drops the widget.",
    ]);
    await telnetReply(alice, "@set Widget=dark");
    assertEquals(await bobHears("get Widget", "Taken."), [
      "Widget has left.",
      "Alice picks up the widget.",
    ]);
  }));

Deno.test("MUX words: loc() of an exit is where it leads; @unlock says Unlocked.", () =>
  inGame(["Alice"], async ({ alice }) => {
    const here = await telnetReply(alice, "think [loc(me)]");
    const garden = /#\d+/.exec(await telnetReply(alice, "@dig Garden=North;n,South;s"))![0];
    assertEquals(
      await telnetReply(alice, "think [loc(north)] [where(north)] [home(north)] [rloc(north,1)]"),
      `${garden} ${here} ${here} ${garden}`,
    );
    await telnetReply(alice, "@open Dangle");
    assertEquals(await telnetReply(alice, "think [loc(Dangle)] [where(Dangle)]"), `#-1 ${here}`);

    await telnetReply(alice, "@create Widget");
    await telnetReply(alice, "@lock Widget=me");
    assertEquals(await telnetReply(alice, "@unlock Widget"), "Unlocked.");
    assertEquals(await telnetReply(alice, "@unlock Widget"), "Unlocked.");
    assertEquals(await telnetReply(alice, "@unlock/enter Widget"), "Unlocked.");
  }));

Deno.test("MUX words: page confirms without a full stop and names several recipients to each", () =>
  inGame(["Alice", "Bob", "Carol"], async ({ alice, bob, carol }) => {
    /** Alice pages: her reply, and what Bob and Carol heard meanwhile. */
    const page = async (line: string) => {
      const from = [bob.text.length, carol.text.length];
      const said = await telnetReply(alice, line);
      const heard = [];
      for (const [i, t] of [bob, carol].entries()) {
        assertEquals(await telnetReply(t, "think done"), "done");
        heard.push(
          t.text.slice(from[i]).split("\r\n").filter((l) => l && !/done|end of reply/.test(l))
            .join("|"),
        );
      }
      return [said, ...heard];
    };
    assertEquals(await page("page Bob=hi"), ["You paged Bob with 'hi'", "Alice pages: hi", ""]);
    assertEquals(await page("page Bob=:waves"), [
      "Long distance to Bob: Alice waves",
      "From afar, Alice waves",
      "",
    ]);
    assertEquals(await page("page Bob Carol=both"), [
      "You paged (Bob, Carol) with 'both'",
      "To (Bob, Carol), Alice pages: both",
      "To (Bob, Carol), Alice pages: both",
    ]);
    assertEquals(await page("page Bob, Carol=:waves"), [
      "Long distance to (Bob, Carol): Alice waves",
      "From afar, to (Bob, Carol): Alice waves",
      "From afar, to (Bob, Carol): Alice waves",
    ]);
  }, { builder: false }));

Deno.test("MUX words: a wizard's dark inherit puppet comes and goes unheard; a puppet given is heard arriving", async () => {
  // TinyMUX 2.12: a dark thing that is a wizard (set inherit by a wizard owner: MUX's Wizard()
  // and Can_Dark) is never heard leaving or arriving, though it hears; a dark puppet that is not
  // a wizard is (its DARK does not hold: MUX's Dark() of a puppet needs Can_Dark).
  const srv = await startSupervised({});
  const open: TelnetClient[] = [];
  try {
    await register(srv.base, "Bob");
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    open.push(admin);
    const bob = await telnetLogin(srv, "Bob", "password123");
    open.push(bob);
    /** What Bob heard while the superuser typed `line` (its own reply checked). */
    const bobHears = async (line: string, said: string) => {
      const from = bob.text.length;
      assertEquals(await telnetReply(admin, line), said, line);
      assertEquals(await telnetReply(bob, "think done"), "done");
      return bob.text.slice(from).split("\r\n").filter((l) => l && !/done|end of reply/.test(l));
    };
    await telnetReply(admin, "@create Widget");
    await telnetReply(admin, "@set Widget=puppet");
    await telnetReply(admin, "@set Widget=dark");
    assertEquals(await bobHears("drop Widget", "Dropped."), [
      "Widget has arrived.",
      "Admin dropped Widget.",
    ]);
    assertEquals(await bobHears("get Widget", "Taken."), ["Widget has left."]);
    await telnetReply(admin, "@set Widget=inherit");
    assertEquals(await bobHears("drop Widget", "Dropped."), ["Admin dropped Widget."]);
    assertEquals(await bobHears("get Widget", "Taken."), []);
    await telnetReply(admin, "@set *Bob=enter_ok");
    assertEquals(await bobHears("give Bob=Widget", "Given.\r\nWidget> Admin gave you to Bob."), [
      "Admin gave you Widget.",
    ]);
    assertEquals(await telnetReply(bob, "give Admin=Widget"), "Permission denied.");
    assertEquals(await telnetReply(bob, "drop Widget"), "Dropped.");
    assertEquals(await telnetReply(admin, "@set Widget=!inherit"), "Cleared.");
    assertEquals(await telnetReply(admin, "@set Widget=!dark"), "Cleared.");
    await telnetReply(admin, "get Widget");
    assertEquals(await bobHears("give Bob=Widget", "Given.\r\nWidget> Admin gave you to Bob."), [
      "Widget has arrived.",
      "Admin gave you Widget.",
    ]);
  } finally {
    for (const t of open) await t.close().catch(() => {});
    await srv.stop();
  }
});

Deno.test("MUX words: @teleport's rooms hear 'has left.' and 'has arrived.'; a dark wizard is not heard", async () => {
  // TinyMUX 2.12, side by side: `@tel *Obs=#0` tells the room left "Obs has left." and the room
  // reached "Obs has arrived."; a thing that does not hear is heard leaving only; a dark wizard
  // moving itself is heard by neither.
  const srv = await startSupervised({});
  const open: TelnetClient[] = [];
  try {
    await register(srv.base, "Bob");
    await register(srv.base, "Cat");
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    const bob = await telnetLogin(srv, "Bob", "password123");
    const cat = await telnetLogin(srv, "Cat", "password123");
    open.push(admin, bob, cat);
    const garden = /#\d+/.exec(await telnetReply(admin, "@dig Garden"))![0];
    const limbo = await telnetReply(admin, "think [loc(me)]");
    /** What Cat (staying in the first room) heard while the superuser typed `line`. */
    const catHears = async (line: string) => {
      const from = cat.text.length;
      await telnetReply(admin, line);
      assertEquals(await telnetReply(cat, "think done"), "done");
      return cat.text.slice(from).split("\r\n").filter((l) => l && !/done|end of reply/.test(l));
    };
    assertEquals(await catHears(`@tel *Bob=${garden}`), ["Bob has left."]);
    assertEquals(await catHears(`@tel *Bob=${limbo}`), ["Bob has arrived."]);
    const rock = /#\d+/.exec(await telnetReply(admin, "@create Rock"))![0];
    await telnetReply(admin, "drop Rock");
    assertEquals(await catHears(`@tel Rock=${garden}`), ["Rock has left."]);
    // Back, unheard (it does not hear), but back all the same.
    assertEquals(await catHears(`@tel ${rock}=${limbo}`), []);
    assertEquals(await telnetReply(cat, "think [loc(" + rock + ")]"), limbo);
    await telnetReply(admin, "@set me=dark");
    assertEquals(await catHears(`@tel me=${garden}`), []);
    assertEquals(await catHears(`@tel me=${limbo}`), []);
    await telnetReply(admin, "@set me=!dark");
    assertEquals(await catHears(`@tel me=${garden}`), ["Admin has left."]);
  } finally {
    for (const t of open) await t.close().catch(() => {});
    await srv.stop();
  }
});

Deno.test("MUX words: a quiet builder is not told Name set., Locked., Set., Linked., Parent set., Wiped.", () =>
  inGame(["Alice"], async ({ alice }) => {
    // TinyMUX 2.12 with `@set me=quiet`: each of these answers nothing; what is made or shown
    // still is (`@dig`'s and `@open`'s lines), and refusals are.
    await telnetReply(alice, "@create Widget");
    await telnetReply(alice, "@create Base");
    assertEquals(await telnetReply(alice, "@set me=quiet"), "");
    for (
      const line of [
        "@name Widget=Gadget",
        "@lock Gadget=me",
        "@unlock Gadget",
        "@desc Gadget=shiny",
        "&note Gadget=hi",
        "@lock Gadget/note",
        "@unlock Gadget/note",
        "@set Gadget=note:again",
        "@osucc Gadget=takes it.",
        "@parent Gadget=Base",
        "@link Gadget=here",
        "@wipe Gadget",
        "@doing busy",
      ]
    ) assertEquals(await telnetReply(alice, line), "", line);
    assertEquals(await telnetReply(alice, "@name Nothing=x"), "I don't see that here.");
    assertEquals(await telnetReply(alice, "@set me=!quiet"), "Cleared.");
    assertEquals(await telnetReply(alice, "@name Gadget=Widget"), "Name set.");
    assertEquals(await telnetReply(alice, "@unlock Widget"), "Unlocked.");
  }));

Deno.test("MUX words: @teleport's and tel()'s refusals, in TinyMUX 2.12's order", () =>
  inGame(["Obs"], async ({ obs }) => {
    const here = await telnetReply(obs, "think [loc(me)]");
    await telnetReply(obs, "@create ObsBox");
    for (
      const [line, said] of [
        ["think [tel(me,me)]", "Bad destination."],
        ["@tel ObsBox=ObsBox", "Bad destination."],
        [`think [tel(${here},me)]`, "You can't teleport that."],
        ["@tel here=me", "You can't teleport that."],
        [`think [tel(me,${here})]`, "You can't teleport there!"],
        ["@tel me=nosuch", "No match."],
        ["think [tel(me,nosuch)]", "No match."],
      ]
    ) assertEquals(await telnetReply(obs, line), said, line);
  }));
