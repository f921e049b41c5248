/**
 * Attributes end to end (issue 33, items 1-3): set and examined over telnet and WebSocket, read
 * and written through REST under the same rules, bad input refused with nothing stored, the
 * quota, and a destroyed object's attributes gone from the database.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { api, register } from "./harness.ts";
import { connectWs } from "./ws_client.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";
import type { TelnetClient } from "./telnet_client.ts";

/** Sends a line over telnet and waits for a reply matching `re` after it. */
async function say(t: TelnetClient, line: string, re: RegExp): Promise<string> {
  const from = t.mark();
  await t.send(line);
  return (await t.waitFor(re, 10_000, from))[0];
}

Deno.test("attributes: telnet, WebSocket and REST share one store and one set of rules", async (t) => {
  const srv = await startSupervised({ config: { softcode: { attributeQuotaBytes: 20_000 } } });
  const b = srv.base;
  const closers: (() => Promise<void>)[] = [];
  try {
    const aliceToken = await register(b, "Alice", "alice-password");
    const bobToken = await register(b, "Bob", "bob-password");
    const aliceId = (await api(b, "GET", "/api/v1/me", undefined, aliceToken)).body.id as string;
    const bobId = (await api(b, "GET", "/api/v1/me", undefined, bobToken)).body.id as string;
    const alice = await telnetLogin(srv, "Alice", "alice-password");
    closers.push(() => alice.close());
    const bob = await connectWs(srv, { token: bobToken, client: "web" });
    closers.push(() => bob.close());
    await bob.expect((m) => m.data.type === "session");

    await t.step("& and examine over telnet, in MUX's layout", async () => {
      await say(alice, "&finger me=Tall and quiet.", /Set\./);
      assertMatch(
        await say(alice, "examine me/finger", /FINGER[^\r\n]*/),
        /^FINGER: Tall and quiet\.$/,
      );
      await say(alice, "@set me/finger=visual", /Set\./);
      await say(alice, "&secret me=hush", /Set\./);
      assertMatch(
        await say(alice, "ex me/f*", /FINGER[^\r\n]*/),
        /^FINGER \[V\]: Tall and quiet\.$/,
      );
    });

    await t.step("bad input over telnet: a clear message and nothing stored", async () => {
      await say(alice, "&1bad me=x", /not a good name for an attribute/);
      await say(alice, `&big me=${"x".repeat(8001)}`, /at most 8000/);
      await say(alice, "&note *Bob=hi", /Permission denied\./);
      const listed = await api(
        b,
        "GET",
        `/api/v1/dbobj/${aliceId}/attributes`,
        undefined,
        aliceToken,
      );
      assertEquals(listed.body.map((a: { name: string }) => a.name), ["FINGER", "SECRET"]);
    });

    await t.step("over WebSocket: Bob sees the visual attribute, not the other", async () => {
      await bob.send("examine *Alice");
      const seen = await bob.expect((m) => m.data.type === "examine");
      assertMatch(seen.msg, /FINGER \[V\]:(%cn)? Tall and quiet\./);
      assert(!seen.msg.includes("SECRET"), seen.msg);
      assertEquals(
        (seen.data.attributes as { name: string }[]).map((a) => a.name),
        ["FINGER"],
      );
      await bob.send("&mood me=calm");
      await bob.expect(/^Set\.$/);
      await bob.send("@set me/mood=wizard");
      await bob.expect(/Only staff may set or clear wizard/);
      // Bad input over WebSocket too: a clear message, nothing stored.
      await bob.send("&bad*name me=x");
      await bob.expect(/not a good name for an attribute/);
      await bob.send(`&long me=${"y".repeat(8001)}`);
      await bob.expect(/at most 8000/);
      await bob.send("&taken *Alice=mine");
      await bob.expect(/^Permission denied\.$/);
      await bob.send("examine me/*");
      const mine = await bob.expect((m) => m.data.type === "examine");
      assertEquals((mine.data.attributes as { name: string }[]).map((a) => a.name), ["MOOD"]);
    });

    await t.step("REST reads under the same rules", async () => {
      const own = await api(
        b,
        "GET",
        `/api/v1/dbobj/${aliceId}/attributes/secret`,
        undefined,
        aliceToken,
      );
      assertEquals(own.body, { name: "SECRET", value: "hush", owner: aliceId, flags: [] });
      const other = await api(
        b,
        "GET",
        `/api/v1/dbobj/${aliceId}/attributes/secret`,
        undefined,
        bobToken,
      );
      assertEquals(other.status, 404);
      const visual = await api(
        b,
        "GET",
        `/api/v1/dbobj/${aliceId}/attributes/FINGER`,
        undefined,
        bobToken,
      );
      assertEquals(visual.body.flags, ["visual"]);
      const list = await api(b, "GET", `/api/v1/dbobj/${aliceId}/attributes`, undefined, bobToken);
      assertEquals(list.body.map((a: { name: string }) => a.name), ["FINGER"]);
      assertEquals((await api(b, "GET", `/api/v1/dbobj/${aliceId}/attributes`)).status, 401);
      assertEquals(
        (await api(b, "GET", `/api/v1/dbobj/999999/attributes`, undefined, bobToken)).status,
        404,
      );
    });

    await t.step("REST writes: set, odd names, refusals, delete", async () => {
      const put = (name: string, body: unknown, token = aliceToken) =>
        api(
          b,
          "PUT",
          `/api/v1/dbobj/${aliceId}/attributes/${encodeURIComponent(name)}`,
          body,
          token,
        );
      const set = await put("notes/today#1", { value: "rest value" });
      assertEquals(set.status, 200, JSON.stringify(set.body));
      assertEquals(set.body.name, "NOTES/TODAY#1");
      await say(alice, "ex me/notes*", /NOTES\/TODAY#1: rest value/);
      assertEquals((await put("x", { value: "no" }, bobToken)).status, 403);
      assertEquals((await put("1bad", { value: "x" })).status, 400);
      assertEquals((await put("x", { value: "x".repeat(8001) })).status, 400);
      assertEquals((await put("x", { value: "" })).status, 400);
      assertEquals((await put("x", { value: 5 })).status, 400);
      assertEquals((await put("x", { value: "v", flags: ["visual"] })).status, 400);
      const del = await api(
        b,
        "DELETE",
        `/api/v1/dbobj/${aliceId}/attributes/${encodeURIComponent("notes/today#1")}`,
        undefined,
        aliceToken,
      );
      assertEquals(del.body, { deleted: true });
      const gone = await api(
        b,
        "DELETE",
        `/api/v1/dbobj/${aliceId}/attributes/x`,
        undefined,
        aliceToken,
      );
      assertEquals(gone.status, 404);
      await say(alice, "ex me/notes*", /No matching attributes found\./);
    });

    await t.step("the list pages 50 by default, 200 at most", async () => {
      for (let i = 0; i < 60; i++) {
        const r = await api(
          b,
          "PUT",
          `/api/v1/dbobj/${bobId}/attributes/P${String(i).padStart(2, "0")}`,
          {
            value: "v",
          },
          bobToken,
        );
        assertEquals(r.status, 200);
      }
      const first = await api(
        b,
        "GET",
        `/api/v1/dbobj/${bobId}/attributes?pattern=P*`,
        undefined,
        bobToken,
      );
      assertEquals(first.body.length, 50);
      assertEquals(first.body[0].name, "P00");
      const rest = await api(
        b,
        "GET",
        `/api/v1/dbobj/${bobId}/attributes?pattern=P*&offset=50&limit=200`,
        undefined,
        bobToken,
      );
      assertEquals(rest.body.map((a: { name: string }) => a.name).slice(0, 2), ["P50", "P51"]);
      assertEquals(rest.body.length, 10);
      assertEquals(
        (await api(b, "GET", `/api/v1/dbobj/${bobId}/attributes?limit=x`, undefined, bobToken))
          .status,
        400,
      );
    });

    await t.step("the quota: a clear message, nothing stored, in game and over REST", async () => {
      await say(alice, `&big1 me=${"x".repeat(8000)}`, /Set\./);
      await say(alice, `&big2 me=${"x".repeat(8000)}`, /Set\./);
      await say(alice, `&big3 me=${"x".repeat(8000)}`, /over the quota of 20000 bytes/);
      const r = await api(b, "PUT", `/api/v1/dbobj/${aliceId}/attributes/big3`, {
        value: "y".repeat(8000),
      }, aliceToken);
      assertEquals(r.status, 400);
      assertMatch(r.body.error, /Alice's attributes at \d+ bytes, over the quota of 20000 bytes/);
      assertEquals(
        (await api(b, "GET", `/api/v1/dbobj/${aliceId}/attributes/big3`, undefined, aliceToken))
          .status,
        404,
      );
      await say(alice, "@wipe me/big*", /Wiped\./);
      await say(alice, `&big3 me=${"x".repeat(8000)}`, /Set\./);
    });

    await t.step("a destroyed object's attributes leave the database", async () => {
      const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
      closers.push(() => admin.close());
      await say(admin, "@create Crate", /Crate/);
      await say(admin, "&label crate=fragile", /Set\./);
      const listed = await say(admin, "examine crate", /Crate[^\r\n]*#\d+/);
      const crateId = /#(\d+)/.exec(listed)![1];
      await say(admin, "ex crate/label", /LABEL: fragile/);
      await say(admin, "@destroy crate", /Destroyed Crate/);
      await srv.stop({ keepDir: true });
      closers.length = 0;
      const kv = await Deno.openKv(join(srv.dir, "ursamu.db"));
      try {
        const left = [];
        for await (const e of kv.list({ prefix: ["attr", crateId] })) left.push(e.key);
        assertEquals(left, []);
        const kept = await kv.get(["attr", aliceId, "FINGER"]);
        assertEquals((kept.value as { value: string }).value, "Tall and quiet.");
      } finally {
        kv.close();
      }
    });
  } finally {
    for (const close of closers) await close().catch(() => {});
    await srv.stop();
  }
});
