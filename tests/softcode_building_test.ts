/**
 * Softcode's create() and tel() end to end, over telnet and WebSocket on the whole stack: a
 * builder's create() makes an object `examine` shows at once; the quota and the building rules
 * refuse with MUX's answers and change nothing; a staff tel() moves a player, whom the rooms see
 * leave and arrive; a player's tel() runs under @teleport's rules (its own things to its own places
 * and jump_ok ones, a place's @tfail for a refusal), and of another's object is refused.
 */
import { assertEquals, assertMatch } from "./assert.ts";
import { register } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";
import { connectWs } from "./ws_client.ts";

Deno.test("softcode create() and tel() over telnet and WebSocket", async () => {
  const srv = await startSupervised({ env: { URSAMU_GAME_OBJECTQUOTA: "2" } });
  const closers: (() => Promise<void>)[] = [];
  try {
    await register(srv.base, "Alice");
    const bobToken = await register(srv.base, "Bob");
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    closers.push(() => admin.close());
    const alice = await telnetLogin(srv, "Alice", "password123");
    closers.push(() => alice.close());
    const bob = await connectWs(srv.ws, { token: bobToken, client: "web" });
    closers.push(() => bob.close());
    await bob.expect(/Limbo/);

    /** Runs a line over telnet and answers the first match after it. */
    const run = async (who: typeof alice, line: string, want: RegExp) => {
      const from = who.mark();
      await who.send(line);
      return await who.waitFor(want, 10_000, from);
    };

    await run(admin, "@set Alice=builder", /^Set\.\r?$/m);
    const limbo = (await run(alice, "think [loc(me)]here", /#(\d+)here/))[1];
    // A builder's create() answers the new dbref; the rest of the line and examine see it.
    const widget =
      (await run(alice, "think [create(widget,10)] [loc(lcon(me))]", /#(\d+) #\d+/))[1];
    const ex = await run(alice, `examine #${widget}`, /Owner: Alice[^\n]*Location: Alice/);
    assertMatch(ex.input!, new RegExp(`widget\\(#${widget}`));
    const garden = (await run(alice, "think [create(Garden,10,r)]", /#(\d+)/))[1];
    await run(alice, `think [type(#${garden})] [owner(#${garden})]`, /ROOM #\d+/);

    // Over the quota (2): MUX's message and #-1, and nothing made.
    await run(alice, "think [create(third,10)]", /building contract has run out[\s\S]*#-1/);
    await run(alice, "think [words(lcon(me))] things", /^1 things/m);
    // Not staff: tel() of another player's object is refused; nothing moves.
    const lamp = (await run(admin, "think [create(lamp,10)]", /#(\d+)/))[1];
    await run(admin, "drop lamp", /Dropped\./);
    await run(alice, `think [tel(lamp,#${garden})]tried`, /Permission denied\.[\s\S]*tried/);
    await run(admin, `think [loc(#${lamp})]here`, new RegExp(`#${limbo}here`));
    // Under @teleport's rules a builder's object moves itself to a place its owner controls (her
    // Garden), but not her: a thing that is not inherit does not control its owner. She may go.
    await run(
      alice,
      `&go #${widget}=think [tel(me,#${garden})][tel(%#,#${garden})][set(me,AT:[loc(me)] [loc(%#)])]`,
      /Set\./,
    );
    await run(alice, `@trigger #${widget}/go`, /Triggered\./);
    // The queued action runs after the trigger's answer: its record is read until it is there.
    let at = "";
    for (let i = 0; i < 50 && !at; i++) {
      if (i) await new Promise((r) => setTimeout(r, 100));
      const from = alice.mark();
      await alice.send(`think at [get(#${widget}/AT)].`);
      at = (await alice.waitFor(/at ([^\n]*)\./, 10_000, from))[1];
    }
    assertEquals(at, `#${garden} #${limbo}`);
    await run(alice, `think [tel(me,#${garden})][loc(me)]`, new RegExp(`^#${garden}$`, "m"));
    // Bob may not go where he does not control: the Garden's @tfail tells him, he stays.
    await run(alice, `@tfail #${garden}=The garden gate is locked.`, /Set\./);
    bob.clear();
    bob.send(`think [tel(me,#${garden})][loc(me)]`);
    await bob.expect(/The garden gate is locked\./);
    await bob.expect(new RegExp(`^#${limbo}$`));
    // jump_ok opens it to him (a player's tel() of himself), and Alice sees him arrive.
    await run(alice, `@set #${garden}=jump_ok`, /^Set\.\r?$/m);
    bob.send(`think [tel(me,#${garden})][loc(me)]`);
    await bob.expect(new RegExp(`^#${garden}$`));
    await alice.waitFor(/Bob has arrived\./);
    bob.send(`think [tel(me,#${limbo})]`);
    await bob.expect(/You can't teleport there!/);
    await run(admin, `@tel *Bob=#${limbo}`, /^Teleported\.\r?$/m);
    const back = alice.mark();
    await run(admin, `@tel *Alice=#${limbo}`, /^Teleported\.\r?$/m);
    await alice.waitFor(/Limbo/, 10_000, back);

    // Staff tel(): Bob is moved and shown the Garden; Limbo sees him vanish.
    bob.clear();
    const seen = alice.mark();
    await run(admin, `think [tel(*Bob,#${garden})][loc(*Bob)]`, new RegExp(`#${garden}`));
    await bob.expect(/Garden/);
    await alice.waitFor(/Bob has left\./, 10_000, seen);
    // The admin moves itself: Bob, in the Garden, sees it arrive; the admin sees the room.
    await run(admin, `think [tel(me,#${garden})][loc(me)]`, new RegExp(`#${garden}`));
    await admin.waitFor(/Garden/);
    const arrived = await bob.expect(/Admin has arrived\./);
    assertEquals(arrived.data?.type, "arrive");
    await alice.waitFor(/Admin has left\./, 10_000, seen);
    // The hub's room index followed: what Bob says reaches the admin in the Garden.
    bob.send("say Welcome!");
    await admin.waitFor(/Bob says, "Welcome!"/);
    await run(admin, "think [tel(me,here)]done", /already there[\s\S]*done/);
  } finally {
    for (const c of closers) await c().catch(() => {});
    await srv.stop();
  }
});
