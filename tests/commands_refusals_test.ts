/**
 * What a player who does not control an object is told when it tries to change it, over telnet
 * and WebSocket, as TinyMUX 2.12 tells it (docs/commands.md, "Refusals"): every command that sets
 * an attribute, a name, a flag or a parent answers "Permission denied." for an object it can name
 * (MUX matches any dbref, near or far) and "I don't see that here." for one it cannot (a dbref that
 * is no object, a name carried by another), and changes nothing. A staff note on the player (an
 * attribute the player cannot see) is answered as MUX answers it: a `hidden` one is cleared as
 * any other of the player's attributes is, with the same "Set." as one that is not there, so the
 * answer tells nothing; a `wizard` one, or a name starting with `_`, is refused and kept.
 */
import { assertEquals } from "./assert.ts";
import { register } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin, telnetReply } from "./supervised.ts";
import { connectWs, type WsClient } from "./ws_client.ts";
import type { TelnetClient } from "./telnet_client.ts";

/** The first line of a line's reply over telnet. */
async function tell(t: TelnetClient, line: string): Promise<string> {
  return (await telnetReply(t, line)).split(/\r?\n/)[0];
}

/** Runs a line over WebSocket and answers the first message of reply. */
async function tellWs(w: WsClient, line: string): Promise<string> {
  w.clear();
  w.send(line);
  w.send("think --end--");
  const got: string[] = [];
  for (;;) {
    const m = await w.expect(() => true, 10_000);
    if (m.msg === "--end--") break;
    got.push(m.msg);
  }
  return got[0] ?? "";
}

Deno.test("refusals: another's object is 'Permission denied.', an unseen one is not there", async () => {
  const srv = await startSupervised({});
  const closers: (() => Promise<void>)[] = [];
  try {
    await register(srv.base, "Alice");
    await register(srv.base, "Bob");
    const carolToken = await register(srv.base, "Carol");
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    closers.push(() => admin.close());
    const alice = await telnetLogin(srv, "Alice", "password123");
    closers.push(() => alice.close());
    const bob = await telnetLogin(srv, "Bob", "password123");
    closers.push(() => bob.close());
    const carol = await connectWs(srv.ws, { token: carolToken, client: "web" });
    closers.push(() => carol.close());
    await carol.expect((m) => m.data.type === "session");

    // Alice's lantern lies in Limbo beside Bob and Carol; her gem is in her pocket; her vase
    // stands in a room of hers far away.
    await tell(admin, "@set Alice=builder");
    const num = async (line: string) => (await tell(alice, line)).replace(/^#/, "");
    const lantern = await num("think [create(lantern,10)]");
    await tell(alice, "drop lantern");
    await tell(alice, "&LIGHT lantern=warm");
    await tell(alice, "@set lantern/LIGHT=visual");
    await tell(alice, "think [create(gem,10)]");
    const far = await num("think [create(Far Room,10,r)]");
    const vase = await num("think [create(vase,10)]");
    await tell(alice, `@tel #${vase}=#${far}`);
    const state = `think [name(#${lantern})]|[get(#${lantern}/DESC)]|[get(#${lantern}/SUCC)]|` +
      `[get(#${lantern}/LIGHT)]|[flags(#${lantern})]|[parent(#${lantern})]|[get(#${vase}/DESC)]`;
    const before = await tell(alice, state);

    const denied = [
      `@desc #${lantern}=Mine now.`,
      "@desc lantern=Mine now.",
      `@succ #${lantern}=Got it.`,
      `@name #${lantern}=Bob's lantern`,
      `&LIGHT #${lantern}=cold`,
      `&LIGHT #${lantern}`,
      `@set #${lantern}=LIGHT:cold`,
      `@set #${lantern}=dark`,
      `@set #${lantern}/LIGHT=!visual`,
      `@parent #${lantern}=me`,
      `@wipe #${lantern}`,
      `@desc #${vase}=Mine now.`,
      `&LIGHT #${far}=cold`,
    ];
    for (const line of denied) {
      assertEquals(await tell(bob, line), "Permission denied.", `telnet: ${line}`);
      assertEquals(await tellWs(carol, line), "Permission denied.", `WebSocket: ${line}`);
    }
    for (const line of ["@desc #99999=Mine.", "@desc gem=Mine.", "&LIGHT gem=cold"]) {
      assertEquals(await tell(bob, line), "I don't see that here.", `telnet: ${line}`);
      assertEquals(await tellWs(carol, line), "I don't see that here.", `WebSocket: ${line}`);
    }
    // Nothing changed.
    assertEquals(await tell(alice, state), before);
    assertEquals(before.split("|").slice(0, 4), ["lantern", "", "", "warm"]);

    // Staff notes on Bob he cannot see: HID (hidden), NOTE (hidden and wizard), _WATCH (by name).
    for (const line of ["&HID *Bob=h", "&NOTE *Bob=n", "&_WATCH *Bob=w"]) await tell(admin, line);
    for (const line of ["@set *Bob/HID=hidden", "@set *Bob/NOTE=hidden", "@set *Bob/NOTE=wizard"]) {
      assertEquals(await tell(admin, line), "Set.");
    }
    // As MUX: hidden is unseen, not unchangeable (only wizard is), and a clear answers "Set."
    // as for an attribute that is not there.
    assertEquals(await tell(bob, "&NOPE me="), "Set.");
    assertEquals(await tell(bob, "&HID me="), "Set.");
    assertEquals(await tell(bob, "&NOTE me="), "Permission denied.");
    assertEquals(await tell(bob, "&_WATCH me="), "Permission denied.");
    assertEquals(await tell(bob, "&_NEVER me="), "Permission denied.");
    assertEquals(
      await tell(admin, "think [get(*Bob/HID)]|[get(*Bob/NOTE)]|[get(*Bob/_WATCH)]"),
      "|n|w",
    );
  } finally {
    for (const c of closers) await c().catch(() => {});
    await srv.stop();
  }
});
