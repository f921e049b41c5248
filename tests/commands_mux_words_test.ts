/**
 * What a player or builder meets in the first hour, in TinyMUX 2.12's words and layouts (the
 * same lines typed on both over telnet): `@set`'s `Set.`/`Cleared.` and its refusals; moving
 * and building (`Locked.`, `Teleported.`, exits teleported, a puppet's new room, who is heard
 * coming and going, `home`).
 */
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { register } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin, telnetReply } from "./supervised.ts";
import type { TelnetClient } from "./telnet_client.ts";

/**
 * A reply without the view a puppet moved by hand relays (`Widget> ` lines, but those `said`
 * has): what the command itself says.
 */
function withoutView(reply: string, said: string): string {
  const kept = said.split("\r\n");
  return reply.split("\r\n").filter((l) => !l.startsWith("Widget> ") || kept.includes(l))
    .join("\r\n");
}

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

Deno.test("MUX words: remit() and @remit out of reach are too far, beside but not a room denied", () =>
  inGame(["Alice", "Bob"], async ({ alice, bob }) => {
    const heard = () => telnetReply(bob, "think done").then(() => bob.text);
    await telnetReply(alice, "@dig Far");
    await telnetReply(alice, "@tel Far");
    let from = (await heard()).length;
    // TinyMUX 2.12 (do_pemit_single, defaults): the executor is told; nothing is sent.
    for (const line of ["think remit(#1,psst)", "@remit #1=psst"]) {
      assertEquals(await telnetReply(alice, line), "You are too far away to do that.", line);
    }
    await telnetReply(alice, "home");
    for (const line of ["think remit(*Bob,psst)", "@remit *Bob=psst"]) {
      assertEquals(await telnetReply(alice, line), "Permission denied.", line);
    }
    assertEquals((await heard()).slice(from).includes("psst"), false, "Bob heard nothing");
    // The room one stands in is reached (a decision: docs/softcode.md).
    from = (await heard()).length;
    assertEquals(await telnetReply(alice, "think remit(here,rumble)"), "rumble");
    assert((await heard()).slice(from).includes("rumble"));
  }));

