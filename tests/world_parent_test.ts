/**
 * `@parent` end to end (issue 38, item 8): attributes and softcode see the parent chain,
 * `no_inherit` stays with its holder, loops and other players' parents are refused, and a
 * `visual` object's attributes are readable by everyone; over telnet and WebSocket.
 */
import { assertMatch } from "./assert.ts";
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

Deno.test("@parent: inheritance, no_inherit, loops, parent_ok and visual objects", async (t) => {
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

    const parent =
      (await run(alice, "@create Sword Parent", /Sword Parent created as object #(\d+)/))[1];
    const child = (await run(alice, "@create Red Sword", /Red Sword created as object #(\d+)/))[1];

    await t.step("a child sees its parent's attributes; its own win", async () => {
      await run(alice, "&DAMAGE Sword Parent=5", /Set\./);
      await run(alice, "&SPEC Sword Parent=[name(me)] strikes for [v(DAMAGE)]", /Set\./);
      await run(alice, "&SECRET Sword Parent=mine", /Set\./);
      await run(alice, "@set Sword Parent/SECRET=no_inherit", /Set\./);
      await run(alice, "@parent Red Sword=Sword Parent", /Parent set\./);
      await run(
        alice,
        "think [get(Red Sword/DAMAGE)]|[u(Red Sword/SPEC)]",
        /5\|Red Sword strikes for 5/,
      );
      await run(alice, "&DAMAGE Red Sword=9", /Set\./);
      await run(alice, "think [u(Red Sword/SPEC)]", /Red Sword strikes for 9/);
      await run(alice, "think <[get(Red Sword/SECRET)]>[get(Sword Parent/SECRET)]", /<>mine/);
      await run(
        alice,
        "think [parent(Red Sword)] [lparent(Red Sword)]",
        new RegExp(`#${parent} #${child} #${parent}`),
      );
      await run(alice, "think [children(Sword Parent)]", new RegExp(`^#${child}`, "m"));
      await run(alice, "examine Red Sword", /Parent: Sword Parent/);
    });

    await t.step("loops and bad input are refused, and nothing changes", async () => {
      await run(alice, "@parent Sword Parent=Red Sword", /That would make a parent loop\./);
      await run(alice, "@parent Red Sword=Red Sword", /cannot be its own parent/);
      await run(
        alice,
        "@parent Red Sword=Nothing Such",
        /I don't see|not found|no such|can't find/i,
      );
      await run(alice, "think [parent(Sword Parent)]", /#-1/);
      await run(alice, "think [parent(Red Sword)]", new RegExp(`#${parent}`));
    });

    await t.step("over WebSocket: another's parent needs parent_ok", async () => {
      await bob.send(`@parent me=#${parent}`);
      await bob.expect(/^Permission denied\.$/);
      await run(alice, `@set #${parent}=parent_ok`, /^Set\.\r?$/m);
      await bob.send(`@parent me=#${parent}`);
      await bob.expect(/^Parent set\.$/);
      await bob.send("think [get(me/DAMAGE)]-[u(me/SPEC)]");
      await bob.expect(/^5-Bob strikes for 5$/);
    });

    await t.step("a visual object's attributes are readable by everyone", async () => {
      await bob.send(`think <[get(#${parent}/DAMAGE)]>`);
      assertMatch((await bob.expect(/^</)).msg, /^<(#-1 PERMISSION DENIED)?>$/);
      await run(alice, `@set #${parent}=visual`, /^Set\.\r?$/m);
      await bob.send(`think [get(#${parent}/DAMAGE)]`);
      await bob.expect(/^5$/);
      await bob.send(`examine #${parent}`);
      await bob.expect((m) =>
        /DAMAGE/.test(m.msg) && /SPEC/.test(m.msg) && /Type: thing/i.test(m.msg)
      );
    });

    await t.step("@parent with an empty parent clears it", async () => {
      await run(alice, "@parent Red Sword=", /Parent cleared\./);
      await run(alice, "think <[get(Red Sword/SPEC)]>", /<>/);
    });
  } finally {
    for (const c of closers.reverse()) await c().catch(() => {});
    await srv.stop();
  }
});
