/**
 * The one lock language end to end (issue 38, item 7): MUX's keys set with `@lock` (names become
 * dbrefs), checked by exits, `get`, `page` and `elock()`; locks stored before keep their meaning;
 * endless `@` indirection stops with a clear message; over telnet and WebSocket.
 */
import { assertEquals } from "./assert.ts";
import { api, register } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";
import type { TelnetClient } from "./telnet_client.ts";
import { connectWs } from "./ws_client.ts";

/** Sends a line over telnet and waits for a reply matching `re` after it. */
async function run(t: TelnetClient, line: string, re: RegExp): Promise<RegExpMatchArray> {
  const from = t.mark();
  await t.send(line);
  return await t.waitFor(re, 10_000, from);
}

Deno.test("locks: MUX keys, old locks, lock types and broken locks", async (t) => {
  const srv = await startSupervised();
  const closers: (() => Promise<void>)[] = [];
  try {
    const aliceToken = await register(srv.base, "Alice");
    const bobToken = await register(srv.base, "Bob");
    const aliceId = (await api(srv.base, "GET", "/api/v1/me", undefined, aliceToken)).body.id;
    const bobId = (await api(srv.base, "GET", "/api/v1/me", undefined, bobToken)).body.id;
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    closers.push(() => admin.close());
    await run(admin, "@set *Alice=builder", /^Set\.\r?$/m);
    const alice = await telnetLogin(srv, "Alice", "password123");
    closers.push(() => alice.close());
    const bob = await connectWs(srv.ws, { token: bobToken, client: "web" });
    closers.push(() => bob.close());
    await bob.expect(/Limbo/);
    /** Bob sends a line over WebSocket and waits for a message matching `re`. */
    const bobDoes = async (line: string, re: RegExp) => {
      await bob.send(line);
      return (await bob.expect(re)).msg;
    };

    await run(alice, "@dig Vault=Vault Door;vd,Out;o", /Opened\.[\s\S]*Opened\./);
    const key = (await run(alice, "@create Gold Key", /Gold Key created as object #(\d+)/))[1];
    /** Alice sets a lock with `line` ("Locked.", MUX's word), then reads it back with lock(). */
    const lockAs = async (line: string, read: string, stored: RegExp) => {
      await run(alice, line, /^Locked\.\r?$/m);
      await run(alice, `think stored=[lock(${read})]`, stored);
    };

    await t.step("@lock bbpocket=me means the object, as the BBS installer means it", async () => {
      const pocket = (await run(alice, "@create bbpocket", /bbpocket created as object #(\d+)/))[1];
      await lockAs("@lock bbpocket=me", "bbpocket", new RegExp(`stored=#${aliceId}\\r?$`, "m"));
      await lockAs(
        "@lock/use bbpocket=me",
        "bbpocket/use",
        new RegExp(`stored=#${aliceId}\\r?$`, "m"),
      );
      await run(alice, `think [elock(#${pocket},me)][elock(#${pocket},*Bob)]`, /^10\r?$/m);
    });

    await t.step("a carry key names the key wherever it goes", async () => {
      await lockAs("@lock vd=+Gold Key", "vd", new RegExp(`stored=\\+#${key}`));
      await run(alice, "vd", /Vault/);
      await run(alice, "o", /Limbo/);
      await run(alice, "drop Gold Key", /Dropped\./);
      await run(alice, "vd", /You can't go that way\./);
      await bobDoes("get Gold Key", /Taken\./);
      await bobDoes("vd", /Vault/);
      await bobDoes("o", /Limbo/);
    });

    await t.step("old locks keep their meaning: flags and levels", async () => {
      await lockAs("@lock vd=builder+", "vd", /stored=builder\+/);
      await run(alice, "vd", /Vault/);
      await run(alice, "o", /Limbo/);
      await bobDoes("vd", /You can't go that way\./);
      await lockAs("@lock vd=dark|#1", "vd", /stored=dark\|#1/);
      await bobDoes("vd", /You can't go that way\./);
    });

    await t.step("attribute and evaluation keys", async () => {
      await run(alice, "&sex me=Female", /Set\./);
      await lockAs("@lock vd=sex:f*", "vd", /stored=SEX:f\*/);
      await run(alice, "vd", /Vault/);
      await run(alice, "o", /Limbo/);
      await bobDoes("vd", /You can't go that way\./);
      await run(alice, "&CHECK vd=[name(%#)]", /Set\./);
      await lockAs("@lock vd=check/bob", "vd", /stored=CHECK\/bob/);
      await run(alice, "vd", /You can't go that way\./);
      await bobDoes("vd", /Vault/);
      await bobDoes("o", /Limbo/);
      await lockAs("@lock vd=$me", "vd", new RegExp(`stored=\\$#${aliceId}`));
      await bobDoes("vd", /You can't go that way\./);
    });

    await t.step("a lock that refers to itself through @ stops with a clear message", async () => {
      await run(alice, "@create Loop A", /Loop A created as object/);
      await run(alice, "@create Loop B", /Loop B created as object/);
      await run(alice, "@lock Loop A=@Loop B", /^Locked\.\r?$/m);
      await run(alice, "@lock Loop B=@Loop A", /^Locked\.\r?$/m);
      await run(alice, "@lock vd=@Loop A", /^Locked\.\r?$/m);
      await run(alice, "vd", /Sorry, broken lock: it refers to other locks \(@\)/);
      // Nothing else is disturbed.
      await run(alice, "think ok", /^ok\r?$/m);
    });

    await t.step("bad keys are refused and the lock stays", async () => {
      await run(alice, "@lock vd=Nobody Here", /I don't see|not here|can't find/i);
      await run(alice, "@lock vd=(#1", /Lock syntax error/);
      await run(alice, "@lock vd/NOSUCH", /Attribute not present on object/);
      await run(alice, "@lock/sideways vd=me", /Unknown switch|not a switch|switch/i);
      await run(alice, "vd", /Sorry, broken lock/);
    });

    await t.step("a page lock, set by a player who is no builder, over WebSocket", async () => {
      // MUX's word; the key is stored with the name made a dbref.
      assertEquals(await bobDoes("@lock/page me=!*Alice", /Locked/), "Locked.");
      assertEquals(await bobDoes(`think [lock(#${bobId}/page)]`, /#/), `!#${aliceId}`);
      await run(alice, "page Bob=hi", /Bob is not accepting pages\./);
      await bobDoes("@lock/mail me=!*Alice", /^Locked\.\r?$/m);
      await run(
        alice,
        "@mail Bob=Hello/Are you there?",
        /Bob is not accepting mail from you\. Nothing was sent\./,
      );
      await bobDoes("@unlock/mail me", /^Unlocked\.\r?$/m);
      await run(alice, "@mail Bob=Hello/Are you there?", /sent|Sent/);
      await bobDoes("@unlock/page me", /^Unlocked\.\r?$/m);
      await run(alice, "page Bob=hi again", /You paged Bob/);
      await bob.expect(/hi again/);
    });
  } finally {
    for (const c of closers.reverse()) await c().catch(() => {});
    await srv.stop();
  }
});
