/**
 * MUX's forms that installers and builders rely on, on the whole stack over telnet and
 * WebSocket: `@set <obj>=!<flag>` on a flag not set, `#<dbref> <command>` as `@force`, `@ahear` read
 * through the parent chain, an object queuing past its owner's quota set `halt`, an object's
 * queued `say`/`@emit` evaluated (docs/softcode.md).
 */
import { assert } from "./assert.ts";
import { register } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";
import { connectWs } from "./ws_client.ts";
import type { TelnetClient } from "./telnet_client.ts";

async function run(t: TelnetClient, line: string, want: RegExp, ms = 10_000): Promise<string> {
  const from = t.mark();
  await t.send(line);
  await t.waitFor(want, ms, from);
  return t.plain.slice(from);
}

Deno.test("MUX forms: @set !flag unset, #dbref force, @ahear of a parent, halt past the quota", async (t) => {
  const srv = await startSupervised({ config: { queue: { playerLimit: 5, staffLimit: 5 } } });
  const closers: (() => Promise<void>)[] = [];
  try {
    const bobToken = await register(srv.base, "Bob");
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    closers.push(() => admin.close());
    const bob = await connectWs(srv.ws, { token: bobToken, client: "web" });
    closers.push(() => bob.close());
    await bob.expect(/Limbo/);
    const made = await run(admin, "@create Box", /Box created as object #(\d+)/);
    const box = /#(\d+)/.exec(made)![1];
    await run(admin, "drop Box", /Dropped\./);

    await t.step("@set !flag on a flag not set answers as a clear", async () => {
      await run(admin, "@set box=!halt", /^Cleared\.\r?$/m);
      await run(admin, "@set box=!no_command", /^Cleared\.\r?$/m);
      await run(admin, "@set box=quiet", /^Set\.\r?$/m);
      await run(admin, "@set box=quiet", /^Set\.\r?$/m);
      // A quiet thing's attributes are set without "Set." (MUX's Quiet(thing)); the steps
      // below wait for it, so the box speaks again.
      const from = admin.mark();
      await admin.send("&NOTE box=hush");
      await run(admin, `think [get(#${box}/NOTE)]`, /^hush\r?$/m);
      assert(!/Set\./.test(admin.plain.slice(from)), admin.plain.slice(from));
      await run(admin, "@set box=!quiet", /^Cleared\.\r?$/m);
      await run(admin, "&NOTE box", /^(Set|Cleared)\.\r?$/m);
    });

    await t.step("#<dbref> <command> forces the object", async () => {
      await run(admin, `#${box} @emit Forced by number.`, /Forced by number\./);
      await bob.expect(/Forced by number\./);
      // The same control as @force: Bob controls no box of the wizard's.
      bob.send(`#${box} @emit Bob's try`);
      await bob.expect(/Permission denied\./);
    });

    await t.step(
      "an object's queued say and @emit are evaluated; a player's typed say is not",
      async () => {
        await run(admin, "&CMD.SUM box=$+sum *:@emit Sum [add(%0,1)].;say [mul(%0,2)]", /Set\./);
        bob.send("+sum 20");
        await bob.expect(/^Sum 21\.$/);
        await bob.expect(/^Box says, "40(%cn)?"$/);
        bob.send("say [add(1,1)]");
        await bob.expect(/^You say, "\[add\(1,1\)\](%cn)?"$/);
        await run(admin, "&CMD.SUM box", /Cleared\.|Set\./);
      },
    );

    await t.step("@function evaluates its name and target, as MUX's CS_INTERP", async () => {
      await run(admin, "&FNAME me=triple", /Set\./);
      await run(admin, "&TRIPLE me=[mul(%0,3)]", /Set\./);
      await run(admin, "@function [v(fname)]=me/triple", /Function TRIPLE defined\./);
      await run(admin, "think triple(14)", /^42$/m);
    });

    await t.step("@ahear is read through the parent chain", async () => {
      await run(admin, "@create Parrot Kind", /Parrot Kind created as object/);
      await run(admin, "@create Parrot", /Parrot created as object/);
      await run(admin, "drop Parrot", /Dropped\./);
      await run(admin, "@parent Parrot=Parrot Kind", /Parent/i);
      await run(admin, "@listen Parrot=* waves*", /Set\./);
      await run(admin, "@ahear Parrot Kind=@remit here=[name(me)] mimics %0.", /Set\./);
      bob.send(":waves.");
      await bob.expect(/^Parrot mimics Bob\.$/);
    });

    await t.step("an object set()s another of its owner's (MUX's Controls)", async () => {
      const tmade = await run(admin, "@create Target", /Target created as object #(\d+)/);
      const target = /#(\d+)/.exec(tmade)![1];
      await run(admin, "@create Setter", /Setter created as object/);
      await run(admin, `&DO Setter=@pemit %#=[set(#${target},NOTE:from the setter)]done`, /Set\./);
      await run(admin, "@trigger Setter/do", /^done$/m);
      await run(admin, `think [get(#${target}/note)]`, /^from the setter$/m);
      // Not its owner, the player: that needs inherit.
      await run(admin, `&DO2 Setter=@pemit %#=[set(me,X:1)][set(*${ADMIN.name},NOTE:no)]`, /Set\./);
      await run(admin, "@trigger Setter/do2", /#-1 PERMISSION DENIED/);
    });

    await t.step(
      "queuing past the quota halts the owner's queue and sets the object halt",
      async () => {
        const waits = [1, 2, 3, 4, 5, 6].map((i) => `@wait me=think ${i}`).join(";");
        await run(admin, `&spam box=${waits}`, /Set\./);
        const out = await run(
          admin,
          "@trigger box/spam",
          /Run away objects: too many commands queued \(your limit is 5\)\. Halted \d+ entr(y|ies); Box\(#\d+\) is set halt\./,
        );
        assert(out.length > 0);
        await run(admin, "examine box", /Flags:[^\n]*\bhalt\b/i);
        await run(admin, "@trigger box/spam", /Box is halted\./);
        await run(admin, "@set box=!halt", /^Cleared\.\r?$/m);
        await run(admin, `#${box} @emit Running again.`, /Running again\./);
      },
    );
  } finally {
    for (const c of closers) await c();
    await srv.stop();
  }
});

Deno.test("MUX forms: a semaphore's count and the connection's OUTPUTPREFIX survive @reboot", async () => {
  const srv = await startSupervised({ args: ["--max-delay", "1000"] });
  const closers: (() => Promise<void>)[] = [];
  try {
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    closers.push(() => admin.close());
    await run(admin, "@create Gate", /Gate created as object/);
    // Two waiters count 2; a notify releases one and counts 1.
    await admin.send("@wait Gate=think first through");
    await admin.send("@wait Gate=think second through");
    await run(admin, "think [get(Gate/semaphore)]", /^2$/m);
    await run(admin, "@notify Gate", /first through/);
    await run(admin, "think [get(Gate/semaphore)]", /^1$/m);
    await run(admin, "@notify Gate", /second through/);
    // Notified in advance: the count goes below zero, and stays through a restart.
    await admin.send("@notify Gate");
    await run(admin, "think [get(Gate/semaphore)]", /^-1$/m);
    // The connection's OUTPUTPREFIX and OUTPUTSUFFIX are kept across the restart too (MUX's).
    await admin.send("OUTPUTPREFIX <<start>>");
    await admin.send("OUTPUTSUFFIX <<end>>");
    await run(admin, "think before", /<<start>>\r?\nbefore\r?\n<<end>>/);
    await admin.send("@reboot");
    await admin.waitFor(/Your session continues/, 30_000);
    await run(admin, "think after", /<<start>>\r?\nafter\r?\n<<end>>/);
    await admin.send("OUTPUTPREFIX");
    await admin.send("OUTPUTSUFFIX");
    await run(admin, "think [get(Gate/semaphore)]", /^-1$/m);
    await run(admin, "@wait Gate=think runs at once after the restart", /runs at once after/);
    await run(admin, "think [strlen(get(Gate/semaphore))]", /^0$/m);
  } finally {
    for (const c of closers) await c();
    await srv.stop();
  }
});
