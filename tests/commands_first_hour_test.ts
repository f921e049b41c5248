/**
 * What a new player sets up in the first hour, as TinyMUX 2.12 has it, over telnet and WebSocket:
 * `@sex` for the pronouns (and `@va` to `@vz` for one's code), and the messages a page brings
 * back (`@away` to one who pages while you are gone, `@reject` when you take no pages, `@idle`
 * while you are away from the keyboard); and a new builder's `@find` and `@entrances`.
 */
import { assertEquals, assertMatch } from "./assert.ts";
import { register } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin, telnetReply } from "./supervised.ts";
import { connectWs } from "./ws_client.ts";

Deno.test("first hour: @sex, @away, @reject and @idle answering pages, @find and @entrances", async () => {
  const srv = await startSupervised({});
  const closers: (() => Promise<void>)[] = [];
  try {
    await register(srv.base, "Bob");
    await register(srv.base, "Dan");
    await register(srv.base, "Eve");
    const carolToken = await register(srv.base, "Carol");
    const bob = await telnetLogin(srv, "Bob", "password123");
    closers.push(() => bob.close());
    const carol = await connectWs(srv.ws, { token: carolToken, client: "web" });
    closers.push(() => carol.close());
    await carol.expect((m) => m.data.type === "session");

    // @sex sets SEX, which the pronouns read.
    assertEquals(await telnetReply(bob, "think %s/%o/%p"), "it/it/its");
    assertEquals(await telnetReply(bob, "@sex me=female"), "Set.");
    assertEquals(await telnetReply(bob, "think %s/%o/%p [get(me/sex)]"), "she/her/her female");
    assertMatch(await telnetReply(bob, "help @sex"), /pronouns/);
    // MUX's @va to @vz set VA to VZ; typed, the text is kept as code, queued it is evaluated.
    assertEquals(await telnetReply(bob, "@vb me=[add(1,2)]"), "Set.");
    assertEquals(await telnetReply(bob, "&go me=@vz me=[add(1,2)]"), "Set.");
    await telnetReply(bob, "@trigger me/go");
    // The queued action runs after the trigger's answer: read until it has.
    let vars = "";
    for (let i = 0; i < 50 && !vars.endsWith(" 3"); i++) {
      if (i) await new Promise((r) => setTimeout(r, 100));
      vars = await telnetReply(bob, "think [get(me/vb)] [v(vz)]");
    }
    // The queued @vz's own "Set." may come in the same reply, before the think's line.
    assertEquals(vars.split(/\r?\n/).at(-1), "[add(1,2)] 3");

    // Dan leaves an @away message and goes; a page to him brings it back. Eve left none.
    const came = bob.mark();
    const dan = await telnetLogin(srv, "Dan", "password123");
    await bob.waitFor(/Dan has connected\./, 10_000, came);
    assertEquals(await telnetReply(dan, "@away me=Back at [add(5,1)]."), "Set.");
    const gone = bob.mark();
    await dan.close();
    await bob.waitFor(/Dan has disconnected\./, 10_000, gone);
    assertEquals(await telnetReply(bob, "page Dan=hi"), "Away message from Dan: Back at 6.");
    assertEquals(await telnetReply(bob, "page Eve=hi"), "Eve is not connected.");

    // Carol takes no pages from Bob: her @reject answers him, and she hears it was sent.
    carol.send(`@reject me=Busy writing, %n.`);
    await carol.expect(/^Set\.$/);
    carol.send(`@lock/page me=!*Bob`);
    await carol.expect(/Locked/);
    assertEquals(
      await telnetReply(bob, "page Carol=hi"),
      "Reject message from Carol: Busy writing, Bob.",
    );
    await carol.expect(/^\[\d+:\d\d\] Reject message sent to Bob\.$/);

    // Her @idle answers every page (IDLETIMEOUT 0), after the page; not within her IDLETIMEOUT.
    carol.send(`@unlock/page me`);
    await carol.expect(/Unlocked/);
    carol.send(`@idle me=Making tea.`);
    await carol.expect(/^Set\.$/);
    assertEquals(
      await telnetReply(bob, "page Carol=still there?"),
      "Idle message from Carol: Making tea.\r\nYou paged Carol with 'still there?'",
    );
    await carol.expect(/Bob pages: still there\?/);
    await carol.expect(/^\[\d+:\d\d\] Idle message sent to Bob\.$/);
    carol.send("&IDLETIMEOUT me=3600");
    await carol.expect(/^Set\.$/);
    assertEquals(await telnetReply(bob, "page Carol=back?"), "You paged Carol with 'back?'");

    // A new builder finds what it made: @find lists what it controls by name, not others'.
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    closers.push(() => admin.close());
    await telnetReply(admin, "@set Bob=builder");
    await telnetReply(admin, "@set Carol=builder");
    carol.send("think [create(Carol's Rake,10)]");
    await carol.expect(/^#\d+$/);
    const room = (await telnetReply(bob, "@dig Rose Garden")).match(/#(\d+)/)![1];
    const rake = (await telnetReply(bob, "@create Rake")).match(/#(\d+)/)![1];
    const ball = (await telnetReply(bob, "@create Red Ball")).match(/#(\d+)/)![1];
    assertEquals(await telnetReply(bob, "@find ro"), `Rose Garden(#${room})\r\n***End of List***`);
    assertEquals(await telnetReply(bob, "@find BALL"), `Red Ball(#${ball})\r\n***End of List***`);
    assertEquals(
      (await telnetReply(bob, "@find")).split("\r\n").map((l) => l.replace(/\(#\d+\)$/, "")),
      ["Bob", "Rose Garden", "Rake", "Red Ball", "***End of List***"],
    );
    assertMatch(await telnetReply(bob, "@find rake"), new RegExp(`^Rake\\(#${rake}\\)\r\n\\*`));
    // ... and what leads to it: the exits into a room (after the room they are in), the
    // children of a parent; another player sees only what it controls of them.
    await telnetReply(bob, `@open Rose Path;rose=#${room}`);
    await telnetReply(bob, `@parent #${ball}=#${rake}`);
    assertMatch(
      await telnetReply(bob, `@entrances #${room}`),
      /^Limbo(\(#\d+\))? \(Rose Path;rose\(#\d+\)\)\r\n1 entrance found\.$/,
    );
    assertEquals(
      await telnetReply(bob, `@entrances #${rake}`),
      `Red Ball(#${ball}) [parent]\r\n1 entrance found.`,
    );
    carol.send(`@entrances #${room}`);
    await carol.expect(/^0 entrances found\.$/);
  } finally {
    for (const c of closers) await c().catch(() => {});
    await srv.stop();
  }
});
