/** Black-box tests of session frames, silent resume (also across an engine restart) and the rate limit. */
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { api, register, startServer, type TestServer } from "./harness.ts";
import { connectWs, type WsClient, type WsMessage } from "./ws_client.ts";
import { TOO_FAST } from "../src/rate/too_fast.ts";

const isType = (type: string) => (m: WsMessage) => m.data.type === type;

/**
 * Sends a sync frame and waits for its answer, which comes only once everything the connection
 * sent before it has run: the answers to the lines it let through are all in.
 */
async function synced(c: WsClient, id: string): Promise<void> {
  c.sendJson({ type: "sync", id });
  await c.expect((m) => m.data.type === "sync" && m.data.id === id, 20_000);
}

async function securityEvents(srv: TestServer, event: string): Promise<Record<string, unknown>[]> {
  const end = Date.now() + 10_000;
  while (Date.now() < end) {
    try {
      const lines = (await Deno.readTextFile(`${srv.dir}/logs/security.log`)).trim().split("\n")
        .filter(Boolean).map((l) => JSON.parse(l)).filter((e) => e.event === event);
      if (lines.length) return lines;
    } catch { /* not written yet */ }
    await new Promise((r) => setTimeout(r, 50));
  }
  return [];
}

Deno.test("hub: session frames and silent resume, also after an engine restart", async (t) => {
  let srv = await startServer();
  const open: WsClient[] = [];
  const ws = async (opts: Parameters<typeof connectWs>[1] = {}) => {
    const c = await connectWs(srv, opts);
    open.push(c);
    return c;
  };
  try {
    const alice = await register(srv.base, "Alice");
    const bob = await register(srv.base, "Bob");
    let session = "";

    await t.step("plain clients get no session frame", async () => {
      const c = await ws({ token: alice });
      await c.expect(/Message of the day/);
      assert(!c.all.some((m) => m.msg.includes("session") || m.raw === ""), "no session frame");
      await c.close();
    });

    await t.step("a silent resume: session frame only, nothing announced", async () => {
      const b = await ws({ token: bob, client: "web" });
      await b.expect(isType("welcome"));
      const a = await ws({ token: alice, client: "telnet" });
      session = (await a.expect(isType("session"))).data.token;
      await b.expect(/Alice has connected/);
      a.sendJson({ type: "auth", token: session });
      assertMatch((await a.expect(isType("error"))).msg, /already logged in/);
      await a.close();
      await b.expect(/Alice has disconnected/);

      const r = await ws({ client: "telnet" });
      await r.expect(isType("connect"));
      r.sendJson({ type: "auth", token: session, resume: true });
      const s = await r.expect(isType("session"));
      assertEquals(s.data.resumed, true);
      assertEquals(s.data.player.name, "Alice");
      assert(!(await r.sees(isType("motd"), 300)), "no motd on resume");
      const announced = b.all.filter((m) => /Alice has connected/.test(m.msg)).length;
      assertEquals(announced, 1, "only the first login was announced, not the resume");
      await r.close();
      await b.close();
    });

    await t.step("resume with ?resume=1 after an engine restart on the same database", async () => {
      const a = await ws({ token: alice, client: "telnet" });
      session = (await a.expect(isType("session"))).data.token;
      await srv.stop({ keepDir: true });
      const ev = await a.closed;
      assertEquals(ev.code, 1012, "service restart close code");
      srv = await startServer({ dir: srv.dir, env: { JWT_SECRET: srv.env.JWT_SECRET } });
      const r = await ws({ token: session, client: "telnet", query: { resume: "1" } });
      const s = await r.expect(isType("session"));
      assertEquals(s.data.resumed, true);
      assert(!(await r.sees((m) => ["connect", "motd"].includes(m.data.type), 300)));
      const online = await api(srv.base, "GET", "/api/v1/players/online");
      assertEquals(online.body.map((p: { name: string }) => p.name), ["Alice"]);
      await r.close();
    });
  } finally {
    for (const c of open) await c.close();
    await srv.stop();
  }
});

Deno.test("hub: 10 commands a second per player, shared by its connections", async () => {
  const srv = await startServer();
  const open: WsClient[] = [];
  try {
    const alice = await register(srv.base, "Alice");
    const a = await connectWs(srv, { token: alice, client: "web" });
    open.push(a);
    await a.expect(isType("session"));
    await a.expect(/Limbo/); // the look after login
    await new Promise((r) => setTimeout(r, 1100));
    a.clear();
    const burstAt = performance.now();
    a.send(Array.from({ length: 50 }, (_, i) => `think n${i}`).join("\n"));
    await synced(a, "burst");
    const got = a.buffer.filter((m) => /^n\d+$/.test(m.msg)).length;
    assert(got >= 5 && got <= 11, `answered ${got} of 50`);
    // The player is told, once, why the rest did nothing (the telnet sidecar's words).
    assertEquals(a.buffer.filter((m) => m.msg === TOO_FAST).length, 1);
    const log = await securityEvents(srv, "WS_RATE_LIMITED");
    assertEquals(log.length, 1, "logged once per second, not per dropped line");
    assertEquals(
      log[0].actor,
      (await api(srv.base, "GET", "/api/v1/me", undefined, alice)).body.id,
    );

    // Reconnecting does not start a fresh window: the limit belongs to the player.
    await a.close();
    const back = await connectWs(srv, { token: alice, client: "web" });
    open.push(back);
    await back.expect(/Limbo/);
    back.send(Array.from({ length: 10 }, (_, i) => `think r${i}`).join("\n"));
    await synced(back, "again");
    const again = back.buffer.filter((m) => /^r\d+$/.test(m.msg)).length;
    // The engine read the burst after burstAt and these lines before their sync's answer came:
    // under a second between the two, and these lines were read inside the burst's window.
    if (performance.now() - burstAt < 950) {
      assertEquals(again, 0, "still inside the burst's window");
      // Told why on the new connection, once.
      assertEquals(back.buffer.filter((m) => m.msg === TOO_FAST).length, 1);
    }
    await back.close();

    // Two connections of one player share the limit.
    await new Promise((r) => setTimeout(r, 1100));
    const a1 = await connectWs(srv, { token: alice, client: "web" });
    open.push(a1);
    await a1.expect(/Limbo/);
    const a2 = await connectWs(srv, { token: alice, client: "web" });
    open.push(a2);
    await a2.expect(/Limbo/);
    await new Promise((r) => setTimeout(r, 1100));
    a1.clear();
    a2.clear();
    for (let i = 0; i < 25; i++) {
      a1.send(`think a${i}`);
      a2.send(`think b${i}`);
    }
    await Promise.all([synced(a1, "a1"), synced(a2, "a2")]);
    const seen = new Set(
      [...a1.buffer, ...a2.buffer].map((m) => m.msg).filter((s) => /^[ab]\d+$/.test(s)),
    );
    assert(seen.size >= 5 && seen.size <= 11, `answered ${seen.size} of 50 across two connections`);
  } finally {
    for (const c of open) await c.close();
    await srv.stop();
  }
});
