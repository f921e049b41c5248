/**
 * A player's own password change (issue 39, item 5), from outside: `@password <old>=<new>` in
 * game and `POST /api/v1/auth/password` from the settings page. The current password is
 * required and a wrong one counts toward the failed-login limit; on success every other session
 * ends and the one that asked goes on with a fresh token; bad input changes nothing.
 */
import { assert, assertEquals } from "./assert.ts";
import { api, register, startServer } from "./harness.ts";
import { connectWs } from "./ws_client.ts";

const P = "/api/v1/auth/password";

Deno.test("password: @password and POST /auth/password change one's own password", async (t) => {
  const srv = await startServer();
  const b = srv.base;
  try {
    await t.step("@password: usage, rules and a wrong old password change nothing", async () => {
      const token = await register(b, "Pia", "password123");
      const ws = await connectWs(srv, { client: "web", token });
      try {
        await ws.expect((m) => m.data.type === "session", 15_000);
        ws.send("@password password123");
        await ws.expect(/^Usage: @password <old password>=<new password>$/, 15_000);
        ws.send("@password password123=short");
        await ws.expect(/^That password won't do: .*\.$/, 15_000);
        ws.send("@password not-my-password=brand-new-pass");
        await ws.expect(/^That is not your current password\.$/, 15_000);
        assertEquals((await api(b, "GET", "/api/v1/me", undefined, token)).status, 200);
        const login = await api(b, "POST", "/api/v1/auth/login", {
          name: "Pia",
          password: "password123",
        });
        assertEquals(login.status, 200, "the old password still works");
      } finally {
        await ws.close();
      }
    });

    await t.step("@password: other sessions end, this one goes on with a new token", async () => {
      const token = (await api(b, "POST", "/api/v1/auth/login", {
        name: "Pia",
        password: "password123",
      })).body.token as string;
      const here = await connectWs(srv, { client: "web", token });
      const other = await connectWs(srv, { client: "web", token });
      try {
        await here.expect((m) => m.data.type === "session", 15_000);
        await other.expect((m) => m.data.type === "session", 15_000);
        here.send("@password password123=brand-new-pass");
        const renewed = await here.expect(
          (m) => m.data.type === "session" && m.data.resumed === false && m.data.token !== token,
          15_000,
        );
        await here.expect(/^Password changed\. Your other sessions have ended\.$/, 15_000);
        await other.expect(/Your password was changed from another session/, 15_000);
        await other.closed;
        assertEquals((await api(b, "GET", "/api/v1/me", undefined, token)).status, 401);
        const fresh = renewed.data.token as string;
        assertEquals((await api(b, "GET", "/api/v1/me", undefined, fresh)).status, 200);
        here.send("think still here");
        await here.expect(/still here/, 15_000);
        const login = await api(b, "POST", "/api/v1/auth/login", {
          name: "Pia",
          password: "brand-new-pass",
        });
        assertEquals(login.status, 200);
      } finally {
        await here.close();
        await other.close();
      }
    });

    await t.step("REST: bad input answers { error } and changes nothing", async () => {
      const token = await register(b, "Rex", "password123");
      assertEquals(
        (await api(b, "POST", P, { oldPassword: "password123", newPassword: "x".repeat(9) }))
          .status,
        401,
      );
      const cases: [unknown, number, RegExp][] = [
        [{}, 400, /oldPassword and newPassword are required/],
        [{ oldPassword: "password123" }, 400, /required/],
        [{ oldPassword: 5, newPassword: "brand-new-pass" }, 400, /required/],
        [{ oldPassword: "password123", newPassword: "short" }, 400, /./],
        [{ oldPassword: "password123", newPassword: "x".repeat(513) }, 400, /./],
        [
          { oldPassword: "wrong-password", newPassword: "brand-new-pass" },
          403,
          /not your current password/,
        ],
        ["{not json", 400, /./],
      ];
      for (const [body, status, error] of cases) {
        const r = await api(b, "POST", P, body, token);
        assertEquals(r.status, status, JSON.stringify(body));
        assert(error.test(r.body.error), `${JSON.stringify(body)}: ${r.body.error}`);
      }
      assertEquals((await api(b, "GET", "/api/v1/me", undefined, token)).status, 200);
      const login = await api(b, "POST", "/api/v1/auth/login", {
        name: "Rex",
        password: "password123",
      });
      assertEquals(login.status, 200, "the password is unchanged");
    });

    await t.step("REST: every socket closes, the caller gets a fresh token", async () => {
      const token = (await api(b, "POST", "/api/v1/auth/login", {
        name: "Rex",
        password: "password123",
      })).body.token as string;
      const ws = await connectWs(srv, { client: "web", token });
      try {
        await ws.expect((m) => m.data.type === "session", 15_000);
        const r = await api(b, "POST", P, {
          oldPassword: "password123",
          newPassword: "brand-new-pass",
        }, token);
        assertEquals(r.status, 200);
        assertEquals(typeof r.body.token, "string");
        await ws.expect(/Your password was changed from another session/, 15_000);
        await ws.closed;
        assertEquals((await api(b, "GET", "/api/v1/me", undefined, token)).status, 401);
        assertEquals((await api(b, "GET", "/api/v1/me", undefined, r.body.token)).status, 200);
        const login = await api(b, "POST", "/api/v1/auth/login", {
          name: "Rex",
          password: "brand-new-pass",
        });
        assertEquals(login.status, 200);
      } finally {
        await ws.close();
      }
    });

    await t.step("wrong current passwords count toward the failed-login limit", async () => {
      const token = (await api(b, "POST", "/api/v1/auth/login", {
        name: "Rex",
        password: "brand-new-pass",
      })).body.token as string;
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        const r = await api(b, "POST", P, {
          oldPassword: `wrong-${i}-pass`,
          newPassword: "another-pass",
        }, token);
        statuses.push(r.status);
      }
      assert(statuses.every((s) => s === 403 || s === 429), String(statuses));
      assertEquals(statuses[0], 403);
      assertEquals(statuses[10], 429, "the eleventh is refused by the limit");
      const login = await api(b, "POST", "/api/v1/auth/login", {
        name: "Rex",
        password: "brand-new-pass",
      });
      assertEquals(login.status, 429, "logins from the address wait too");
    });
  } finally {
    await srv.stop();
  }
});
