/**
 * Who hears what, as TinyMUX 2.12's notify_check and move.cpp have it, over telnet (docs/
 * commands.md, "Who hears"): a puppet relays what is shown where it is unless its owner is there
 * or carries it; an object with a `@listen` (or a monitor with `^-listens`) hears movement and is
 * heard moving; what is in something destroyed goes home heard. Each was compared with a
 * throwaway TinyMUX 2.12 typing the same lines.
 */
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { register, type TestServer } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin, telnetReply } from "./supervised.ts";
import type { TelnetClient } from "./telnet_client.ts";

/** The players of one test by name in lower case (the superuser as `admin`), on telnet. */
type Players = Record<string, TelnetClient>;

/**
 * Runs `body` in a game of its own: `names` registered and logged in over telnet beside the
 * superuser, the first of them made a builder. Everything is closed after, whatever happened.
 */
async function inGame(
  names: string[],
  body: (players: Players, srv: TestServer) => Promise<void>,
): Promise<void> {
  const srv = await startSupervised({});
  const open: TelnetClient[] = [];
  try {
    for (const name of names) await register(srv.base, name);
    const players: Players = { admin: await telnetLogin(srv, ADMIN.name, ADMIN.password) };
    open.push(players.admin);
    for (const name of names) {
      const t = await telnetLogin(srv, name, "password123");
      open.push(t);
      players[name.toLowerCase()] = t;
    }
    assertEquals(await telnetReply(players.admin, `@set *${names[0]}=builder`), "Set.");
    await body(players, srv);
  } finally {
    for (const t of open) await t.close().catch(() => {});
    await srv.stop();
  }
}

/** What `t` is shown while `act` runs (synchronised by a reply of its own after), line by line. */
async function heardWhile(t: TelnetClient, act: () => Promise<unknown>): Promise<string[]> {
  const from = t.mark();
  await act();
  assertEquals(await telnetReply(t, "think done"), "done");
  return t.plain.slice(from).split("\r\n").filter((l) => l && !/^done$|end of reply/.test(l));
}

/** The dbref in a reply (`Garden created as room #5.`). */
function dbref(reply: string): string {
  return /#\d+/.exec(reply)![0];
}

Deno.test("MUX hearing: a puppet relays what is shown where it is, unless its owner is there or holds it", () =>
  inGame(["Alice", "Bob"], async ({ admin, alice, bob }) => {
    const limbo = await telnetReply(admin, "think [loc(me)]");
    const garden = dbref(await telnetReply(admin, "@dig Garden"));
    await telnetReply(alice, "@create Pup");
    await telnetReply(alice, "@set Pup=puppet");
    await telnetReply(alice, "drop Pup");
    const pup = await telnetReply(alice, "think [num(Pup)]");
    await telnetReply(admin, `@tel ${pup}=${garden}`);
    await telnetReply(admin, `@tel *Bob=${garden}`);
    // TinyMUX 2.12: Pup in the Garden, Alice in Limbo: what the Garden hears reaches her.
    const through = (line: string) => heardWhile(alice, () => telnetReply(bob, line));
    assertEquals(await through("say hello"), ['Pup> Bob says, "hello"']);
    assertEquals(await through(":waves."), ["Pup> Bob waves."]);
    assertEquals(await through("@emit A leaf falls."), ["Pup> A leaf falls."]);
    // Alice there too: she hears it once, as herself.
    await telnetReply(admin, `@tel *Alice=${garden}`);
    assertEquals(await through("say again"), ['Bob says, "again"']);
    // Alice picks Pup up: it is told "Taken." too (MUX's do_get), and relays it. Held, what
    // the Garden hears reaches her once, as herself.
    const taken = (await telnetReply(alice, "get Pup")).split("\r\n");
    assertMatch(taken[0], /^Pup> Alice/);
    assertEquals(taken.slice(-2), ["Pup> Taken.", "Taken."]);
    assertEquals(await through("say held"), ['Bob says, "held"']);
    // Alice in Limbo with Pup in her hands: nothing from the Garden reaches her.
    await telnetReply(admin, `@tel *Alice=${limbo}`);
    assertEquals(await through("say far"), []);
    // Its own acts still reach her, as what it is told.
    assertEquals(
      await heardWhile(alice, async () => {
        const m = alice.mark();
        await alice.send(`@force ${pup}=say from the pocket`);
        await alice.waitFor(/Pup says, "from the pocket"/, 10_000, m);
      }),
      ['Pup> You say, "from the pocket"', 'Pup says, "from the pocket"'],
    );
    // Dropped: told "Dropped." after its look. Bob holds it in the Garden: nothing of the
    // Garden reaches Alice (what reaches a player is not passed to what it carries).
    const dropped = (await telnetReply(alice, "drop Pup")).split("\r\n");
    assertEquals(dropped.slice(-2), ["Pup> Dropped.", "Dropped."]);
    await telnetReply(admin, `@tel ${pup}=${garden}`);
    const got = await heardWhile(alice, () => telnetReply(bob, "get Pup"));
    assertEquals(got.slice(-1), ["Pup> Taken."]);
    assertEquals(await through("say in hand"), []);
  }));

