/**
 * The rest of the toolkit end to end (issue 38, item 8): `@create <name>=<cost>` as MUX parses
 * it, the flags packages rely on and who may set them, `@clone`, `@decompile` (its commands
 * recreate the object), and OUTPUTPREFIX/OUTPUTSUFFIX around each command's output; over telnet
 * and WebSocket.
 */
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { register } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";
import type { TelnetClient } from "./telnet_client.ts";
import { connectWs } from "./ws_client.ts";

/** Sends a line over telnet and waits for a reply matching `re` after it. */
async function run(t: TelnetClient, line: string, re: RegExp): Promise<RegExpMatchArray> {
  const from = t.mark();
  await t.send(line);
  return await t.waitFor(re, 10_000, from);
}

Deno.test("toolkit: @create=cost, flags, @clone, @decompile, OUTPUTPREFIX", async (t) => {
  const srv = await startSupervised();
  const closers: (() => Promise<void>)[] = [];
  try {
    await register(srv.base, "Alice");
    const bobToken = await register(srv.base, "Bob");
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    closers.push(() => admin.close());
    await run(admin, "@set *Alice=builder", /^Set\.\r?$/m);
    const alice = await telnetLogin(srv, "Alice", "password123");
    closers.push(() => alice.close());
    const bob = await connectWs(srv.ws, { token: bobToken, client: "web" });
    closers.push(() => bob.close());
    await bob.expect(/Limbo/);

    let pocket = "";
    await t.step("@create <name>=<cost> names the thing <name>", async () => {
      pocket = (await run(alice, "@create bbpocket=10", /(.*) created as object #(\d+)/))[2];
      await run(alice, `think [name(#${pocket})]`, /^bbpocket\r?$/m);
      await run(alice, "@create Junk=lots", /The cost must be a whole number/);
      await run(alice, "think [lcon(me)]", new RegExp(`^#${pocket}\\r?$`, "m"));
    });

    await t.step("the flags packages rely on, with MUX's rules", async () => {
      for (const f of ["inherit", "halted", "safe", "quiet", "sticky", "puppet", "visual"]) {
        await run(alice, `@set bbpocket=${f}`, /^Set\.\r?$/m);
      }
      for (const f of ["opaque", "monitor", "unfindable", "parent_ok"]) {
        await run(alice, `@set bbpocket=${f}`, /^Set\.\r?$/m);
      }
      await run(alice, "think [hasflag(bbpocket,halt)]", /^1\r?$/m);
      await run(alice, "@set me=monitor", /Only staff may set monitor on a player\./);
      await run(admin, "@set *Alice=monitor", /^Set\.\r?$/m);
      await bob.send("@set me=visual");
      await bob.expect(/^Set\.\r?$/m);
      await bob.send(`@set #${pocket}=!halt`);
      await bob.expect(/^Permission denied\.$/);
      for (const f of ["halt", "quiet", "inherit", "puppet", "opaque", "monitor", "unfindable"]) {
        await run(alice, `@set bbpocket=!${f}`, /^Cleared\.\r?$/m);
      }
    });

    await t.step("@decompile prints the commands that recreate the object", async () => {
      await run(alice, "&CMD-HELLO bbpocket=$hello:@pemit %#=Hi [name(%#)]", /Set\./);
      await run(alice, "@set bbpocket/CMD-HELLO=no_inherit", /Set\./);
      await run(alice, "@desc bbpocket=A small pocket.", /Set\./);
      await run(alice, "@lock/use bbpocket=me", /^Locked\.\r?$/m);
      await run(alice, "@create Pocket Parent", /Pocket Parent created as object/);
      await run(alice, "@parent bbpocket=Pocket Parent", /Parent set/);
      const from = alice.mark();
      await alice.send("@decompile bbpocket");
      await alice.waitFor(/^@parent bbpocket=#\d+\r?$/m, 10_000, from);
      const text = alice.plain.slice(from);
      for (
        const re of [
          /^@create bbpocket\r?$/m,
          /^@lock\/use bbpocket=#\d+\r?$/m,
          /^&CMD-HELLO bbpocket=\$hello:@pemit %#=Hi \[name\(%#\)\]\r?$/m,
          /^@set bbpocket\/CMD-HELLO=no_inherit\r?$/m,
          /^@describe bbpocket=A small pocket\.\r?$/m,
          /^@set bbpocket=visual\r?$/m,
        ]
      ) assertMatch(text, re);
      // /tf puts TinyFugue's prefix before each line; /dbref names the object by number.
      await run(alice, "@decompile/tf bbpocket/CMD-*", /^FugueEdit > &CMD-HELLO bbpocket=/m);
      await run(alice, "@decompile/dbref bbpocket/DESC", new RegExp(`^@describe #${pocket}=`, "m"));
      await run(alice, "@decompile bbpocket=Copy", /^@set Copy=visual\r?$/m);
    });

    await t.step("the decompiled commands, pasted back, recreate the object", async () => {
      const from = alice.mark();
      await alice.send("@decompile bbpocket");
      await alice.waitFor(/^@parent bbpocket=#\d+\r?$/m, 10_000, from);
      const lines = alice.plain.slice(from).split(/\r?\n/).filter((l) => /^[@&]/.test(l));
      await run(alice, "@name bbpocket=oldpocket", /Name set/);
      for (const line of lines) await run(alice, line, /./);
      await run(
        alice,
        "think [get(bbpocket/CMD-HELLO)]|[lflags(bbpocket/CMD-HELLO)]",
        /^\$hello:@pemit %#=Hi \[name\(%#\)\]\|NO_INHERIT\r?$/m,
      );
      await run(alice, "think [hasflag(bbpocket,visual)] [parent(bbpocket)]", /^1 #\d+\r?$/m);
    });

    await t.step("@clone copies attributes, flags, locks and parent", async () => {
      const m = await run(
        alice,
        "@clone oldpocket=Pocket Two",
        /oldpocket cloned as Pocket Two, new copy is object #(\d+)\./,
      );
      const two = m[1];
      await run(alice, `think [get(#${two}/CMD-HELLO)]`, /^\$hello:@pemit/m);
      await run(
        alice,
        `think [hasflag(#${two},visual)] [parent(#${two})] [get(#${two}/DESC)]`,
        /^1 #\d+ A small pocket\.\r?$/m,
      );
      await run(alice, "@clone/parent oldpocket=Pocket Kid", /cloned/);
      await run(alice, "think [parent(Pocket Kid)] [lattr(Pocket Kid)]", /^#\d+ DESC\r?$/m);
      await run(alice, "@clone me", /You cannot clone players!/);
      // Bob may clone Alice's visual pocket; the copy is his, halted.
      await bob.send(`@clone #${pocket}`);
      await bob.expect(/Permission denied/); // Bob is no builder.
    });

    await t.step("OUTPUTPREFIX and OUTPUTSUFFIX bracket each command's output", async () => {
      await alice.send("OUTPUTPREFIX <<start>>");
      await alice.send("OUTPUTSUFFIX <<end>>");
      const from = alice.mark();
      await alice.send("think hello there");
      await alice.waitFor(/<<end>>/, 10_000, from);
      const got = alice.plain.slice(from).split(/\r?\n/).filter(Boolean);
      assertEquals(got.slice(0, 3), ["<<start>>", "hello there", "<<end>>"]);
      await alice.send("OUTPUTPREFIX");
      await alice.send("OUTPUTSUFFIX");
      const after = alice.mark();
      await alice.send("think plain");
      await alice.waitFor(/^plain\r?$/m, 10_000, after);
      assert(!alice.plain.slice(after).includes("<<"), alice.plain.slice(after));
      // Over WebSocket too, for that connection alone.
      await bob.send("outputprefix [BEGIN]");
      await bob.send("think ws");
      await bob.expect(/^\[BEGIN\]$/);
      await bob.expect(/^ws$/);
    });
  } finally {
    for (const c of closers.reverse()) await c().catch(() => {});
    await srv.stop();
  }
});
