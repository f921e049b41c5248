/**
 * Passwords off the event loop, through the engine: a flood of logins from many addresses is
 * answered at once with 429 and a clear message instead of waiting behind the pool; the per-IP
 * failed-login limit still holds; the hub's `connect` gives the same answer in game.
 */
import { assertEquals } from "./assert.ts";
import { createEngine } from "../src/engine.ts";
import { BUSY_MESSAGE } from "../src/auth/hash_pool.ts";
import { preLogin } from "../src/hub/login.ts";
import { Connection } from "../src/hub/connection.ts";
import { FakeSession, idleHooks } from "../src/hub/_test_session.ts";

async function engineInTemp(env: Record<string, string> = {}) {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-pool-" });
  const engine = await createEngine({
    root: dir,
    env: { URSAMU_SERVER_DB: ":memory:", JWT_SECRET: "pool-secret", ...env },
  });
  return { dir, engine };
}

function login(
  engine: Awaited<ReturnType<typeof createEngine>>,
  ip: string,
  name: string,
  password: string,
) {
  return engine.app.request("/api/v1/auth/login", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name, password }),
  }, { remoteAddr: { hostname: ip } });
}

Deno.test("login flood: the engine starts its password workers with itself, below play's priority", async () => {
  const { dir, engine } = await engineInTemp();
  try {
    // No login yet: the workers (and their memory) are already there.
    const stats = engine.passwords.stats();
    assertEquals(stats.workers, Math.max(1, navigator.hardwareConcurrency));
    assertEquals(stats.done, 0);
    if (Deno.build.os === "linux") assertEquals(stats.lowered, stats.workers);
  } finally {
    await engine.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
  assertEquals(engine.passwords.stats().workers, 0, "closed with the engine");
});

Deno.test("login flood: more than the pool holds is refused at once with 429, the rest log in", async () => {
  // One account from a hundred addresses at once: each attempt holds a slot of the account's
  // limit while bcrypt runs, so that limit would answer most of them; this test is the pool's.
  const { dir, engine } = await engineInTemp({ URSAMU_GAME_ACCOUNTLOGINFAILURES: "0" });
  try {
    await engine.services.accounts.register("Storm", "password123", { location: "1" });
    const flood = 40 * Math.max(2, navigator.hardwareConcurrency);
    const answers = await Promise.all(
      Array.from(
        { length: flood },
        (_, i) => login(engine, `10.1.${i >> 8}.${i & 255}`, "Storm", "password123"),
      ),
    );
    const ok = answers.filter((r) => r.status === 200);
    const busy = answers.filter((r) => r.status === 429);
    assertEquals(ok.length + busy.length, flood);
    assertEquals(ok.length > 0 && busy.length > 0, true, `${ok.length} ok, ${busy.length} busy`);
    for (const r of busy) assertEquals(await r.json(), { error: BUSY_MESSAGE });
    for (const r of ok) assertEquals(typeof (await r.json()).token, "string");
    // A refusal for a full pool is not a failed login: the same address logs in right after.
    assertEquals((await login(engine, "10.1.0.0", "Storm", "password123")).status, 200);
  } finally {
    await engine.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});

Deno.test("login flood: the per-IP failed-login limit is kept with the pool", async () => {
  const { dir, engine } = await engineInTemp();
  try {
    await engine.services.accounts.register("Target", "password123", { location: "1" });
    const answers = await Promise.all(
      Array.from({ length: 14 }, () => login(engine, "10.2.0.1", "Target", "wrongpassword")),
    );
    const statuses = answers.map((r) => r.status).sort();
    assertEquals(statuses.filter((s) => s === 401).length, 10);
    assertEquals(statuses.filter((s) => s === 429).length, 4);
    const limited = answers.find((r) => r.status === 429)!;
    assertEquals(await limited.json(), { error: "Too many failed logins. Try again in a minute." });
    // Another address is not affected.
    assertEquals((await login(engine, "10.2.0.2", "Target", "password123")).status, 200);
  } finally {
    await engine.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});

Deno.test("login flood: `connect` in game while the pool is full says so, and the next try works", async () => {
  const { dir, engine } = await engineInTemp();
  try {
    const s = engine.services;
    await s.accounts.register("Gamer", "password123", { location: "1" });
    const socket = new FakeSession();
    const conn = new Connection("c1", "web", "127.0.0.1", socket, idleHooks(), 0);
    const logins: string[] = [];
    const host = {
      deps: s,
      login: (_c: Connection, p: { id: string }) => {
        logins.push(p.id);
        return Promise.resolve(true);
      },
      fullProblem: () => null,
    };
    // Other logins fill the pool (in process, so no per-IP limit applies to them).
    const flood = Array.from(
      { length: 40 * Math.max(2, navigator.hardwareConcurrency) },
      () => s.accounts.authenticate("Gamer", "password123").catch(() => null),
    );
    // Each of them reads the account before it asks for a hash: under load our own login could
    // reach the pool first (this failed in CI). Until the pool has refused one, it is not full.
    for (let i = 0; i < 500 && engine.passwords.stats().refused === 0; i++) {
      await new Promise((r) => setTimeout(r, 2));
    }
    await preLogin(host, conn, "connect Gamer password123");
    const said = socket.sent.map((f) => JSON.parse(f));
    assertEquals(said.at(-1)?.msg, BUSY_MESSAGE);
    assertEquals(logins.length, 0);
    await Promise.all(flood);
    await preLogin(host, conn, "connect Gamer password123");
    assertEquals(logins.length, 1);
  } finally {
    await engine.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
