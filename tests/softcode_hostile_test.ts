/**
 * Hostile softcode from an ordinary player's account, end to end over WebSocket: what one player
 * can make the engine hold or do must stay bounded so that it never costs the others their game.
 * Each case was found by probing a running game from outside.
 */
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { register } from "./harness.ts";
import { startSupervised } from "./supervised.ts";
import { connectWs, type WsClient } from "./ws_client.ts";

/** Sends a line and returns the text of the first message matching `re`. */
async function ask(ws: WsClient, line: string, re: RegExp, ms = 15_000): Promise<string> {
  ws.send(line);
  return (await ws.expect(re, ms)).msg;
}

Deno.test("hostile softcode: tiny attributes count against the quota, so their number is bounded", async () => {
  // Before: the quota counted only names and values, so `set()` in a loop made 250,000 one-byte
  // attributes under the default 2,000,000 bytes (about 1 KiB of the engine's memory each, and a
  // stall for every other player while they were written).
  const srv = await startSupervised({ config: { softcode: { attributeQuotaBytes: 20_000 } } });
  const closers: (() => Promise<void>)[] = [];
  try {
    const token = await register(srv.base, "Mallory");
    const mallory = await connectWs(srv, { token, client: "web" });
    closers.push(() => mallory.close());
    await mallory.expect((m) => m.data.type === "session");

    await ask(mallory, "think [null(iter(lnum(1,1000),set(me,A##:x)))]done", /^done$/);
    const n = Number(
      await ask(mallory, "think count [attrcnt(me)]", /^count \d+$/).then((s) => s.slice(6)),
    );
    assert(n > 50 && n < 200, `a 20,000-byte quota held ${n} one-byte attributes`);
    // The refusal is the quota's own, clear, and nothing is stored.
    assertMatch(
      await ask(mallory, "&ONEMORE me=x", /quota|Set\./),
      /Mallory's attributes at \d+ bytes, over the quota of 20000 bytes\. Nothing was set\./,
    );
    assertEquals(await ask(mallory, "think [hasattr(me,ONEMORE)]!", /^[01]!$/), "0!");
    // Clearing frees the room again.
    await ask(mallory, "@wipe me/A1*", /Wiped/);
    assertEquals(await ask(mallory, "&ONEMORE me=x", /quota|Set\./), "Set.");
  } finally {
    for (const c of closers) await c();
    await srv.stop();
  }
});
