/**
 * Every list endpoint pages with `limit`/`offset` (default 50, at most 200; channel history
 * 20 and 500), keeps its order, answers a bare array, and refuses bad values with a 400.
 */
import { assert, assertEquals } from "./assert.ts";
import { api } from "./harness.ts";
import { startPluginWorld } from "./plugins_world.ts";

const BAD = ["abc", "-1", "1.5", "0"];

Deno.test("paging: 1,050 notes are listed 50 at a time, up to 200, to the end", async () => {
  // More notes than a player keeps by default (plugins.notes.maxNotes, 1000).
  const w = await startPluginWorld(["Alice"], {
    config: { plugins: { notes: { maxNotes: 2000 } } },
  });
  try {
    const base = w.srv.base;
    const token = w.tokens.Alice;
    // Parallel POSTs in small batches: fast, and gentle on the notes counter.
    const ids: string[] = [];
    for (let i = 0; i < 1050; i += 15) {
      const batch = await Promise.all(
        Array.from(
          { length: Math.min(15, 1050 - i) },
          (_, j) => api(base, "POST", "/api/v1/notes", { text: `note ${i + j}` }, token),
        ),
      );
      for (const r of batch) {
        assertEquals(r.status, 201, JSON.stringify(r.body));
        ids.push(r.body.id);
      }
    }
    // Oldest first means in id order.
    ids.sort((a, b) => Number(a) - Number(b));
    const list = async (q: string) => {
      const r = await api(base, "GET", `/api/v1/notes${q}`, undefined, token);
      assertEquals(r.status, 200, `${q}: ${JSON.stringify(r.body)}`);
      assert(Array.isArray(r.body), q);
      return r.body.map((n: { id: string }) => n.id);
    };
    assertEquals(await list(""), ids.slice(0, 50));
    assertEquals(await list("?limit=200"), ids.slice(0, 200));
    assertEquals(await list("?limit=201"), ids.slice(0, 200));
    assertEquals(await list("?limit=200&offset=1000"), ids.slice(1000));
    assertEquals(await list("?offset=1049"), ids.slice(1049));
    assertEquals(await list("?offset=1050"), []);
    for (const deep of ["1000001", "99999999999999999999"]) {
      const r = await api(base, "GET", `/api/v1/notes?offset=${deep}`, undefined, token);
      assertEquals([r.status, r.body], [400, { error: "offset must be at most 1000000." }]);
    }
    assertEquals(await list("?offset=1000000"), []);
    for (const bad of BAD) {
      for (const q of [`?limit=${bad}`, `?offset=${bad === "0" ? "-3" : bad}`]) {
        const r = await api(base, "GET", `/api/v1/notes${q}`, undefined, token);
        assertEquals(r.status, 400, q);
        assertEquals(typeof r.body.error, "string", q);
      }
    }
    // In game: 50 a page too, with a pointer to the next page.
    const alice = await w.login("Alice");
    const first = await alice.cmd("+notes", /Your notes/);
    assert(first.msg.includes(`${ids[49]}%cn: `) && !first.msg.includes(`${ids[50]}%cn: `));
    assert(first.msg.endsWith("More: +notes 2"), first.msg.slice(-80));
    const last = await alice.cmd("+notes 21", /page 21/);
    assert(last.msg.includes(`${ids[1049]}%cn: `) && !last.msg.includes("More:"));
    await alice.cmd("+notes 22", /No notes on page 22/);
    await alice.cmd("+notes x", /Usage: \+notes/);
  } finally {
    await w.stop();
  }
});

Deno.test("paging: online players, objects, channels and channel history", async () => {
  const w = await startPluginWorld(["Alice", "Bob"]);
  try {
    const base = w.srv.base;
    const get = (path: string, token?: string) => api(base, "GET", path, undefined, token);
    const alice = await w.login("Alice");
    const bob = await w.login("Bob");

    // Online players, in the order they came online.
    const online = (await get("/api/v1/players/online")).body.map((p: { name: string }) => p.name);
    assertEquals(online, ["Alice", "Bob"]);
    assertEquals((await get("/api/v1/players/online?limit=1")).body.length, 1);
    assertEquals(
      (await get("/api/v1/players/online?limit=1&offset=1")).body.map((p: { name: string }) =>
        p.name
      ),
      ["Bob"],
    );

    // Objects, in dbref order.
    const all = (await get("/api/v1/dbos", w.tokens.Root)).body.map((o: { id: string }) => o.id);
    assert(all.length >= 4, JSON.stringify(all));
    assertEquals(
      (await get("/api/v1/dbos?limit=2&offset=1", w.tokens.Root)).body.map((o: { id: string }) =>
        o.id
      ),
      all.slice(1, 3),
    );

    // Channels, by name.
    const root = await w.login("Root");
    await root.cmd("@chancreate Alpha", /Channel Alpha created/);
    await root.cmd("@chancreate Zeta", /Channel Zeta created/);
    const names = async (q: string) =>
      (await get(`/api/v1/channels${q}`)).body.map((c: { name: string }) => c.name);
    // A fresh game's OOC and Public beside them (its Staff channel is hidden).
    assertEquals(await names(""), ["Alpha", "OOC", "Public", "Zeta"]);
    assertEquals(await names("?limit=1&offset=1"), ["OOC"]);
    assertEquals(await names("?offset=3"), ["Zeta"]);

    // History: the newest page first, each page oldest first; 20 by default.
    for (let i = 1; i <= 25; i++) await alice.send(`pub m${i}`);
    await bob.ws.expect((m) => m.data.type === "channel" && m.data.text === "m25", 20_000);
    const hist = async (q: string) => {
      const r = await get(`/api/v1/channels/Public/history${q}`, w.tokens.Bob);
      assertEquals(r.status, 200, JSON.stringify(r.body));
      return r.body.map((e: { message: string }) => e.message);
    };
    const m = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, i) => `m${from + i}`);
    assertEquals(await hist(""), m(6, 25));
    assertEquals(await hist("?offset=20"), m(1, 5));
    assertEquals(await hist("?limit=3&offset=1"), m(22, 24));
    assertEquals(await hist("?limit=100000"), m(1, 25));

    for (
      const path of [
        "/api/v1/players/online",
        "/api/v1/dbos",
        "/api/v1/channels",
        "/api/v1/channels/Public/history",
      ]
    ) {
      for (const bad of BAD) {
        for (const q of [`?limit=${bad}`, `?offset=${bad === "0" ? "-3" : bad}`]) {
          const r = await get(path + q, w.tokens.Bob);
          assertEquals(r.status, 400, path + q);
          assertEquals(typeof r.body.error, "string", path + q);
        }
      }
    }
  } finally {
    await w.stop();
  }
});
