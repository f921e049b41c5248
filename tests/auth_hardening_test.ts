/**
 * Black-box tests of login hardening: the failed-login limit holds against parallel attempts
 * (REST and WebSocket), every password character counts (no 72-byte bcrypt cut), old hashes
 * are upgraded at login, and tokens without `exp` are refused.
 */
import bcrypt from "bcryptjs";
import { SignJWT } from "jose";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { api, register, startServer, type TestServer } from "./harness.ts";
import { connectWs, type WsMessage } from "./ws_client.ts";
import { createEngine } from "../src/engine.ts";

const isType = (type: string) => (m: WsMessage) => m.data.type === type;

/** Security-log lines of one event, polled until `atLeast` are there or 5 s pass. */
async function logLines(srv: TestServer, event: string, atLeast = 1): Promise<number> {
  const end = Date.now() + 5000;
  let n = 0;
  while (Date.now() < end) {
    try {
      const text = await Deno.readTextFile(`${srv.dir}/logs/security.log`);
      n = text.split("\n").filter((l) => l.includes(`"event":"${event}"`)).length;
      if (n >= atLeast) return n;
    } catch { /* not written yet */ }
    await new Promise((r) => setTimeout(r, 50));
  }
  return n;
}

Deno.test("login limit: 60 parallel wrong REST logins, only 10 are checked, the rest get 429", async () => {
  // 60 requests at once are 60 connections from 127.0.0.1: over the default per-address
  // connection cap (50), which would refuse some before the login limit is reached.
  const srv = await startServer({ config: { server: { maxConnectionsPerIp: 100 } } });
  try {
    await register(srv.base, "Carol");
    const results = await Promise.all(
      Array.from(
        { length: 60 },
        (_, i) =>
          api(srv.base, "POST", "/api/v1/auth/login", { name: "Carol", password: `wrong-${i}-pw` }),
      ),
    );
    const statuses = results.map((r) => r.status);
    assertEquals(statuses.filter((s) => s === 401).length, 10, statuses.join(","));
    assertEquals(statuses.filter((s) => s === 429).length, 50, statuses.join(","));
    assertEquals(await logLines(srv, "LOGIN_FAILED", 10), 10);
    assert((await logLines(srv, "LOGIN_RATE_LIMITED")) >= 1, "LOGIN_RATE_LIMITED logged");
    // The right password from the same IP waits for the window like everything else.
    const right = await api(srv.base, "POST", "/api/v1/auth/login", {
      name: "Carol",
      password: "password123",
    });
    assertEquals(right.status, 429);
  } finally {
    await srv.stop();
  }
});

Deno.test("login limit: 40 parallel wrong WebSocket connects, only 10 are checked", async () => {
  const srv = await startServer();
  const clients = await Promise.all(
    Array.from({ length: 40 }, () => connectWs(srv.ws, { client: "web" })),
  );
  try {
    await register(srv.base, "Dora");
    await Promise.all(clients.map((c) => c.expect(isType("connect"))));
    clients.forEach((c, i) => c.send(`connect Dora wrong-${i}-pw`));
    const replies = await Promise.all(
      clients.map((c) => c.expect((m) => /different password|Too many failed/.test(m.msg), 20_000)),
    );
    const bad = replies.filter((m) => /different password/.test(m.msg)).length;
    const limited = replies.filter((m) => /Too many failed logins/.test(m.msg)).length;
    assertEquals(bad, 10);
    assertEquals(limited, 30);
    assertEquals(await logLines(srv, "LOGIN_FAILED", 10), 10);
    assert((await logLines(srv, "LOGIN_RATE_LIMITED")) >= 1, "LOGIN_RATE_LIMITED logged");
    const rest = await api(srv.base, "POST", "/api/v1/auth/login", {
      name: "Dora",
      password: "password123",
    });
    assertEquals(rest.status, 429, "REST and WebSocket share one limit");
  } finally {
    for (const c of clients) await c.close();
    await srv.stop();
  }
});