Deno.test("MUX hearing: @listen objects hear movement and are heard moving", () =>
  inGame(["Alice", "Bob"], async ({ admin, alice, bob }, srv) => {
    const limbo = await telnetReply(admin, "think [loc(me)]");
    const garden = dbref(await telnetReply(admin, "@dig Garden"));
    await telnetReply(admin, `@set ${garden}=jump_ok`);
    await telnetReply(admin, `@tel *Bob=${garden}`);
    // A greeter: `@listen` and `@ahear` on arrivals, `%#` the one that came.
    await telnetReply(alice, "@create Greeter");
    await telnetReply(alice, "drop Greeter");
    await telnetReply(alice, "@listen Greeter=* has arrived.");
    await telnetReply(alice, "@ahear Greeter=@emit Welcome, %0! ([name(%#)])");
    let from = alice.mark();
    await telnetReply(admin, `@tel *Bob=${limbo}`);
    await alice.waitFor(/Bob has arrived\.\r\nWelcome, Bob! \(Bob\)/, 10_000, from);
    // A monitor's ^-listen on departures.
    await telnetReply(alice, "@create Mon");
    await telnetReply(alice, "drop Mon");
    await telnetReply(alice, "@set Mon=monitor");
    await telnetReply(alice, "&bye Mon=^* has left.:@emit Bye, %0.");
    from = alice.mark();
    await telnetReply(admin, `@tel *Bob=${garden}`);
    await alice.waitFor(/Bob has left\.\r\nBye, Bob\./, 10_000, from);
    // Softcode's tel() is heard the same way.
    from = alice.mark();
    await telnetReply(admin, `think [tel(*Bob,${limbo})]`);
    await alice.waitFor(/Welcome, Bob! \(Bob\)/, 10_000, from);
    await telnetReply(admin, `@tel *Bob=${garden}`);

    // A thing with a @listen hears, so it is heard arriving, and leaving a dark place.
    await telnetReply(alice, "@create Ear");
    await telnetReply(alice, "@listen Ear=zzz");
    const ear = await telnetReply(alice, "think [num(Ear)]");
    await telnetReply(alice, "@create Stone");
    const stone = await telnetReply(alice, "think [num(Stone)]");
    const bobHears = (t: TelnetClient, line: string) => heardWhile(bob, () => telnetReply(t, line));
    assertEquals(await bobHears(alice, `@tel Ear=${garden}`), ["Ear has arrived."]);
    assertEquals(await bobHears(admin, `@tel ${ear}=${limbo}`), ["Ear has left."]);
    await telnetReply(admin, `@set ${garden}=dark`);
    assertEquals(await bobHears(alice, `@tel Ear=${garden}`), ["Ear has arrived."]);
    assertEquals(await bobHears(admin, `@tel ${ear}=${limbo}`), ["Ear has left."]);
    // A thing that does not listen is heard neither arriving nor leaving the dark place.
    assertEquals(await bobHears(alice, `@tel Stone=${garden}`), []);
    assertEquals(await bobHears(admin, `@tel ${stone}=${limbo}`), []);
    await telnetReply(admin, `@set ${garden}=!dark`);
    // Dropped where the greeter listens: heard arriving (by the greeter too, from the thing).
    await telnetReply(alice, "get Ear");
    from = alice.mark();
    const adminFrom = admin.mark();
    assertMatch(await telnetReply(alice, "drop Ear"), /Dropped\./);
    await admin.waitFor(/Ear has arrived\./, 10_000, adminFrom);
    await alice.waitFor(/Welcome, Ear! \(Ear\)/, 10_000, from);
    // An act's message to the others is the actor's: a @odrop heard, %# the dropper.
    await telnetReply(alice, "@listen Greeter=* sets down *");
    await telnetReply(alice, "@ahear Greeter=@emit Heard: %0 / %1 ([name(%#)])");
    await telnetReply(alice, "@odrop Stone=sets down a stone.");
    await telnetReply(alice, "get Stone");
    from = alice.mark();
    await telnetReply(alice, "drop Stone");
    await alice.waitFor(/Heard: Alice \/ a stone\. \(Alice\)/, 10_000, from);
    // "has connected." is the player's, heard by a greeter.
    await telnetReply(alice, "@listen Greeter=* has connected.");
    await telnetReply(alice, "@ahear Greeter=@emit Hi again, %0! ([name(%#)])");
    await telnetReply(admin, `@tel *Bob=${limbo}`);
    await bob.close();
    from = alice.mark();
    const again = await telnetLogin(srv, "Bob", "password123");
    try {
      await alice.waitFor(/Bob has connected\.\r\nHi again, Bob! \(Bob\)/, 10_000, from);
    } finally {
      await again.close();
    }
  }));

