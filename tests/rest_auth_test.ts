import { assert, assertEquals, assertMatch } from "./assert.ts";
import { api, register, startServer } from "./harness.ts";

Deno.test("auth: register, login, me and the token rules", async (t) => {
  const srv = await startServer();
  const b = srv.base;
  try {
    await t.step("register returns a token that /me accepts", async () => {
      const token = await register(b, "Alice");
      const me = await api(b, "GET", "/api/v1/me", undefined, token);
      assertEquals(me.status, 200);
      assertEquals(me.body.name, "Alice");
      assertEquals(me.body.flags, ["player"]);
      assertEquals(me.body.data, { description: "", avatar: "" });
      assertEquals(typeof me.body.id, "string");
    });

    await t.step("login by name and by the username alias, case-insensitive", async () => {
      for (const body of [{ name: "alice" }, { username: "ALICE" }]) {
        const r = await api(b, "POST", "/api/v1/auth/login", { ...body, password: "password123" });
        assertEquals(r.status, 200);
        assertEquals(typeof r.body.token, "string");
      }
    });

    await t.step("names are unique case-insensitively", async () => {
      const r = await api(b, "POST", "/api/v1/auth/register", {
        name: "ALICE",
        password: "password123",
      });
      assertEquals(r.status, 409);
      assertMatch(r.body.error, /taken/);
    });

    await t.step("password and name rules answer 400 and create nothing", async () => {
      const cases: unknown[] = [
        { name: "Bob", password: "short" },
        { name: "Bob", password: "x".repeat(513) },
        { name: "Bob" },
        { password: "password123" },
        { name: "B\u0000ob", password: "password123" },
        { name: "../etc", password: "password123" },
        { name: "x".repeat(10_000), password: "password123" },
        { name: 42, password: "password123" },
        { name: "here", password: "password123" },
      ];
      for (const body of cases) {
        const r = await api(b, "POST", "/api/v1/auth/register", body);
        assertEquals(r.status, 400, JSON.stringify(body).slice(0, 80));
        assertEquals(typeof r.body.error, "string");
      }
      const login = await api(b, "POST", "/api/v1/auth/login", {
        name: "Bob",
        password: "password123",
      });
      assertEquals(login.status, 401);
    });

    await t.step("malformed bodies answer 400 with {error}", async () => {
      for (const body of ["{not json", "[1,2]", '"str"', "", "null"]) {
        const r = await api(b, "POST", "/api/v1/auth/register", body);
        assertEquals(r.status, 400, body);
        assertEquals(typeof r.body.error, "string");
      }
    });

    await t.step("oversized bodies answer 400 before parsing", async () => {
      const r = await api(b, "POST", "/api/v1/auth/login", {
        name: "alice",
        password: "x".repeat(200_000),
      });
      assertEquals(r.status, 400);
      assertMatch(r.body.error, /larger than/);
    });

    await t.step("missing, malformed and forged tokens answer 401", async () => {
      const forged = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIyIn0.c2lnbmF0dXJl";
      for (const tok of [undefined, "garbage", forged]) {
        const r = await api(b, "GET", "/api/v1/me", undefined, tok);
        assertEquals(r.status, 401);
        assertEquals(typeof r.body.error, "string");
      }
      const none = await api(b, "GET", "/api/v1/me", undefined, "alg.none.x");
      assertEquals(none.status, 401);
    });

    await t.step("wrong password answers 401 and is logged", async () => {
      const r = await api(b, "POST", "/api/v1/auth/login", {
        name: "alice",
        password: "nopenope1",
      });
      assertEquals(r.status, 401);
      const log = await Deno.readTextFile(`${srv.dir}/logs/security.log`);
      const entry = log.trim().split("\n").map((l) => JSON.parse(l)).find((e) =>
        e.event === "LOGIN_FAILED" && e.target === "alice"
      );
      assert(entry, "LOGIN_FAILED logged");
      assertEquals(entry.ip, "127.0.0.1");
      assertEquals(entry.target, "alice");
    });

    await t.step(
      "a failed login's unknown name is logged only when it cannot be a password",
      async () => {
        const fail = (name: string) =>
          api(b, "POST", "/api/v1/auth/login", { name, password: "nopenope1" });
        const failures = async () =>
          (await Deno.readTextFile(`${srv.dir}/logs/security.log`)).trim().split("\n")
            .map((l) => JSON.parse(l)).filter((e) => e.event === "LOGIN_FAILED");
        const before = (await failures()).length;
        // A password typed as the name (8 characters or more, naming no character), twice.
        assertEquals((await fail("Tr0ub4dor&3xyz")).status, 401);
        assertEquals((await fail("tr0ub4dor&3XYZ")).status, 401);
        assertEquals((await fail("root")).status, 401);
        let targets: string[] = [];
        for (let i = 0; i < 100 && targets.length < 3; i++) {
          await new Promise((r) => setTimeout(r, 50));
          const log = await Deno.readTextFile(`${srv.dir}/logs/security.log`);
          assert(!/Tr0ub4dor|ub4dor/i.test(log), "the typed secret never reaches the log");
          targets = (await failures()).slice(before).map((e) => e.target);
        }
        assertEquals(targets.length, 3, targets.join(", "));
        assertMatch(targets[0], /^Tr… \[[0-9a-f]{8}\]$/);
        assertEquals(targets[1].slice(2), targets[0].slice(2), "one name (any case), one tag");
        assertEquals(targets[2], "root", "shorter than any password: as typed");
      },
    );
  } finally {
    await srv.stop();
  }
});

