/**
 * Black-box tests of what may be stored and what happens to a stored value that cannot be
 * read back: deep or oversized data is refused with a message naming the limit, and one
 * unreadable object (planted in the database the way an older engine let a player write it)
 * no longer breaks logins, room reads, listings, lookups or the channels plugin; staff repair it.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { api, register, startServer, type TestServer } from "./harness.ts";
import { connectWs, pacedSender, type WsClient } from "./ws_client.ts";

const ROOT_ENV = { URSAMU_SUPERUSER_NAME: "Root", URSAMU_SUPERUSER_PASSWORD: "rootpass1" };

/** An object nested `n` levels below the top one: 3,000 is what the report sent. */
function nested(n: number): Record<string, unknown> {
  let v: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) v = { a: v };
  return v;
}

async function login(b: string, name: string, password = "password123") {
  return await api(b, "POST", "/api/v1/auth/login", { name, password });
}

async function game(srv: TestServer, token: string) {
  const ws = await connectWs(srv, { token, client: "web" });
  await ws.expect((m) => m.data.type === "session");
  const send = pacedSender(ws);
  return {
    ws,
    /** Sends a line and waits for the reply matching `want`. */
    async cmd(line: string, want: RegExp) {
      await send(line);
      return (await ws.expect(want)).msg;
    },
  };
}

Deno.test("storage limits: deep and oversized data are refused before the write, naming the limit", async (t) => {
  const srv = await startServer({ env: ROOT_ENV });
  const b = srv.base;
  const open: WsClient[] = [];
  try {
    const root = (await login(b, "Root", "rootpass1")).body.token as string;
    const alice = await register(b, "Alice");
    const id = (await api(b, "GET", "/api/v1/me", undefined, alice)).body.id as string;

    await t.step("3,000 levels of state: 400 naming the depth limit, nothing stored", async () => {
      const r = await api(
        b,
        "PATCH",
        `/api/v1/dbobj/${id}`,
        { data: { state: nested(3000) } },
        alice,
      );
      assertEquals(r.status, 400);
      assertMatch(r.body.error, /data\.state must be at most 32 levels deep/);
      assertEquals((await login(b, "Alice")).status, 200);
      assertEquals((await api(b, "GET", "/api/v1/dbobj/1", undefined, alice)).status, 200);
      assertEquals((await api(b, "GET", "/api/v1/dbos", undefined, root)).status, 200);
      const me = await api(b, "GET", `/api/v1/dbobj/${id}`, undefined, alice);
      assertEquals(me.body.data.state, {});
    });

    await t.step("32 levels are fine, 33 are not", async () => {
      const ok = await api(
        b,
        "PATCH",
        `/api/v1/dbobj/${id}`,
        { data: { state: nested(31) } },
        alice,
      );
      assertEquals(ok.status, 200);
      const deep = await api(
        b,
        "PATCH",
        `/api/v1/dbobj/${id}`,
        { data: { state: nested(32) } },
        alice,
      );
      assertEquals(deep.status, 400);
    });

    await t.step("an object over 64 KiB: 400 naming the limit (was a bare 500)", async () => {
      // Characters past Latin-1 take two bytes each in a stored string.
      const big = { data: { state: { s: "Ā".repeat(32_000) } } };
      assertEquals((await api(b, "PATCH", `/api/v1/dbobj/${id}`, big, alice)).status, 200);
      const r = await api(
        b,
        "PATCH",
        `/api/v1/dbobj/${id}`,
        { description: "Ā".repeat(1000) },
        alice,
      );
      assertEquals(r.status, 400);
      assertMatch(r.body.error, /cannot be stored: it takes \d+ bytes .*65536 bytes \(64 KiB\)/);
      const me = await api(b, "GET", `/api/v1/dbobj/${id}`, undefined, alice);
      assertEquals(me.body.data.description, "");
    });

    await t.step(
      "an object just under 64 KiB: staff @set and @name say why they fail",
      async () => {
        // The longest description that still fits leaves no room for one more flag or letter.
        let [lo, hi] = [0, 2000];
        while (lo < hi) {
          const mid = (lo + hi + 1) >> 1;
          const r = await api(
            b,
            "PATCH",
            `/api/v1/dbobj/${id}`,
            { description: "a".repeat(mid) },
            alice,
          );
          if (r.status === 200) lo = mid;
          else {
            assertMatch(r.body.error, /65536 bytes/);
            hi = mid - 1;
          }
        }
        assert(lo > 0 && lo < 2000, `fitted description length ${lo}`);
        assertEquals(
          (await api(b, "PATCH", `/api/v1/dbobj/${id}`, { description: "a".repeat(lo) }, alice))
            .status,
          200,
        );
        const staff = await game(srv, root);
        open.push(staff.ws);
        const set = await staff.cmd(`@set #${id}=dark`, /65536|^Set\.$|Something went wrong/);
        assertMatch(set, /cannot be stored: it takes \d+ bytes .*65536 bytes \(64 KiB\)/);
        const name = await staff.cmd(
          `@name #${id}=Alicebeth`,
          /65536|Name set|Something went wrong/,
        );
        assertMatch(name, /65536 bytes \(64 KiB\)/);
        const me = await api(b, "GET", `/api/v1/dbobj/${id}`, undefined, alice);
        assertEquals(me.body.name, "Alice");
        assert(!me.body.flags.includes("dark"));
      },
    );
  } finally {
    for (const ws of open) await ws.close().catch(() => {});
    await srv.stop();
  }
});

