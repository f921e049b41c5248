import { assert, assertEquals, assertMatch } from "./assert.ts";
import { api, register, startServer } from "./harness.ts";

Deno.test("objects REST: dbobj read and patch rules, dbos listing", async (t) => {
  const srv = await startServer({
    env: { URSAMU_SUPERUSER_NAME: "Root", URSAMU_SUPERUSER_PASSWORD: "rootpass1" },
  });
  const b = srv.base;
  try {
    const admin =
      (await api(b, "POST", "/api/v1/auth/login", { name: "Root", password: "rootpass1" })).body
        .token as string;
    const alice = await register(b, "Alice");
    const bob = await register(b, "Bob");
    const aliceId = (await api(b, "GET", "/api/v1/me", undefined, alice)).body.id as string;

    await t.step("needs a token", async () => {
      assertEquals((await api(b, "GET", "/api/v1/dbobj/1")).status, 401);
      assertEquals((await api(b, "GET", "/api/v1/dbos")).status, 401);
      assertEquals((await api(b, "PATCH", "/api/v1/dbobj/1", { name: "X" })).status, 401);
    });

    await t.step("room #1 shows its fields and contents, by id or dbref", async () => {
      for (const ref of ["1", "%231"]) {
        const r = await api(b, "GET", `/api/v1/dbobj/${ref}`, undefined, alice);
        assertEquals(r.status, 200);
        assertEquals(r.body.id, "1");
        assertEquals(r.body.flags, ["room"]);
        assertEquals(typeof r.body.location, "string");
        assertEquals(typeof r.body.data.description, "string");
        assertEquals(typeof r.body.data.state, "object");
        assert(Array.isArray(r.body.contents));
        assert(r.body.contents.some((c: { id: string }) => c.id === aliceId));
      }
    });

    await t.step("unknown and malformed ids are 404", async () => {
      for (const ref of ["999999", "abc", "..%2F..%2Fetc", "-1", "1e5"]) {
        const r = await api(b, "GET", `/api/v1/dbobj/${ref}`, undefined, alice);
        assertEquals(r.status, 404, ref);
        assertEquals(typeof r.body.error, "string");
      }
    });

    await t.step("the owner may patch description, data and name", async () => {
      const r = await api(b, "PATCH", `/api/v1/dbobj/${aliceId}`, {
        description: "Tall and curious.",
        data: { avatar: "/avatars/alice.png", state: { mood: "happy" } },
      }, alice);
      assertEquals(r.status, 200);
      assertEquals(r.body.data.description, "Tall and curious.");
      assertEquals(r.body.data.avatar, "/avatars/alice.png");
      assertEquals(r.body.data.state, { mood: "happy" });
      const me = await api(b, "GET", "/api/v1/me", undefined, alice);
      assertEquals(me.body.data.description, "Tall and curious.");
    });

    await t.step("an avatar is a web address or a path on this site, nothing else", async () => {
      for (
        const bad of ["javascript:alert(1)", "//evil.example/x.png", "data:image/png;base64,AA"]
      ) {
        const r = await api(
          b,
          "PATCH",
          `/api/v1/dbobj/${aliceId}`,
          { data: { avatar: bad } },
          alice,
        );
        assertEquals(r.status, 400, bad);
        assert(/http: or https: address/.test(r.body.error), r.body.error);
      }
      const ok = await api(b, "PATCH", `/api/v1/dbobj/${aliceId}`, {
        data: { avatar: "https://example.com/alice.png" },
      }, alice);
      assertEquals(ok.body.data.avatar, "https://example.com/alice.png");
      const back = await api(b, "PATCH", `/api/v1/dbobj/${aliceId}`, {
        data: { avatar: "/avatars/alice.png" },
      }, alice);
      assertEquals(back.body.data.avatar, "/avatars/alice.png");
    });

    await t.step("others get 403 and nothing changes", async () => {
      const r = await api(b, "PATCH", `/api/v1/dbobj/${aliceId}`, { description: "hacked" }, bob);
      assertEquals(r.status, 403);
      const room = await api(b, "PATCH", "/api/v1/dbobj/1", { name: "Mine" }, bob);
      assertEquals(room.status, 403);
      const me = await api(b, "GET", "/api/v1/me", undefined, alice);
      assertEquals(me.body.data.description, "Tall and curious.");
    });

    await t.step("no mass assignment: flags, owner and engine data keys are refused", async () => {
      const bodies = [
        { flags: ["admin"] },
        { owner: "2" },
        { data: { home: "99" } },
        { data: { locks: {} } },
        { data: "string" },
        { data: { state: [] } },
        { name: "" },
        { name: "Bad\u0007Name" },
        { description: 5 },
        { description: "x".repeat(9000) },
        {},
      ];
      for (const body of bodies) {
        const r = await api(b, "PATCH", `/api/v1/dbobj/${aliceId}`, body, alice);
        assertEquals(r.status, 400, JSON.stringify(body).slice(0, 60));
        assertEquals(typeof r.body.error, "string");
      }
      const me = await api(b, "GET", "/api/v1/me", undefined, alice);
      assertEquals(me.body.flags, ["player"]);
      assertEquals(me.body.name, "Alice");
    });

    await t.step("a player's new name must be free; renames update the name index", async () => {
      const taken = await api(b, "PATCH", `/api/v1/dbobj/${aliceId}`, { name: "bob" }, alice);
      assertEquals(taken.status, 409);
      const ok = await api(b, "PATCH", `/api/v1/dbobj/${aliceId}`, { name: "Alicia" }, alice);
      assertEquals(ok.status, 200);
      const login = await api(b, "POST", "/api/v1/auth/login", {
        name: "alicia",
        password: "password123",
      });
      assertEquals(login.status, 200);
      const old = await api(b, "POST", "/api/v1/auth/login", {
        name: "alice",
        password: "password123",
      });
      assertEquals(old.status, 401);
    });

    await t.step("an admin may patch anything", async () => {
      const r = await api(b, "PATCH", "/api/v1/dbobj/1", { name: "The Nexus" }, admin);
      assertEquals(r.status, 200);
      assertEquals(r.body.name, "The Nexus");
    });

    await t.step("dbos filters by flag and shows only what the caller may see", async () => {
      const rooms = await api(b, "GET", "/api/v1/dbos?flags=room", undefined, bob);
      assertEquals(rooms.status, 200);
      assert(rooms.body.every((o: { flags: string[] }) => o.flags.includes("room")));
      assert(rooms.body.some((o: { id: string }) => o.id === "1"));
      const players = await api(b, "GET", "/api/v1/dbos?flags=player", undefined, bob);
      assertEquals(players.body.length, 3);
      const all = await api(b, "GET", "/api/v1/dbos?limit=2", undefined, admin);
      assertEquals(all.body.length, 2);
      const bad = await api(b, "GET", "/api/v1/dbos?flags=%3Cscript%3E", undefined, bob);
      assertEquals(bad.status, 400);
      const badLimit = await api(b, "GET", "/api/v1/dbos?limit=-3", undefined, bob);
      assertEquals(badLimit.status, 400);
      assertMatch(badLimit.body.error, /limit/);
    });
  } finally {
    await srv.stop();
  }
});