Deno.test("auth: 10 failed logins a minute per IP, then 429 and LOGIN_RATE_LIMITED", async () => {
  const srv = await startServer();
  try {
    await register(srv.base, "Carol");
    for (let i = 0; i < 10; i++) {
      const r = await api(srv.base, "POST", "/api/v1/auth/login", {
        name: "carol",
        password: "wrongpass" + i,
      });
      assertEquals(r.status, 401);
    }
    const limited = await api(srv.base, "POST", "/api/v1/auth/login", {
      name: "carol",
      password: "password123",
    });
    assertEquals(limited.status, 429);
    assertEquals(typeof limited.body.error, "string");
    const log = await Deno.readTextFile(`${srv.dir}/logs/security.log`);
    assertMatch(log, /"event":"LOGIN_RATE_LIMITED"/);
    assertEquals(log.match(/"event":"LOGIN_FAILED"/g)?.length, 10);
  } finally {
    await srv.stop();
  }
});

Deno.test("auth: registration can be closed by configuration", async () => {
  const srv = await startServer({ config: { game: { registerEnabled: false } } });
  try {
    const r = await api(srv.base, "POST", "/api/v1/auth/register", {
      name: "Dave",
      password: "password123",
    });
    assertEquals(r.status, 400);
    assertMatch(r.body.error, /closed/);
  } finally {
    await srv.stop();
  }
});

Deno.test("auth: first-run superuser comes only from the environment, never from register", async () => {
  const srv = await startServer({
    env: { URSAMU_SUPERUSER_NAME: "Owner", URSAMU_SUPERUSER_PASSWORD: "ownerpass1" },
  });
  try {
    const login = await api(srv.base, "POST", "/api/v1/auth/login", {
      name: "Owner",
      password: "ownerpass1",
    });
    assertEquals(login.status, 200);
    const me = await api(srv.base, "GET", "/api/v1/me", undefined, login.body.token);
    assertEquals(me.body.flags.sort(), ["player", "superuser"]);
    const other = await register(srv.base, "Second");
    const me2 = await api(srv.base, "GET", "/api/v1/me", undefined, other);
    assertEquals(me2.body.flags, ["player"]);
  } finally {
    await srv.stop();
  }
});