Deno.test("storage limits: one unreadable object breaks nothing else, and staff repair it", async (t) => {
  let srv = await startServer({ env: ROOT_ENV });
  const open: WsClient[] = [];
  try {
    const alice = await register(srv.base, "Alice");
    await register(srv.base, "Bob");
    const id = (await api(srv.base, "GET", "/api/v1/me", undefined, alice)).body.id as string;
    await api(srv.base, "PATCH", `/api/v1/dbobj/${id}`, { data: { state: { mood: "ok" } } }, alice);

    // Plant what the old engine stored for the PATCH (it accepted it with a 200),
    // and an unreadable channel membership beside it; then start again on that database.
    await srv.stop({ keepDir: true });
    const kv = await Deno.openKv(join(srv.dir, "ursamu.db"));
    try {
      const obj = (await kv.get<Record<string, unknown>>(["obj", id])).value!;
      await kv.set(["obj", id], { ...obj, data: { state: nested(3000) } });
      await assertRejects(() => kv.get(["obj", id]));
      await kv.set(["plugin", "channels", "member", "public", id], nested(3000));
    } finally {
      kv.close();
    }
    srv = await startServer({ env: ROOT_ENV, dir: srv.dir });
    const b = srv.base;

    await t.step("the channels plugin loads past the unreadable membership, logged", async () => {
      await srv.waitFor(/plugins: channels: loaded/);
      const member = `unreadable value at \\["plugin","channels","member","public","${id}"\\]`;
      assertMatch(srv.output(), new RegExp(member));
      assert(!/channels.*(fail|error)/i.test(srv.output()), srv.output());
    });

    const bobLogin = await login(b, "Bob");
    const rootLogin = await login(b, "Root", "rootpass1");

    await t.step(
      "others log in; room, listings and lookups work without the broken object",
      async () => {
        assertEquals(bobLogin.status, 200);
        assertEquals(rootLogin.status, 200);
        const bob = bobLogin.body.token as string;
        const room = await api(b, "GET", "/api/v1/dbobj/1", undefined, bob);
        assertEquals(room.status, 200);
        assert(!room.body.contents.some((c: { id: string }) => c.id === id));
        for (const q of ["", "?flags=player"]) {
          const all = await api(b, "GET", `/api/v1/dbos${q}`, undefined, rootLogin.body.token);
          assertEquals(all.status, 200);
          assert(all.body.length >= 2);
        }
        assertEquals((await api(b, "GET", "/api/v1/dbos", undefined, bob)).status, 200);
        assertEquals((await api(b, "GET", `/api/v1/dbobj/${id}`, undefined, bob)).status, 404);
        const g = await game(srv, bob);
        open.push(g.ws);
        assertMatch(await g.cmd("look", /Limbo|Bob/), /./);
        assertMatch(await g.cmd("look Alice", /don't see|recognize|Alice/), /don't see|recognize/);
        assertMatch(await g.cmd("pub hello all", /hello all|Huh/), /\[Public\].*hello all/);
        const seen = srv.output().match(new RegExp(`unreadable value at \\["obj","${id}"\\]`, "g"));
        assertEquals(seen?.length, 1, "logged once, however often it is met");
      },
    );

    await t.step("the broken player's own login is refused cleanly, not a 500", async () => {
      const r = await login(b, "Alice");
      assert(r.status < 500, `status ${r.status}`);
    });

    await t.step("staff @repair rebuilds it; then it can log in and be toaded", async () => {
      const bob = bobLogin.body.token as string;
      assertEquals((await api(b, "POST", `/api/v1/dbobj/${id}/repair`, {}, bob)).status, 403);
      const staff = await game(srv, rootLogin.body.token);
      open.push(staff.ws);
      assertMatch(await staff.cmd("@repair Alice", /Usage|Repaired/), /Usage: @repair <#dbref>/);
      assertMatch(await staff.cmd("@repair #99999", /no object|Repaired/), /There is no object/);
      const done = await staff.cmd(`@repair #${id}`, /Repaired|reads fine|Huh/);
      assertMatch(done, new RegExp(`Repaired: rebuilt #${id} as 'alice' \\[.*player.*\\] in #1`));
      assertMatch(await staff.cmd(`@repair #${id}`, /reads fine|Repaired/), /reads fine/);
      const rest = await api(b, "POST", `/api/v1/dbobj/${id}/repair`, {}, rootLogin.body.token);
      assertEquals(rest.status, 200);
      assertEquals(rest.body.repaired, false);
      const obj = await api(b, "GET", `/api/v1/dbobj/${id}`, undefined, bob);
      assertEquals(obj.status, 200);
      assertEquals(obj.body.location, "1");
      assertEquals((await login(b, "Alice")).status, 200);
      const log = await Deno.readTextFile(join(srv.dir, "logs", "security.log"));
      assertMatch(log, new RegExp(`"event":"ADMIN_REPAIR".*"target":"${id}"`));
      assertMatch(await staff.cmd(`@toad #${id}`, /toad/), /You turned alice into a toad/);
    });
  } finally {
    for (const ws of open) await ws.close().catch(() => {});
    await srv.stop();
  }
});

async function assertRejects(fn: () => Promise<unknown>): Promise<void> {
  let threw = false;
  try {
    await fn();
  } catch {
    threw = true;
  }
  assert(threw, "expected the planted value to be unreadable");
}
