/**
 * Actions the engine fires, end to end on the whole stack: a builder on telnet sets an exit's,
 * a room's and a thing's message attributes with MUX's commands; a player on WebSocket walks,
 * looks, gets and drops, and each side sees the messages evaluated with `%#` the one acting
 * (docs/softcode.md, "Actions the engine fires").
 */
import { assert, assertEquals } from "./assert.ts";
import { register } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";
import { connectWs, pacedSender } from "./ws_client.ts";

Deno.test("actions: message attributes over telnet and WebSocket", async (t) => {
  const srv = await startSupervised();
  const closers: (() => Promise<void>)[] = [];
  try {
    const bobToken = await register(srv.base, "Bob");
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    closers.push(() => admin.close());
    const bob = await connectWs(srv.ws, { token: bobToken, client: "web" });
    closers.push(() => bob.close());
    await bob.expect((m) => m.data.type === "room");
    const bobSend = pacedSender(bob);

    /** The admin runs a line over telnet and waits for the text that answers it. */
    const run = async (line: string, want: RegExp) => {
      const from = admin.mark();
      await admin.send(line);
      return (await admin.waitFor(want, 10_000, from))[0];
    };
    const garden = (await run("@dig Garden=North;n,South;s", /Room Garden\(#(\d+)\) dug/))
      .match(/#(\d+)/)![1];
    await run("@create Gem", /Created Gem/);
    await run("drop gem", /You drop Gem\./);

    await t.step("descriptions are evaluated for the one who looks", async () => {
      await run("@desc here=Quiet. You are [name(%#)]; \\[OOC\\] stays.", /Description set/);
      await run("@odesc here=takes in the room.", /Set\./);
      await bobSend("look");
      const view = await bob.expect((m) => m.data.type === "room");
      assertEquals(view.data.description, "Quiet. You are Bob; [OOC] stays.");
      await admin.waitFor(/Bob takes in the room\./);
      const from = admin.mark();
      await admin.send("look");
      await admin.waitFor(/Quiet\. You are Admin; \[OOC\] stays\./, 10_000, from);
    });

    await t.step("an exit's @succ, @osucc, @drop and @odrop, the rooms' @oxenter", async () => {
      await run("@succ north=You step north, [name(%#)].", /Set\./);
      await run("@osucc north=walks [lcstr(NORTH)].", /Set\./);
      await run("@drop north=The gate clicks shut behind you.", /Set\./);
      await run(`@oxenter #${garden}=is off to the garden.`, /Set\./);
      await bobSend("n");
      await bob.expect(/^You step north, Bob\.$/);
      const room = await bob.expect((m) => m.data.type === "room");
      assertEquals(room.data.name, "Garden");
      await bob.expect(/^The gate clicks shut behind you\.$/);
      await admin.waitFor(/Bob walks north\./);
      await admin.waitFor(/Bob is off to the garden\./);
      await bobSend("s");
      await bob.expect((m) => m.data.type === "room" && m.data.name === "Limbo");
    });

    await t.step("a locked exit answers with its @fail and @ofail", async () => {
      await run("@lock north=#0", /Locked/);
      await run("@fail north=The gate is shut, %n.", /Set\./);
      await run("@ofail north=rattles the gate.", /Set\./);
      await bobSend("n");
      const refused = await bob.expect(/The gate is shut, Bob\./);
      assertEquals(refused.data.type, "error");
      await admin.waitFor(/Bob rattles the gate\./);
    });

    await t.step("get and drop take the thing's @succ and @odrop", async () => {
      await run("@succ gem=It is warm in your hand.", /Set\./);
      await run("@osucc gem=pockets the [name(me)].", /Set\./);
      await run("@odrop gem=lets the gem fall.", /Set\./);
      await bobSend("get gem");
      const got = await bob.expect(/It is warm in your hand\./);
      assertEquals(got.data.type, "get");
      await admin.waitFor(/Bob pockets the Gem\./);
      await bobSend("drop gem");
      await bob.expect(/^You drop Gem\.$/);
      await admin.waitFor(/Bob lets the gem fall\./);
    });

    await t.step("the attribute commands set what & sets", async () => {
      await run("think [get(gem/osucc)]", /pockets the \[name\(me\)\]\./);
      await run("@osucc gem", /Cleared\./);
      await run("think [hasattr(gem,osucc)]", /^0/m);
      await bobSend("@succ gem=mine");
      const refused = await bob.expect(/Permission denied\./);
      assert(refused.data.type === "error");
    });
  } finally {
    for (const c of closers) await c().catch(() => {});
    await srv.stop();
  }
});
