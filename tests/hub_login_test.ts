/** Black-box tests of hub login: connect screen, token, connect, create, quit, presence messages. */
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { api, register, startServer, type TestServer } from "./harness.ts";
import { connectWs, type WsClient, type WsMessage } from "./ws_client.ts";

const isType = (type: string) => (m: WsMessage) => m.data.type === type;

/** Lines of the security log (JSON objects), polled until `want` holds or 3 s pass. */
async function securityLog(
  srv: TestServer,
  want: (lines: Record<string, unknown>[]) => boolean = () => true,
): Promise<Record<string, unknown>[]> {
  const end = Date.now() + 3000;
  let lines: Record<string, unknown>[] = [];
  while (Date.now() < end) {
    try {
      const text = await Deno.readTextFile(`${srv.dir}/logs/security.log`);
      lines = text.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
      if (want(lines)) return lines;
    } catch { /* not written yet */ }
    await new Promise((r) => setTimeout(r, 50));
  }
  return lines;
}

Deno.test("hub: login flows over WebSocket", async (t) => {
  const srv = await startServer();
  const open: WsClient[] = [];
  const ws = async (opts: Parameters<typeof connectWs>[1] = {}, target: number = srv.ws) => {
    const c = await connectWs(target, opts);
    open.push(c);
    return c;
  };
  try {
    const aliceToken = await register(srv.base, "Alice");

    await t.step("without a token a plain client gets the ANSI connect screen", async () => {
      const c = await ws();
      const screen = await c.expect(/connect <name> <password>/);
      assert(typeof screen.raw === "string" && screen.raw.includes("\x1b["), "ANSI colour");
      assert(!String(screen.raw).includes("%c"), "colour codes rendered");
      assert(String(screen.raw).endsWith("\r\n"));
      c.send("hello there");
      await c.expect(/connect <name> <password>/);
      await c.close();
    });

    await t.step("a web client gets JSON frames with colour codes kept", async () => {
      const c = await ws({ client: "web" });
      const screen = await c.expect(isType("connect"));
      assertMatch(screen.msg, /%c/);
      assertEquals(JSON.parse(String(screen.raw)).data.type, "connect");
      await c.close();
    });

    await t.step("token login: session frame, motd, welcome, then look", async () => {
      const c = await ws({ token: aliceToken, client: "web" });
      const session = await c.expect(isType("session"));
      assertEquals(session.data.player, { id: session.data.player.id, name: "Alice" });
      assertEquals(session.data.resumed, false);
      assertEquals(typeof session.data.token, "string");
      const me = await api(srv.base, "GET", "/api/v1/me", undefined, session.data.token);
      assertEquals(me.body.name, "Alice", "the session token is a working access token");
      await c.expect(isType("motd"));
      await c.expect(isType("welcome"));
      assert(!c.all.some(isType("connect")), "no connect screen after a token login");
      const online = await api(srv.base, "GET", "/api/v1/players/online");
      const entry = online.body.find((p: { name: string }) => p.name === "Alice");
      assertEquals(entry, { id: session.data.player.id, name: "Alice", location: "Limbo" });
      // A rename shows at once: the entry comes from the hub's card, kept current by the store.
      const renamed = await api(
        srv.base,
        "PATCH",
        `/api/v1/dbobj/${entry.id}`,
        { name: "Alix" },
        session.data.token,
      );
      assertEquals(renamed.status, 200);
      const after = await api(srv.base, "GET", "/api/v1/players/online");
      assertEquals(after.body.find((p: { id: string }) => p.id === entry.id)?.name, "Alix");
      await api(
        srv.base,
        "PATCH",
        `/api/v1/dbobj/${entry.id}`,
        { name: "Alice" },
        session.data.token,
      );
      await c.close();
    });

    await t.step("an invalid token gets an error and the connect screen", async () => {
      const c = await ws({ token: "not.a.token", client: "web" });
      const err = await c.expect(isType("error"));
      assertMatch(err.msg, /invalid or expired token/i);
      await c.expect(isType("connect"));
      c.send("look");
      await c.expect(isType("prompt"));
      await c.close();
    });

    await t.step("create: password and name rules, duplicates refused", async () => {
      const c = await ws({ client: "web" });
      await c.expect(isType("connect"));
      c.send("create Bob short");
      assertMatch((await c.expect(isType("error"))).msg, /at least 8 characters/);
      c.send("create alice password123");
      assertMatch((await c.expect(isType("error"))).msg, /taken/);
      c.send("create B\u0007ob password123"); // control character stripped: becomes "Bob"
      const s = await c.expect(isType("session"));
      assertEquals(s.data.player.name, "Bob");
      await c.close();
      const login = await api(srv.base, "POST", "/api/v1/auth/login", {
        name: "Bob",
        password: "password123",
      });
      assertEquals(login.status, 200, "created through the same accounts service");
    });

    await t.step(
      "connect by name and password; a wrong password is refused and logged",
      async () => {
        const c = await ws();
        c.send("connect Alice wrongpassword");
        await c.expect(/does not exist, or has a different password/);
        const log = await securityLog(srv, (l) => l.some((e) => e.event === "LOGIN_FAILED"));
        const failed = log.find((e) => e.event === "LOGIN_FAILED");
        assertEquals(failed?.target, "Alice");
        assertEquals(failed?.ip, "127.0.0.1");
        c.send("connect Alice password123");
        await c.expect(/Message of the day/);
        assert(!c.all.some((m) => /"type"/.test(m.msg)), "plain clients get no JSON");
        await c.close();
      },
    );

    await t.step("the room hears connects and disconnects; quit closes", async () => {
      const a = await ws({ token: aliceToken, client: "web" });
      await a.expect(isType("welcome"));
      const b = await ws({ client: "web" });
      b.send(JSON.stringify({ msg: "connect Bob password123" }));
      await b.expect(isType("session"));
      const heard = await a.expect(/Bob has connected\./);
      assertEquals(heard.data.type, "connect");
      assertEquals(heard.data.player.name, "Bob");
      // A second connection of an online player is not announced again.
      const b2 = await ws({ client: "web" });
      b2.send("connect bob password123");
      await b2.expect(isType("session"));
      assert(!(await a.sees(/Bob has connected/, 300)), "no second connect message");
      await b2.close();
      assert(!(await a.sees(/Bob has disconnected/, 300)), "still connected once");
      b.send("QUIT");
      assertMatch((await b.expect(/Goodbye/)).msg, /Goodbye/);
      await b.closed;
      const gone = await a.expect(/Bob has disconnected\./);
      assertEquals(gone.data.type, "disconnect");
      await a.close();
    });

    await t.step("quit before login closes the connection", async () => {
      const c = await ws();
      await c.expect(/connect/);
      c.send("quit");
      await c.closed;
      assert(!c.isOpen);
    });

    await t.step("the HTTP port accepts the hub at /ws", async () => {
      const c = await ws({ token: aliceToken, client: "web", path: "/ws" }, srv.http);
      await c.expect(isType("session"));
      await c.close();
      const r = await fetch(`http://127.0.0.1:${srv.ws}/`);
      assertEquals(r.status, 426);
      await r.body?.cancel();
    });

    await t.step("ten failed connects from one IP, then LOGIN_RATE_LIMITED", async () => {
      const c = await ws();
      // One failure was recorded above; nine more reach the limit of ten.
      for (let i = 0; i < 9; i++) {
        c.send(`connect Alice wrong${i}xx`);
        await c.expect(/different password/);
      }
      c.send("connect Alice password123");
      await c.expect(/Too many failed logins/);
      const log = await securityLog(srv, (l) => l.some((e) => e.event === "LOGIN_RATE_LIMITED"));
      assert(log.some((e) => e.event === "LOGIN_RATE_LIMITED" && e.ip === "127.0.0.1"));
      const rest = await api(srv.base, "POST", "/api/v1/auth/login", {
        name: "Alice",
        password: "password123",
      });
      assertEquals(rest.status, 429, "REST and WebSocket share the limiter");
      await c.close();
    });
  } finally {
    for (const c of open) await c.close();
    await srv.stop();
  }
});

Deno.test("hub: the prompt before login names connect guest in lines that fit 80 columns", async () => {
  const srv = await startServer({ config: { game: { guestEnabled: true } } });
  const c = await connectWs(srv.ws, { client: "web" });
  try {
    await c.expect(isType("connect"));
    c.send("look");
    const prompt = await c.expect(isType("prompt"));
    assertMatch(prompt.msg, /connect guest/);
    for (const line of prompt.msg.split("\n")) assert(line.length <= 80, `fits: ${line}`);
  } finally {
    await c.close();
    await srv.stop();
  }
});
