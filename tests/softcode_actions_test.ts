/**
 * Actions the engine fires, end to end on the whole stack: a builder on telnet sets an exit's,
 * a room's and a thing's message and action attributes with MUX's commands; a player on
 * WebSocket walks, looks, gets and drops, and each side sees the messages evaluated with `%#`
 * the one acting and the actions run as the object; `@aconnect` and `@adisconnect` follow the
 * player's connections; `@startup` runs at every start, once, across `@reboot` and a full stop
 * (docs/softcode.md, "Actions the engine fires").
 */
import { join } from "node:path";
import { assert, assertEquals } from "./assert.ts";
import { register } from "./harness.ts";
import { ADMIN, count, startSupervised, telnetLogin } from "./supervised.ts";
import { TelnetClient } from "./telnet_client.ts";
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
    const garden = (await run("@dig Garden=North;n,South;s", /Garden created as room #(\d+)/))
      .match(/#(\d+)/)![1];
    await run("@create Gem", /Gem created as object/);
    await run("drop gem", /Dropped\./);

    await t.step("descriptions are evaluated for the one who looks", async () => {
      await run("@desc here=Quiet. You are [name(%#)]; \\[OOC\\] stays.", /Set\./);
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
      await bob.expect(/Dropped\./);
      await admin.waitFor(/Bob lets the gem fall\./);
    });

    await t.step("enter and leave a thing set enter_ok, with its @idesc", async () => {
      await run("@create Wagon", /Wagon created as object/);
      await run("drop wagon", /Dropped\./);
      await bobSend("enter wagon");
      await bob.expect(/^Permission denied\.$/);
      await run("@set wagon=enter_ok", /^Set\.\r?$/m);
      await run("@idesc wagon=Straw underfoot, [name(%#)].", /Set\./);
      await run("@oxenter wagon=climbs into the wagon.", /Set\./);
      await bobSend("enter wagon");
      const inside = await bob.expect((m) => m.data.type === "room");
      assertEquals(inside.data.name, "Wagon");
      assertEquals(inside.data.description, "Straw underfoot, Bob.");
      await admin.waitFor(/Bob climbs into the wagon\./);
      await bobSend("leave");
      const out = await bob.expect((m) => m.data.type === "room");
      assertEquals(out.data.name, "Limbo");
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

/** Runs a line over telnet and waits for the text that answers it. */
async function runOn(t: TelnetClient, line: string, want: RegExp): Promise<string> {
  const from = t.mark();
  await t.send(line);
  return (await t.waitFor(want, 15_000, from))[0];
}

Deno.test("actions: @a-actions, @aconnect and @adisconnect over telnet and WebSocket", async () => {
  const srv = await startSupervised();
  const closers: (() => Promise<void>)[] = [];
  try {
    const bobToken = await register(srv.base, "Bob");
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    closers.push(() => admin.close());
    const run = (line: string, want: RegExp) => runOn(admin, line, want);
    const garden = (await run("@dig Garden=North;n,South;s", /Garden created as room #(\d+)/))
      .match(/#(\d+)/)![1];
    await run("@create Gem", /Gem created as object/);
    await run("drop gem", /Dropped\./);
    await run(`@aenter #${garden}=@remit me=The garden greets [name(%#)].`, /Set\./);
    await run("@adesc gem=@pemit %#=The gem winks at [name(%#)].", /Set\./);
    await run("@asucc north=think [set(me,LAST:[name(%#)])]", /Set\./);

    const bob = await connectWs(srv.ws, { token: bobToken, client: "web" });
    closers.push(() => bob.close());
    await bob.expect((m) => m.data.type === "room");
    const send = pacedSender(bob);
    await send("look gem");
    await bob.expect(/^The gem winks at Bob\.$/);
    await send("n");
    await bob.expect(/^The garden greets Bob\.$/);
    await run("think [get(north/LAST)]", /^Bob/m);

    // The master room's contents run theirs for every player (a staff member's global object
    // inherits its owner's powers to reach anyone, as on MUX).
    const master =
      /#(\d+)/.exec(await run("@dig Master Room", /Master Room created as room #\d+/))![1];
    const file = join(srv.dir, "config.json");
    const config = JSON.parse(await Deno.readTextFile(file));
    config.softcode = { ...config.softcode, masterRoom: `#${master}` };
    await Deno.writeTextFile(file, JSON.stringify(config));
    await run("@reload/config", /config/);
    const greeter =
      /#(\d+)/.exec(await run("@create Greeter", /Greeter created as object #\d+/))![1];
    await run("@aconnect greeter=@pemit %#=The game greets [name(%#)].", /Set\./);
    await run("@adisconnect greeter=think [set(me,LEFT:[name(%#)])]", /Set\./);
    await run("@set greeter=inherit", /./);
    await run(`@teleport greeter=#${master}`, /Teleported/);

    // @aconnect runs for every connection; @adisconnect when the last one goes.
    await send("@aconnect me=@pemit me=Welcome back, [name(%#)].");
    await bob.expect(/^Set\.$/);
    await send("@adisconnect me=think [set(me,GONE:[add(get(me/GONE),1)])]");
    await bob.expect(/^Set\.$/);
    // (Bob is in the garden now: telnetLogin would wait for Limbo.)
    const tel = await TelnetClient.connect(srv.telnet);
    closers.push(() => tel.close());
    await tel.waitFor(/connect <name>/);
    await tel.send("connect Bob password123");
    await tel.waitFor(/Welcome back, Bob\./);
    await tel.waitFor(/The game greets Bob\./);
    await bob.expect(/^Welcome back, Bob\.$/);
    await tel.close();
    await run("think gone=[get(*bob/GONE)]", /gone=$/m);
    await bob.close();
    let gone = "";
    for (let i = 0; i < 50 && gone !== "1"; i++) {
      if (i) await new Promise((r) => setTimeout(r, 100));
      gone = /gone=(\d*)/.exec(await run("think gone=[get(*bob/GONE)]", /gone=\d*/))![1];
    }
    assertEquals(gone, "1");
    await run(`think left=[get(#${greeter}/LEFT)]`, /left=Bob/);
  } finally {
    for (const c of closers) await c().catch(() => {});
    await srv.stop();
  }
});

Deno.test("actions: @startup runs at every start, once, across @reboot and a full stop", async () => {
  let srv = await startSupervised({ args: ["--max-delay", "1000"] });
  const dir = srv.dir;
  try {
    let admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    const run = (line: string, want: RegExp) => runOn(admin, line, want);
    await run("@create Clock", /Clock created as object/);
    // A clock that arms a long wait at startup: kept waits would make it run twice after a start.
    await run(
      "@startup clock=think [set(me,STARTS:[add(get(me/STARTS),1)])];@wait 3600=think tick",
      /Set\./,
    );
    /** Waits for Clock to have started `n` times, with exactly one wait queued. */
    const started = async (n: string) => {
      let got = "";
      for (let i = 0; i < 100 && got !== n; i++) {
        if (i) await new Promise((r) => setTimeout(r, 200));
        got = /starts=(\d*)/.exec(await run("think starts=[get(clock/STARTS)]", /starts=\d*/))![1];
      }
      assertEquals(got, n);
      await run("@ps clock", /Wait Queue\.\.\.\[1\//);
    };
    await run("@trigger clock/startup", /^/);
    await started("1");
    await admin.send("@reboot");
    await admin.waitFor(/Your session continues/, 30_000);
    await started("2");
    await admin.send("@reboot");
    await admin.waitFor(/Your session continues[\s\S]*Your session continues/, 30_000);
    assertEquals(count(admin.text, /Your session continues/), 2);
    await started("3");
    await admin.close();
    await srv.stop({ keepDir: true });
    srv = await startSupervised({ dir, args: ["--max-delay", "1000"] });
    admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    await started("4");
    await admin.close();
  } finally {
    await srv.stop();
  }
});