Deno.test("MUX words: the room hears a thing picked up leave, before its @osucc; a puppet arrive", () =>
  inGame(["Alice", "Bob"], async ({ alice, bob }) => {
    await telnetReply(alice, "@create Widget");
    /** What Bob heard while Alice typed `line` (Alice's own reply checked). */
    const bobHears = async (line: string, said: string) => {
      const from = bob.text.length;
      assertEquals(withoutView(await telnetReply(alice, line), said), said, line);
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
      assertEquals(withoutView(await telnetReply(admin, line), said), said, line);
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

Deno.test("MUX words: a thing teleported out of a player's hands is heard leaving by the player", () =>
  inGame(["Alice", "Bob"], async ({ alice, bob }) => {
    // TinyMUX 2.12 (process_leave_loc: notify_except2 tells the place left, here the holder):
    // the holder hears "<thing> has left." before "Teleported.", listening or not; the room
    // the holder stands in hears nothing; the room reached hears a listening thing arrive.
    const far = /#\d+/.exec(await telnetReply(alice, "@dig Far"))![0];
    await telnetReply(alice, `@set ${far}=jump_ok`);
    await telnetReply(bob, `@tel ${far}`);
    await telnetReply(alice, "@create Ear");
    await telnetReply(alice, "@listen Ear=*");
    await telnetReply(alice, "@create Stone");
    const bobHears = (line: string, said: string) =>
      heardWhile(bob, async () => assertEquals(await telnetReply(alice, line), said, line));
    assertEquals(await bobHears(`@tel Stone=${far}`, "Stone has left.\r\nTeleported."), []);
    assertEquals(await bobHears(`@tel Ear=${far}`, "Ear has left.\r\nTeleported."), [
      "Ear has arrived.",
    ]);
    // tel() moves the same way.
    await telnetReply(alice, "@create Ear2");
    await telnetReply(alice, "@listen Ear2=*");
    assertEquals(
      await bobHears(`think [tel(Ear2,${far})]`, "Ear2 has left.\r\nTeleported."),
      ["Ear2 has arrived."],
    );
  }));

/** What `t` heard while `act` ran (its own marker checked), one line an entry. */
async function heardWhile(t: TelnetClient, act: () => Promise<unknown>): Promise<string[]> {
  const from = t.text.length;
  await act();
  assertEquals(await telnetReply(t, "think done"), "done");
  return t.text.slice(from).split("\r\n").filter((l) => l && !/done|end of reply/.test(l));
}

Deno.test("MUX words: Locked., Teleported. (nothing for home), Parent cleared.; a quiet object", () =>
  inGame(["Alice"], async ({ alice }) => {
    // TinyMUX 2.12: @lock and @tel say one word; @tel <x>=home says nothing; @parent <x>= says
    // "Parent cleared." with or without a parent; an object set quiet spares its changer too.
    const garden = /#\d+/.exec(await telnetReply(alice, "@dig Garden"))![0];
    await telnetReply(alice, "@create Widget");
    await telnetReply(alice, "drop Widget");
    for (
      const [line, said] of [
        ["@lock Widget=me", "Locked."],
        ["@lock/enter Widget=me|#1", "Locked."],
        ["@unlock Widget", "Unlocked."],
        ["@parent Widget=", "Parent cleared."],
        // Alice hears it go, as MUX's wizard did.
        [`@tel Widget=${garden}`, "Widget has left.\r\nTeleported."],
        [`think [tel(Widget,here)]`, "I don't see that here."],
        [`@tel ${garden}=me`, "You can't teleport that."],
      ]
    ) assertEquals(await telnetReply(alice, line), said, line);
    const widget = await telnetReply(alice, `think [lcon(${garden})]`);
    assertEquals(await telnetReply(alice, `@tel ${widget}=home`), "");
    assertEquals(
      await telnetReply(alice, `think [loc(${widget})]`),
      await telnetReply(alice, "think [loc(me)]"),
    );
    assertEquals(
      await telnetReply(alice, `think [tel(${widget},${garden})]`),
      "Widget has left.\r\nTeleported.",
    );
    assertEquals(await telnetReply(alice, `think [tel(${widget},home)]`), "");
    // A thing that comes to hear says so where it is, before the answer; @sex picks the pronoun.
    assertEquals(
      await telnetReply(alice, `@set ${widget}=puppet`),
      "Widget grows ears and can now hear.\r\nSet.",
    );
    assertEquals(await telnetReply(alice, `@set ${widget}=puppet`), "Set.");
    await telnetReply(alice, `&sex ${widget}=female`);
    assertEquals(
      await telnetReply(alice, `@set ${widget}=!puppet`),
      "Widget loses her ears and becomes deaf.\r\nCleared.",
    );
    // The object quiet: nothing said of a name, a lock, a parent; a flag still is (MUX).
    assertEquals(await telnetReply(alice, `@set ${widget}=quiet`), "Set.");
    const quietly = [`@name ${widget}=Gadget`, `@lock ${widget}=me`, `@unlock ${widget}`];
    for (const line of [...quietly, `&note ${widget}=hi`, `@osucc ${widget}=takes it.`]) {
      assertEquals(await telnetReply(alice, line), "", line);
    }
    assertEquals(await telnetReply(alice, `@parent ${widget}=`), "");
    assertEquals(await telnetReply(alice, `@set ${widget}=!quiet`), "Cleared.");
    assertEquals(await telnetReply(alice, `think [name(${widget})]`), "Gadget");
  }));

Deno.test("MUX words: an exit is teleported to another room, its indexes kept, under MUX's refusals", async () => {
  const srv = await startSupervised({});
  const open: TelnetClient[] = [];
  try {
    await register(srv.base, "Alice");
    await register(srv.base, "Bob");
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    const alice = await telnetLogin(srv, "Alice", "password123");
    const bob = await telnetLogin(srv, "Bob", "password123");
    open.push(admin, alice, bob);
    await telnetReply(admin, "@set *Alice=builder");
    const limbo = await telnetReply(alice, "think [loc(me)]");
    const dig = async (name: string, who = alice) =>
      /#\d+/.exec(await telnetReply(who, `@dig ${name}`))![0];
    const hall = await dig("Hall");
    const yard = await dig("Yard");
    const garden = await dig("Garden");
    await telnetReply(alice, `@tel me=${hall}`);
    assertEquals(await telnetReply(alice, `@open Door;d=${garden}`), "Opened.\r\nLinked.");
    const door = await telnetReply(alice, "think [num(Door)]");
    // Nobody in either room hears an exit move.
    await telnetReply(admin, `@tel me=${yard}`);
    assertEquals(
      await heardWhile(
        admin,
        async () => assertEquals(await telnetReply(alice, `@tel Door=${yard}`), "Teleported."),
      ),
      [],
    );
    assertEquals(
      await telnetReply(alice, `think [lexits(${hall})]|[lexits(${yard})]|[entrances(${garden})]`),
      `|${door}|${door}`,
    );
    // It leads out of the Yard now, to the Garden still.
    await telnetReply(alice, `@tel me=${yard}`);
    assertMatch(await telnetReply(alice, "d"), /^Garden\(/);
    assertEquals(await telnetReply(alice, "think [loc(me)]"), garden);
    // MUX's refusals, and nothing moves.
    const plaza = await dig("Plaza", admin);
    for (
      const [line, said] of [
        [`@tel ${door}=home`, "Bad destination."],
        [`@tel ${door}=${door}`, "Bad destination."],
        [`@tel ${door}=me`, "Bad destination."],
        [`@tel ${door}=${yard}`, "Door is already there."],
        [`@tel ${door}=${limbo}`, "Permission denied."],
        [`@tel ${door}=${plaza}`, "Permission denied."],
        [`think [tel(${door},${plaza})]`, "Permission denied."],
      ]
    ) assertEquals(await telnetReply(alice, line), said, line);
    assertEquals(await telnetReply(bob, `@tel ${door}=${limbo}`), "Permission denied.");
    assertEquals(await telnetReply(alice, `think [lexits(${yard})]`), door);
    // A jump_ok room takes it when it also takes the builder's exits (open_ok), as MUX.
    await telnetReply(admin, `@set ${plaza}=jump_ok`);
    assertEquals(await telnetReply(alice, `@tel ${door}=${plaza}`), "Permission denied.");
    await telnetReply(admin, `@set ${plaza}=open_ok`);
    assertEquals(await telnetReply(alice, `@tel ${door}=${plaza}`), "Teleported.");
    // By softcode too, at once.
    assertEquals(
      await telnetReply(alice, `think [tel(${door},${hall})][lexits(${hall})]|[lexits(${plaza})]`),
      `Teleported.\r\n${door}|`,
    );
    await telnetReply(alice, `@tel me=${hall}`);
    assertMatch(await telnetReply(alice, "door"), /^Garden\(/);
  } finally {
    for (const t of open) await t.close().catch(() => {});
    await srv.stop();
  }
});

Deno.test("MUX words: a puppet that moves shows its owner its new room, each line after its name", () =>
  inGame(["Alice"], async ({ alice }) => {
    const garden = /#\d+/.exec(await telnetReply(alice, "@dig Garden"))![0];
    await telnetReply(alice, `@desc ${garden}=Green and quiet.`);
    await telnetReply(alice, "@create Pup");
    await telnetReply(alice, "@set Pup=puppet");
    await telnetReply(alice, "drop Pup");
    const pup = await telnetReply(alice, "think [num(Pup)]");
    // TinyMUX 2.12: `@tel Pup=<room>` shows its owner the look, "Pup> " before each line.
    // Alice, in the room it leaves, hears it go first; the look, then her answer.
    const seen = (await telnetReply(alice, `@tel Pup=${garden}`)).split("\r\n");
    assertEquals([seen[0], seen.at(-1)], ["Pup has left.", "Teleported."]);
    assertMatch(seen[1], /^Pup> Garden\(#\d+/);
    assert(seen.includes("Pup> Green and quiet."), seen.join("|"));
    assert(seen.slice(1, -1).every((l) => l.startsWith("Pup> ")), seen.join("|"));
    // Sent home, and forced home: the look (after home's three lines), then her room hears it
    // arrive.
    const home = (await telnetReply(alice, `@tel ${pup}=home`)).split("\r\n");
    assertMatch(home[0], /^Pup> Limbo/);
    assertEquals(home.at(-1), "Pup has arrived.");
    assert(home.slice(0, -1).every((l) => l.startsWith("Pup> ")), home.join("|"));
    await telnetReply(alice, `@tel ${pup}=${garden}`);
    // A forced line is queued: its output comes when it runs.
    const queued = alice.mark();
    await alice.send(`@force ${pup}=home`);
    const ran = await alice.waitFor(/([\s\S]*)\r\nPup has arrived\./, 10_000, queued);
    const forced = [...ran[1].split("\r\n").filter((l) => l.startsWith("Pup")), "Pup has arrived."];
    assertEquals(forced.slice(0, 3), Array(3).fill("Pup> There's no place like home..."));
    assertMatch(forced[3], /^Pup> Limbo/);
    assertEquals(forced.at(-1), "Pup has arrived.");
    assert(forced.slice(0, -1).every((l) => l.startsWith("Pup> ")), forced.join("|"));
    // Dropped, picked up, given: it looks where it lands, as MUX's move does.
    const taken = (await telnetReply(alice, "get Pup")).split("\r\n");
    // The taker is not told it left (MUX); it looks at who holds it.
    assertMatch(taken[0], /^Pup> Alice/);
    assertEquals(taken.at(-1), "Taken.");
    const dropped = (await telnetReply(alice, "drop Pup")).split("\r\n");
    // The dropper is not told it arrived (MUX); it is not among what it sees.
    assertMatch(dropped[0], /^Pup> Limbo/);
    assertEquals(dropped.at(-1), "Dropped.");
    assert(!dropped.some((l) => /Contents:.*Pup/.test(l)), dropped.join("|"));
    // tel() shows it too (once the look is made).
    const from = alice.mark();
    await alice.send(`think [tel(${pup},${garden})]`);
    await alice.waitFor(/Pup> Green and quiet\./, 10_000, from);
  }));

Deno.test("MUX words: a player teleported while offline is heard leaving, never arriving; home", async () => {
  // TinyMUX 2.12: Hearer() is a connected player (or a puppet): Carol, offline, is heard leaving a
  // place that is not dark and never arriving; Bob, connected, both. `home` tells the place left
  // "Bob goes home." first, and Bob "There's no place like home..." three times, home or not.
  const srv = await startSupervised({});
  const open: TelnetClient[] = [];
  try {
    await register(srv.base, "Bob");
    await register(srv.base, "Cat");
    await register(srv.base, "Carol");
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    const bob = await telnetLogin(srv, "Bob", "password123");
    const cat = await telnetLogin(srv, "Cat", "password123");
    open.push(admin, bob, cat);
    const den = /#\d+/.exec(await telnetReply(admin, "@dig Den"))![0];
    const limbo = await telnetReply(admin, "think [loc(me)]");
    const catHears = (line: string) => heardWhile(cat, () => telnetReply(admin, line));
    assertEquals(await catHears(`@tel *Carol=${den}`), ["Carol has left."]);
    assertEquals(await catHears(`@tel *Carol=${limbo}`), []);
    await telnetReply(admin, `@tel *Carol=${den}`);
    assertEquals(await catHears("@tel *Carol=home"), []);
    await telnetReply(admin, `@tel *Carol=${den}`);
    assertEquals(await catHears("think [tel(*Carol,home)]"), []);
    assertEquals(await telnetReply(admin, "think [loc(*Carol)]"), limbo);
    // Offline in a dark room: not heard leaving it either.
    await telnetReply(admin, `@set ${limbo}=dark`);
    assertEquals(await catHears(`@tel *Carol=${den}`), []);
    await telnetReply(admin, `@set ${limbo}=!dark`);
    // Connected: heard both ways.
    assertEquals(await catHears(`@tel *Bob=${den}`), ["Bob has left."]);
    assertEquals(await catHears(`@tel *Bob=${limbo}`), ["Bob has arrived."]);
    // home: the place left hears Bob go home, then leave.
    await telnetReply(admin, `@tel *Bob=${den}`);
    await telnetReply(admin, `@tel me=${den}`);
    const catFrom = cat.text.length;
    const said = await heardWhile(admin, async () => {
      const home = (await telnetReply(bob, "home")).split("\r\n");
      assertEquals(home.slice(0, 3), Array(3).fill("There's no place like home..."));
      assertMatch(home[3], /^Limbo/);
    });
    assertEquals(said, ["Bob goes home.", "Bob has left."]);
    assertEquals(await telnetReply(cat, "think done"), "done");
    assertMatch(cat.text.slice(catFrom), /Bob has arrived\./);
    // Home already: the same words and the room again, never "You are already home.".
    const again = (await telnetReply(bob, "home")).split("\r\n");
    assertEquals(again.slice(0, 3), Array(3).fill("There's no place like home..."));
    assertMatch(again[3], /^Limbo/);
  } finally {
    for (const t of open) await t.close().catch(() => {});
    await srv.stop();
  }
});

Deno.test("MUX words: a thing teleported into one's own hands, or a jump_ok player's", () =>
  inGame(["Alice", "Bob"], async ({ alice, bob }) => {
    // TinyMUX 2.12 (do_teleport_single: a player has contents, so it may be a destination; one
    // needs to control it, or it is jump_ok and the thing passes its teleport lock): the room
    // left hears "<thing> has left." (the teleporter in it too); the holder hears "<thing> has
    // arrived." only when the thing listens; then "Teleported.".
    await telnetReply(alice, "@create Box");
    await telnetReply(alice, "drop Box");
    const box = await telnetReply(alice, "think [num(Box)]");
    const me = await telnetReply(alice, "think [num(me)]");
    const bobHears = (line: string, said: string) =>
      heardWhile(bob, async () => assertEquals(await telnetReply(alice, line), said, line));
    assertEquals(await bobHears("@tel Box=me", "Box has left.\r\nTeleported."), [
      "Box has left.",
    ]);
    assertEquals(await telnetReply(alice, `think [loc(${box})]`), me);
    await telnetReply(alice, "drop Box");
    await telnetReply(alice, "@listen Box=*");
    assertEquals(
      await bobHears("@tel Box=me", "Box has left.\r\nBox has arrived.\r\nTeleported."),
      ["Box has left."],
    );
    await telnetReply(alice, "drop Box");
    // Bob's hands: neither controlled by Alice nor jump_ok, then jump_ok, then locked.
    assertEquals(await bobHears("@tel Box=*Bob", "Permission denied."), []);
    assertEquals(await telnetReply(bob, "@set me=jump_ok"), "Set.");
    assertEquals(await bobHears("@tel Box=*Bob", "Box has left.\r\nTeleported."), [
      "Box has left.",
      "Box has arrived.",
    ]);
    assertEquals(await telnetReply(bob, "drop Box"), "Dropped.");
    assertEquals(await telnetReply(bob, "@lock/teleport me=me"), "Locked.");
    // Refused by the lock: Alice is told "Permission denied.", Box (not Alice) @tfail's default.
    assertEquals(await bobHears("@tel Box=*Bob", "Permission denied."), []);
    assertEquals(await telnetReply(bob, "@unlock/teleport me"), "Unlocked.");
    // A player into a player is refused here (MUX moves one there: a player standing inside
    // another is a place this engine's rooms and speech do not know).
    assertEquals(
      await telnetReply(alice, "@tel me=*Bob"),
      "A player cannot be teleported into a player.",
    );
    assertEquals(
      await telnetReply(alice, "think [tel(me,*Bob)]"),
      "A player cannot be teleported into a player.",
    );
  }));

Deno.test("MUX words: a thing teleported out of a puppet's or a listening thing's hands", () =>
  inGame(["Alice", "Bob"], async ({ alice, bob }) => {
    // TinyMUX 2.12 (notify_except2 tells the place left itself, MSG_ME): a puppet holding it
    // relays "<puppet>> <thing> has left." to its owner, wherever the owner is; a listening
    // holder's @listen hears it (@ahear runs); nobody else there hears a thing that does not
    // listen leave it.
    // Alice stands in a room of her own: she may teleport things into it.
    const home = /#\d+/.exec(await telnetReply(alice, "@dig Home"))![0];
    await telnetReply(alice, `@tel ${home}`);
    const far = /#\d+/.exec(await telnetReply(alice, "@dig Far"))![0];
    await telnetReply(alice, `@set ${far}=jump_ok`);
    await telnetReply(bob, `@tel ${far}`);
    const made = async (name: string) =>
      /#\d+/.exec(await telnetReply(alice, `@create ${name}`))![0];
    const puppy = await made("Puppy"), stone = await made("Stone");
    const ear = await made("Ear"), pebble = await made("Pebble");
    await telnetReply(alice, `@set ${puppy}=puppet`);
    await telnetReply(alice, `@tel ${stone}=${puppy}`);
    await telnetReply(alice, `@listen ${ear}=*`);
    await telnetReply(alice, `@ahear ${ear}=@pemit *Alice=Ear heard: %0`);
    await telnetReply(alice, `@tel ${pebble}=${ear}`);
    await telnetReply(alice, `@tel ${puppy}=${far}`);
    await telnetReply(alice, `@tel ${ear}=${far}`);
    const bobHears = (line: string, said: string) =>
      heardWhile(bob, async () => assertEquals(await telnetReply(alice, line), said, line));
    assertEquals(
      await bobHears(`@tel ${stone}=here`, "Puppy> Stone has left.\r\nTeleported."),
      [],
    );
    assertEquals(await bobHears(`@tel ${pebble}=here`, "Teleported."), []);
    await alice.waitFor(/Ear heard: Pebble has left\./);
  }));