Deno.test("MUX hearing: what is in something destroyed goes home, seen and heard", () =>
  inGame(["Alice", "Bob", "Cat"], async ({ admin, alice, bob, cat }) => {
    const garden = dbref(await telnetReply(admin, "@dig Garden"));
    // Made in Limbo, so at home there.
    await telnetReply(alice, "@create Box");
    await telnetReply(alice, "@set Box=enter_ok");
    await telnetReply(alice, "@create Pup");
    await telnetReply(alice, "@set Pup=puppet");
    await telnetReply(alice, "@create Plain");
    for (const who of ["Alice", "Bob", "Cat"]) await telnetReply(admin, `@tel *${who}=${garden}`);
    await telnetReply(alice, "drop Box");
    await telnetReply(bob, "enter Box");
    await telnetReply(alice, "@tel Pup=Box");
    await telnetReply(alice, "@tel Plain=Box");
    const bobFrom = bob.mark();
    let catSaw: string[] = [];
    const adminSaw = await heardWhile(admin, async () => {
      // TinyMUX 2.12 (at its next check, or at once with /instant): the Garden hears the box
      // go, but not its owner; what was in it goes home, Pup showing Alice its home.
      catSaw = await heardWhile(cat, async () => {
        const said = (await telnetReply(alice, "@destroy Box")).split("\r\n");
        assertMatch(said[0], /^Pup> Limbo/);
        assert(said.slice(0, -1).every((l) => l.startsWith("Pup> ")), said.join("|"));
        assertMatch(said.at(-1)!, /^Destroyed Box\(#\d+\)\. 3 object\(s\) sent home\.$/);
      });
    });
    assertEquals(catSaw, ["Box has left."]);
    // Limbo hears those that hear arrive: Bob and Pup, not Plain.
    assertEquals(adminSaw.sort(), ["Bob has arrived.", "Pup has arrived."]);
    // Bob is shown his home.
    await bob.waitFor(/Limbo/, 10_000, bobFrom);
  }));

Deno.test("MUX hearing: a thing's @listen passes what it matched to what is inside it, after its @inprefix", () =>
  inGame(["Alice", "Bob", "Cat"], async ({ admin, alice, bob, cat }) => {
    const garden = dbref(await telnetReply(admin, "@dig Garden"));
    await telnetReply(alice, "@create Bus");
    const bus = await telnetReply(alice, "think [num(Bus)]");
    await telnetReply(alice, "@set Bus=enter_ok");
    await telnetReply(alice, "@listen Bus=*");
    await telnetReply(alice, "@inprefix Bus=On the bus:");
    await telnetReply(alice, "@create Pup");
    await telnetReply(alice, "@set Pup=puppet");
    await telnetReply(alice, "@tel Pup=Bus");
    await telnetReply(admin, `@tel ${bus}=${garden}`);
    for (const who of ["Bob", "Cat"]) await telnetReply(admin, `@tel *${who}=${garden}`);
    await telnetReply(cat, "enter Bus");
    /** What Cat (in the bus) and Alice (in Limbo, through Pup in the bus) see of Bob's line. */
    const inside = async (line: string) => {
      const from = [cat.mark(), alice.mark()];
      await telnetReply(bob, line);
      const seen = [];
      for (const [i, t] of [cat, alice].entries()) {
        assertEquals(await telnetReply(t, "think done"), "done");
        seen.push(
          t.plain.slice(from[i]).split("\r\n").filter((l) => l && !/^done$|end of reply/.test(l)),
        );
      }
      return seen;
    };
    // TinyMUX 2.12: the passengers hear the Garden, after the bus's @inprefix.
    assertEquals(await inside("say hello bus"), [
      ['On the bus: Bob says, "hello bus"'],
      ['Pup> On the bus: Bob says, "hello bus"'],
    ]);
    // Only what its @listen matches.
    await telnetReply(alice, `@listen ${bus}=*zzz*`);
    assertEquals(await inside("say hello again"), [[], []]);
  }));

Deno.test("MUX hearing: an @inprefix that emits where its thing listens is passed on 20 deep, not without end", () =>
  inGame(["Alice", "Bob"], async ({ alice, bob }) => {
    await telnetReply(alice, "@create Bus");
    await telnetReply(alice, "drop Bus");
    await telnetReply(alice, "@listen Bus=*");
    // Each pass evaluates the prefix, whose emit() the bus hears again at once.
    await telnetReply(alice, "@inprefix Bus=[emit(echo)]In:");
    const from = bob.mark();
    await telnetReply(bob, "say hi");
    assertEquals(await telnetReply(bob, "think done"), "done");
    const echoes = bob.plain.slice(from).split("\r\n").filter((l) => l === "echo");
    // MUX's ntfy_nest_lim: one echo for each pass within a pass, 20 of them (it was 400).
    assertEquals(echoes.length, 20);
  }));

Deno.test("MUX hearing: a thing made a puppet where it already is relays from then on, and stops when cleared", () =>
  inGame(["Alice", "Bob"], async ({ admin, alice, bob }) => {
    const garden = dbref(await telnetReply(admin, "@dig Garden"));
    await telnetReply(alice, "@create Pup");
    const pup = await telnetReply(alice, "think [num(Pup)]");
    await telnetReply(admin, `@tel ${pup}=${garden}`);
    // Bob's arrival is shown in the Garden, so the hearers there were worked out before the flag.
    await telnetReply(admin, `@tel *Bob=${garden}`);
    await telnetReply(bob, "say one");
    const relayed = async (line: string) => {
      const from = alice.mark();
      await telnetReply(bob, line);
      assertEquals(await telnetReply(alice, "think done"), "done");
      return alice.plain.slice(from).split("\r\n").filter((l) => l.startsWith("Pup> "));
    };
    assertMatch(await telnetReply(alice, `@set ${pup}=puppet`), /Set\.$/);
    assertEquals(await relayed("say two"), ['Pup> Bob says, "two"']);
    assertMatch(await telnetReply(alice, `@set ${pup}=!puppet`), /Cleared\.$/);
    assertEquals(await relayed("say three"), []);
  }));

Deno.test("MUX hearing: passes for one line are at most 100 in all, however many listening things pass it on", () =>
  inGame(["Alice", "Bob"], async ({ alice, bob }) => {
    for (const name of ["Bus", "Car", "Van"]) {
      await telnetReply(alice, `@create ${name}`);
      await telnetReply(alice, `drop ${name}`);
      await telnetReply(alice, `@listen ${name}=*`);
      await telnetReply(alice, `@inprefix ${name}=[emit(echo)]In:`);
    }
    const from = bob.mark();
    await telnetReply(bob, "say hi");
    assertEquals(await telnetReply(bob, "think done"), "done");
    const echoes = bob.plain.slice(from).split("\r\n").filter((l) => l === "echo");
    // Each of the three passes each echo on: 8,850 lines before the bound, 3^20 without time.
    assertEquals(echoes.length, 100);
  }));

Deno.test("MUX hearing: a line passed inside a listening thing still leaves out whom it left out", () =>
  inGame(["Alice", "Bob"], async ({ admin, alice, bob }) => {
    const garden = dbref(await telnetReply(admin, "@dig Garden"));
    await telnetReply(alice, "@create Bus");
    const bus = await telnetReply(alice, "think [num(Bus)]");
    await telnetReply(alice, "@set Bus=enter_ok");
    await telnetReply(alice, "@listen Bus=*");
    await telnetReply(alice, "@inprefix Bus=On the bus:");
    await telnetReply(alice, "@create Pup");
    await telnetReply(alice, "@set Pup=puppet");
    await telnetReply(alice, `@tel Pup=${bus}`);
    await telnetReply(admin, `@tel ${bus}=${garden}`);
    await telnetReply(admin, `@tel *Bob=${garden}`);
    // The Garden's "Bob has left." leaves Bob out, and is said once he is inside the bus, which
    // passes it on. TinyMUX 2.12 says it before the move, so Bob never hears himself leave; the
    // others in the bus do (Alice through her puppet).
    let bobSaw: string[] = [];
    const aliceSaw = await heardWhile(alice, async () => {
      bobSaw = await heardWhile(bob, () => telnetReply(bob, "enter Bus"));
    });
    assert(!bobSaw.some((l) => /has left/.test(l)), bobSaw.join("|"));
    assertEquals(aliceSaw, ["Pup> On the bus: Bob has left.", "Pup> Bob has arrived."]);
  }));

Deno.test("MUX hearing: a room destroyed with players in it sends them home, as what else is in it", () =>
  inGame(["Alice", "Bob", "Cat"], async ({ admin, alice, bob, cat }) => {
    const garden = dbref(await telnetReply(alice, "@dig Garden"));
    await telnetReply(alice, "@create Box");
    await telnetReply(alice, "@create Lis");
    await telnetReply(alice, "@listen Lis=*");
    for (const what of ["Box", "Lis"]) await telnetReply(alice, `@tel ${what}=${garden}`);
    for (const who of ["Bob", "Cat"]) await telnetReply(admin, `@tel *${who}=${garden}`);
    // Asked once, then confirmed, as before; it was refused while Bob and Cat were in it.
    assertMatch(await telnetReply(alice, `@destroy ${garden}`), /cannot be undone/);
    const [bobFrom, catFrom] = [bob.mark(), cat.mark()];
    // TinyMUX 2.12 (@destroy/instant, or at its next check): each goes home, nobody hears it
    // leave; the players look at their home, which hears those that hear arrive.
    const limbo = await heardWhile(admin, async () => {
      // Alice, in Limbo too, hears them arrive before her answer.
      const said = (await telnetReply(alice, `@destroy ${garden}`)).split("\r\n");
      assertMatch(said.at(-1)!, /^Destroyed Garden\(#\d+\)\. 4 object\(s\) sent home\.$/);
    });
    assertEquals(limbo.sort(), ["Bob has arrived.", "Cat has arrived.", "Lis has arrived."]);
    await bob.waitFor(/Limbo/, 10_000, bobFrom);
    await cat.waitFor(/Limbo/, 10_000, catFrom);
    const here = await telnetReply(bob, "think [name(loc(me))] [lcon(here)]");
    assertMatch(here, /^Limbo /);
    assertEquals(await telnetReply(bob, `think [type(${garden})]`), "#-1 NOT FOUND");
  }));

Deno.test("MUX hearing: whatever makes a thing come to hear, or stop, it says so where it is", () =>
  inGame(["Alice", "Bob"], async ({ admin, alice, bob }) => {
    await telnetReply(alice, "@create Widget");
    await telnetReply(alice, "drop Widget");
    await telnetReply(alice, "@create Pup");
    await telnetReply(alice, "drop Pup");
    await telnetReply(alice, "&hi Widget=^*:think x");
    const GROWS = "Widget grows ears and can now hear.";
    const LOSES = "Widget loses its ears and becomes deaf.";
    // Each line and what TinyMUX 2.12 (a throwaway one, the same lines) showed the room.
    const steps: [string, string[]][] = [
      ["@listen Widget=*", [GROWS]],
      ["@listen Widget=*x*", []],
      ["@listen Widget=", [LOSES]],
      ["@set Widget=monitor", [GROWS]],
      ["@set Widget/hi=no_command", [LOSES]],
      ["@set Widget/hi=!no_command", [GROWS]],
      ["@set Widget=!monitor", [LOSES]],
      ["think set(Widget,LISTEN:foo)", [GROWS]],
      ["@wipe Widget", [LOSES]],
      ["&listen Widget=bar", [GROWS]],
      ["@set Widget=listen:", [LOSES]],
      ["@set Pup=puppet", ["Pup grows ears and can now hear."]],
      ["@listen Pup=*", []],
      ["@set Pup=!puppet", []],
      ["@listen Pup=", ["Pup loses its ears and becomes deaf."]],
    ];
    for (const [line, said] of steps) {
      let answer = "";
      const seen = await heardWhile(bob, async () => answer = await telnetReply(alice, line));
      assertEquals(seen, said, line);
      // Said before the command's answer, to Alice there too.
      if (said.length) assert(answer.startsWith(said[0]), `${line}: ${answer}`);
    }
    // Carried, it tells the one carrying it alone; a room tells what is in it.
    await telnetReply(alice, "get Widget");
    let answer = "";
    const seen = await heardWhile(
      bob,
      async () => answer = await telnetReply(alice, "@listen Widget=*"),
    );
    assertEquals(seen, []);
    assertEquals(answer.split("\r\n")[0], GROWS);
    assertEquals(
      await heardWhile(bob, () => telnetReply(admin, "@listen here=*")),
      ["Limbo grows ears and can now hear."],
    );
  }));

Deno.test("MUX hearing: what is told a listening thing alone wakes it and is passed inside, without its @inprefix", () =>
  inGame(["Alice", "Bob"], async ({ alice, bob }) => {
    await telnetReply(alice, "@create Bus");
    await telnetReply(alice, "drop Bus");
    await telnetReply(alice, "@set Bus=enter_ok");
    await telnetReply(alice, "@listen Bus=*");
    await telnetReply(alice, "@inprefix Bus=On the bus:");
    await telnetReply(bob, "enter Bus");
    await telnetReply(alice, "@ahear Bus=@emit heard %0");
    // TinyMUX 2.12 (a throwaway one): @pemit and pemit() to the bus run its @ahear, and its
    // passengers are shown the line as it was told (notify_with_cause has no MSG_S_OUTSIDE).
    const aliceFrom = alice.mark();
    const told = await heardWhile(bob, () => telnetReply(alice, "@pemit Bus=hello bus"));
    assert(told.includes("hello bus"), told.join("|"));
    assert(!told.includes("On the bus: hello bus"), told.join("|"));
    await alice.waitFor(/^heard hello bus$/m, 10_000, aliceFrom);
    const fn = await heardWhile(bob, () => telnetReply(alice, "think pemit(Bus,via function)"));
    assert(fn.includes("via function"), fn.join("|"));
    // Only what its @listen matches.
    await telnetReply(alice, "@listen Bus=*zzz*");
    assertEquals(await heardWhile(bob, () => telnetReply(alice, "@pemit Bus=hello again")), []);
  }));