Deno.test("login limit: a flooded IP does not lock out a correct password from another IP", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-limit-" });
  const engine = await createEngine({
    root: dir,
    env: { URSAMU_SERVER_DB: `${dir}/db`, JWT_SECRET: "limit-secret" },
  });
  const login = (password: string, ip: string) =>
    engine.app.request("/api/v1/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Erin", password }),
    }, { remoteAddr: { hostname: ip } });
  try {
    await engine.services.accounts.register("Erin", "password123", { location: "1" });
    const flood = await Promise.all(
      Array.from({ length: 30 }, (_, i) => login(`nope-${i}-xx`, "192.0.2.1")),
    );
    assertEquals(flood.filter((r) => r.status === 401).length, 10);
    assertEquals(flood.filter((r) => r.status === 429).length, 20);
    const fresh = await login("password123", "192.0.2.2");
    assertEquals(fresh.status, 200);
    assertEquals(typeof (await fresh.json()).token, "string");
    // Correct logins give their slot back: they never lock their own IP out.
    for (let i = 0; i < 12; i++) {
      assertEquals((await login("password123", "192.0.2.3")).status, 200);
    }
  } finally {
    await engine.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("passwords: a suffix after 72 bytes matters at login", async () => {
  const srv = await startServer();
  try {
    const prefix = "a".repeat(72);
    const reg = await api(srv.base, "POST", "/api/v1/auth/register", {
      name: "Longpw",
      password: prefix + "-secret-tail",
    });
    assertEquals(reg.status, 200);
    for (const password of [prefix, prefix + "-anything", prefix + "-secret-tail!"]) {
      const r = await api(srv.base, "POST", "/api/v1/auth/login", { name: "Longpw", password });
      assertEquals(r.status, 401, password.slice(70));
    }
    const ok = await api(srv.base, "POST", "/api/v1/auth/login", {
      name: "Longpw",
      password: prefix + "-secret-tail",
    });
    assertEquals(ok.status, 200);
  } finally {
    await srv.stop();
  }
});

Deno.test("passwords: an old plain-bcrypt hash logs in (REST and connect) and is upgraded", async () => {
  let srv = await startServer();
  const dir = srv.dir;
  const ids: Record<string, string> = {};
  try {
    for (const name of ["Oldrest", "Oldws"]) {
      const token = await register(srv.base, name, "old-password-1");
      ids[name] = (await api(srv.base, "GET", "/api/v1/me", undefined, token)).body.id;
    }
    await srv.stop({ keepDir: true });
    // Rewrite the stored hashes as the previous scheme made them: bcrypt of the password itself.
    const kv = await Deno.openKv(`${dir}/ursamu.db`);
    try {
      for (const id of Object.values(ids)) {
        const entry = await kv.get<{ hash: string }>(["auth", id]);
        await kv.set(["auth", id], {
          ...entry.value,
          hash: await bcrypt.hash("old-password-1", 10),
        });
      }
    } finally {
      kv.close();
    }
    srv = await startServer({ dir });
    const r = await api(srv.base, "POST", "/api/v1/auth/login", {
      name: "Oldrest",
      password: "old-password-1",
    });
    assertEquals(r.status, 200);
    const c = await connectWs(srv.ws, { client: "web" });
    try {
      await c.expect(isType("connect"));
      c.send("connect Oldws old-password-1");
      await c.expect(isType("session"));
    } finally {
      await c.close();
    }
    await srv.stop({ keepDir: true });
    const kv2 = await Deno.openKv(`${dir}/ursamu.db`);
    try {
      for (const id of Object.values(ids)) {
        const hash = (await kv2.get<{ hash: string }>(["auth", id])).value!.hash;
        assertMatch(hash, /^v2\$\$2[aby]\$10\$/, `hash of #${id} upgraded`);
      }
    } finally {
      kv2.close();
    }
    srv = await startServer({ dir });
    const again = await api(srv.base, "POST", "/api/v1/auth/login", {
      name: "Oldrest",
      password: "old-password-1",
    });
    assertEquals(again.status, 200, "the upgraded hash verifies");
    const wrong = await api(srv.base, "POST", "/api/v1/auth/login", {
      name: "Oldws",
      password: "old-password-2",
    });
    assertEquals(wrong.status, 401);
  } finally {
    await srv.stop();
  }
});

Deno.test("tokens: a token signed without exp is refused by REST and the WebSocket hub", async () => {
  const srv = await startServer();
  try {
    const token = await register(srv.base, "Noexp");
    const id = (await api(srv.base, "GET", "/api/v1/me", undefined, token)).body.id;
    const forged = await new SignJWT({}).setProtectedHeader({ alg: "HS256" }).setSubject(id)
      .setIssuedAt().sign(new TextEncoder().encode(srv.env.JWT_SECRET));
    const me = await api(srv.base, "GET", "/api/v1/me", undefined, forged);
    assertEquals(me.status, 401);
    const c = await connectWs(srv.ws, { client: "web", token: forged });
    try {
      assertMatch((await c.expect(isType("error"))).msg, /invalid or expired token/i);
      c.send(JSON.stringify({ type: "auth", token: forged, resume: true }));
      assertMatch((await c.expect(isType("error"))).msg, /invalid or expired token/i);
      assert(!c.all.some(isType("session")), "never logged in");
    } finally {
      await c.close();
    }
  } finally {
    await srv.stop();
  }
});
