/**
 * Restarts that keep players connected: `@reboot` with telnet and web players on, ten reboots in
 * a row, a web client that never finishes closing, a stalled engine, and a sidecar that starts
 * (or stays up) while the engine is down.
 */
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { api, register, startServer, type TestServer, waitHealthy } from "./harness.ts";
import { connectWs, type WsClient } from "./ws_client.ts";
import { TelnetClient } from "./telnet_client.ts";
import { ADMIN, count, startSupervised, telnetLogin } from "./supervised.ts";

const RESUMED = /Your session continues/g;

async function online(srv: TestServer): Promise<string[]> {
  const r = await api(srv.base, "GET", "/api/v1/players/online");
  return (r.body as { name: string }[]).map((p) => p.name).sort();
}

/** A web client as a browser would run it: on close 1012 it reconnects and resumes with its token. */
async function webResume(srv: TestServer, token: string): Promise<WsClient> {
  const end = Date.now() + 20_000;
  for (;;) {
    try {
      const c = await connectWs(srv, { token, client: "web", query: { resume: "1" } });
      const s = await c.expect((m) => m.data.type === "session", 5_000);
      assertEquals(s.data.resumed, true);
      return c;
    } catch (e) {
      if (Date.now() > end) throw e;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

Deno.test("@reboot: telnet and web players stay connected and usable", async () => {
  const srv = await startSupervised();
  const open: (TelnetClient | WsClient)[] = [];
  try {
    await register(srv.base, "Alice", "alice-password");
    const bobToken = await register(srv.base, "Bob", "bob-password");
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    const alice = await telnetLogin(srv, "Alice", "alice-password", { gmcp: true, mccp: true });
    open.push(admin, alice);
    let bob = await connectWs(srv, { token: bobToken, client: "web" });
    open.push(bob);
    const bobSession = (await bob.expect((m) => m.data.type === "session")).data.token as string;

    await admin.send("@reboot");
    await alice.waitFor(/\[Reboot\] Admin is restarting the server/);
    await alice.waitFor(/game server is restarting/);
    const closed = await bob.closed;
    assertEquals(closed.code, 1012, "web clients are told to reconnect (1012)");
    // Typed while the engine is away: kept and replayed after the resume, more lines than the
    // hub's 10-a-second limit, so the replay must be paced.
    for (let i = 1; i <= 14; i++) await alice.send(`say kept ${i}`);
    await alice.send("say typed during the reboot");
    await alice.waitFor(/Your session continues/, 30_000);
    await admin.waitFor(/Your session continues/, 30_000);
    await waitHealthy(srv.base);
    await alice.waitFor(/You say, "typed during the reboot"/, 15_000);
    assertEquals(count(alice.plain, /You say, "kept \d+"/), 14, "every kept line was replayed");
    assert(!alice.closed && !admin.closed, "telnet sockets stayed open");
    assert(alice.compressed, "MCCP2 stream kept across the restart");
    assertEquals(count(alice.plain, /Limbo/), 1, "no second login screen or look on resume");
    assert(
      !/connect <name>.*\n[\s\S]*connect <name>/.test(alice.plain),
      "no second connect screen",
    );

    bob = await webResume(srv, bobSession);
    open.push(bob);
    const from = alice.mark();
    bob.send("say back on the web");
    await alice.waitFor(/Bob says, "back on the web"/, 10_000, from);
    await alice.send("say and on telnet");
    await bob.expect(/Alice says, "and on telnet/);
    assertEquals(await online(srv), ["Admin", "Alice", "Bob"]);
  } finally {
    for (const c of open) await c.close();
    await srv.stop();
  }
});

Deno.test("ten reboots in a row lose no telnet or web session", async () => {
  // Runs shorter than 5 s double the restart delay; cap it so ten reboots take seconds, not minutes.
  const srv = await startSupervised({ args: ["--max-delay", "1000"] });
  const players: TelnetClient[] = [];
  let bob: WsClient | null = null;
  try {
    await register(srv.base, "Alice", "alice-password");
    await register(srv.base, "Carol", "carol-password");
    bob = await connectWs(srv, {
      token: await register(srv.base, "Bob", "bob-password"),
      client: "web",
    });
    let bobToken = (await bob.expect((m) => m.data.type === "session")).data.token as string;
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    players.push(
      admin,
      await telnetLogin(srv, "Alice", "alice-password", { naws: { width: 90, height: 30 } }),
      await telnetLogin(srv, "Carol", "carol-password", { mccp: true }),
    );
    for (let i = 1; i <= 10; i++) {
      await admin.send("@reboot");
      assertEquals((await bob.closed).code, 1012);
      for (const p of players) {
        await p.until(() => count(p.plain, RESUMED) >= i, `resume #${i}`, 30_000);
      }
      // The web player comes back as a browser would, with the newest token it was given.
      bob = await webResume(srv, bobToken);
      bobToken = bob.all.find((m) => m.data.type === "session")!.data.token as string;
      const from = players[1].mark();
      await players[2].send(`say reboot ${i}`);
      await players[1].waitFor(new RegExp(`Carol says, "reboot ${i}"`), 10_000, from);
      // Web text keeps colour codes (the say closes its colour with %cn).
      await bob.expect(new RegExp(`Carol says, "reboot ${i}(%cn)?"`));
    }
    for (const p of players) assert(!p.closed, "still connected");
    assertEquals(await online(srv), ["Admin", "Alice", "Bob", "Carol"]);
    assertEquals(count(srv.output(), /engine started/g), 11);
    assert(!/login screen|connect <name>[\s\S]*connect <name>/.test(players[1].plain));
  } finally {
    for (const p of players) await p.close();
    await bob?.close();
    await srv.stop();
  }
});

Deno.test("sidecar without an engine: waits, buffers, then logs in and resumes", async () => {
  // The sidecar alone first (the engine is down), then an engine on the same ports and database.
  // As `deno task telnet` beside `deno task engine`: both get the same secret.
  const sidecar = await startServer({
    entry: "telnet.ts",
    env: { URSAMU_SIDECAR_SECRET: "standalone-sidecar-secret-" + crypto.randomUUID() },
  });
  let engine: TestServer | null = null;
  const open: TelnetClient[] = [];
  try {
    await sidecar.waitFor(/telnet: listening on/);
    const c = await TelnetClient.connect(sidecar.telnet);
    open.push(c);
    await c.waitFor(/game server is starting/);
    await c.send(`connect ${ADMIN.name} ${ADMIN.password}`);
    const startEngine = async () => {
      // "./main.ts": the harness would wait for health on its own fresh port, not the sidecar's.
      const e = await startServer({
        entry: "./main.ts",
        dir: sidecar.dir,
        env: {
          ...sidecar.env,
          URSAMU_SUPERUSER_NAME: ADMIN.name,
          URSAMU_SUPERUSER_PASSWORD: ADMIN.password,
        },
      });
      await waitHealthy(`http://127.0.0.1:${sidecar.http}`, () => false, () => e.output());
      return e;
    };
    engine = await startEngine();
    await c.waitFor(/Limbo/, 20_000);

    // The engine stops (SIGTERM: a stop, not a restart, and the player is told so) and comes
    // back: the session resumes by itself.
    await engine.stop({ keepDir: true });
    await c.waitFor(/The server is shutting down\./);
    await c.send("say kept for later");
    engine = await startEngine();
    await c.waitFor(/Your session continues/, 20_000);
    await c.waitFor(/You say, "kept for later"/);
    assert(!c.closed);
  } finally {
    for (const c of open) await c.close();
    if (engine) await engine.stop({ keepDir: true });
    await sidecar.stop();
  }
});

/** A WebSocket to the hub that, once open, never reads again (a dead browser tab, say). */
async function stalledWebSocket(port: number): Promise<Deno.TcpConn> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(new TextEncoder().encode(
    "GET /?client=web HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n" +
      "Connection: Upgrade\r\nSec-WebSocket-Key: MDEyMzQ1Njc4OWFiY2RlZg==\r\n" +
      "Sec-WebSocket-Version: 13\r\n\r\n",
  ));
  const buf = new Uint8Array(4096);
  const n = await conn.read(buf);
  assertMatch(new TextDecoder().decode(buf.subarray(0, n ?? 0)), /^HTTP\/1\.1 101/);
  return conn;
}

Deno.test("restarts: a web client that never closes costs nobody their session; a stalled engine drops no line", async (t) => {
  const srv = await startSupervised();
  const open: TelnetClient[] = [];
  let stalled: Deno.TcpConn | null = null;
  try {
    await register(srv.base, "Alice", "alice-password");
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    const alice = await telnetLogin(srv, "Alice", "alice-password");
    const guest = await TelnetClient.connect(srv.telnet);
    open.push(admin, alice, guest);
    await guest.waitFor(/connect <name>/);

    await t.step("@reboot while a web socket never answers the close", async () => {
      // The old engine waits for that socket while the sidecar is already dialling again: the
      // attempts that reach the stopping hub are refused with 1012 (try again), not 1008.
      stalled = await stalledWebSocket(srv.ws);
      await admin.send("@reboot");
      await alice.waitFor(/Your session continues/, 30_000);
      await admin.waitFor(/Your session continues/, 30_000);
      await guest.waitFor(/The game server is back\.[\s\S]*connect <name>/, 30_000);
      for (const c of open) {
        assert(!c.closed, "telnet socket kept");
        assertEquals(count(c.plain, /game server is restarting/), 1, "told once");
      }
      assertEquals(count(guest.plain, /game server is back/), 1);
      assertEquals(await online(srv), ["Admin", "Alice"]);
    });

    await t.step(
      "lines typed while the engine is stalled all run, paced by the hub's pongs",
      async () => {
        // A stalled engine reads everything sent meanwhile at once; lines paced by send time
        // alone would arrive more than 10 in a second and the hub would drop the rest.
        const pid = Number([...srv.output().matchAll(/engine started \(pid (\d+)\)/g)].at(-1)![1]);
        const from = alice.mark();
        Deno.kill(pid, "SIGSTOP");
        try {
          for (let i = 1; i <= 20; i++) await alice.send(`say stalled ${i}`);
          await new Promise((r) => setTimeout(r, 2_500));
        } finally {
          Deno.kill(pid, "SIGCONT");
        }
        await alice.waitFor(/You say, "stalled 20"/, 15_000, from);
        const said = alice.plain.slice(from).match(/You say, "stalled \d+"/g) ?? [];
        assertEquals(said, Array.from({ length: 20 }, (_, i) => `You say, "stalled ${i + 1}"`));
      },
    );
  } finally {
    try {
      (stalled as Deno.TcpConn | null)?.close();
    } catch { /* already closed */ }
    for (const c of open) await c.close();
    await srv.stop();
  }
});

Deno.test("restarts: times the sidecar reports keep who's On For and Idle across a restart", async () => {
  // What the sidecar does on every (re)connection, played by hand: its `client` frame says when
  // the telnet player connected and last typed, then the session is resumed with its token.
  const secret = "reboot-test-sidecar-secret-" + crypto.randomUUID();
  const srv = await startServer({
    env: {
      URSAMU_SUPERUSER_NAME: ADMIN.name,
      URSAMU_SUPERUSER_PASSWORD: ADMIN.password,
      URSAMU_SIDECAR_SECRET: secret,
    },
  });
  const open: WsClient[] = [];
  try {
    const aliceToken = await register(srv.base, "Alice", "alice-password");
    const hour = 3600_000;
    const web = await connectWs(srv, { token: aliceToken, client: "web" });
    open.push(web);
    await web.expect((m) => m.data.type === "session");
    const sidecar = await connectWs(srv, {
      token: aliceToken,
      client: "telnet",
      query: { resume: "1" },
      headers: { "x-ursamu-sidecar": secret },
    });
    open.push(sidecar);
    // Alice is also on the web; the earliest connection counts for On For.
    sidecar.sendJson({
      type: "client",
      ip: "203.0.113.5",
      connectedAt: Date.now() - 2 * hour,
      lastInput: Date.now() - hour / 4,
    });
    await sidecar.expect((m) => m.data.type === "session");
    const who = async () => {
      web.send("who");
      const m = await web.expect((m) => m.data.type === "who");
      return m.data.players.find((p: { name: string }) => p.name === "Alice");
    };
    const alice = await who();
    assert(alice.onFor >= 7_190 && alice.onFor <= 7_210, `On For ${alice.onFor} s`);
    // Idle is the newest input of her connections: the web one just typed `who`.
    assert(alice.idle < 5, `idle ${alice.idle} s`);
    await web.close();
    const again = await connectWs(srv, { token: await register(srv.base, "Bob"), client: "web" });
    open.push(again);
    again.send("who");
    const m = await again.expect((m) => m.data.type === "who");
    const telnetOnly = m.data.players.find((p: { name: string }) => p.name === "Alice");
    assert(telnetOnly.idle >= 890 && telnetOnly.idle <= 910, `idle ${telnetOnly.idle} s`);
    // A time from the future, or from anyone but the local sidecar, is ignored.
    sidecar.sendJson({
      type: "client",
      connectedAt: Date.now() + hour,
      lastInput: Date.now() + hour,
    });
    again.send("who");
    const later = (await again.expect((m) => m.data.type === "who")).data.players
      .find((p: { name: string }) => p.name === "Alice");
    assert(later.onFor >= 7_190 && later.idle >= 890, `${later.onFor} s on, ${later.idle} s idle`);
    const liar = await connectWs(srv, { client: "web" });
    open.push(liar);
    liar.sendJson({ type: "client", connectedAt: 0 });
    await liar.expect(/accepted only from the telnet sidecar/);
  } finally {
    for (const c of open) await c.close();
    await srv.stop();
  }
});

Deno.test("@reboot: logins typed as the restart begins finish or are refused aloud, never lost", async () => {
  // Eight logins at once (under the ten failed logins an address may have in flight) keep the
  // password pool busy past the engine's short drain before its exit hooks, so the hub stops with
  // their checks in flight. The hub lets them finish (for a
  // while): a finished one is resumed by the next engine with the line typed behind it run once;
  // one still unfinished is told to log in again. None may vanish without a word.
  const srv = await startSupervised({ env: { URSAMU_SERVER_MAXCONNECTIONSPERIP: "100" } });
  const open: TelnetClient[] = [];
  try {
    const names = Array.from({ length: 8 }, (_, i) => `Late${i}`);
    for (const name of names) await register(srv.base, name, "late-password");
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    open.push(admin);
    const waiting: TelnetClient[] = [];
    for (const _ of names) {
      const c = await TelnetClient.connect(srv.telnet);
      open.push(c);
      waiting.push(c);
      await c.waitFor(/connect <name>/);
    }
    await admin.send("@reboot");
    await admin.waitFor(/\[Reboot\]/);
    const typed = (i: number) =>
      new TextEncoder().encode(`connect ${names[i]} late-password\r\nsay I am ${names[i]}\r\n`);
    await Promise.all(waiting.map((c, i) => c.write(typed(i))));
    await admin.waitFor(/Your session continues/, 30_000);
    let finished = 0;
    for (const [i, c] of waiting.entries()) {
      const outcome = await c.waitFor(
        new RegExp(`You say, "I am ${names[i]}"|Please log in again[\\s\\S]*game server is back`),
        30_000,
      );
      assert(!c.closed, "still connected");
      if (/You say/.test(outcome[0])) {
        finished++;
        // Its line may have run before the restart: the resume is what says it is back.
        await c.waitFor(/Your session continues/, 30_000);
        assertEquals(count(c.plain, /Players: /), 1, `${names[i]} logged in once`);
      } else {
        // Refused aloud: logging in again works.
        await c.write(typed(i));
        await c.waitFor(new RegExp(`You say, "I am ${names[i]}"`), 30_000);
      }
      assertEquals(count(c.plain, /You say, "I am /), 1, `${names[i]}'s line ran once`);
    }
    console.log(`${finished} of ${names.length} logins finished before the restart`);
    assertEquals((await online(srv)).length, 9);
    assert(!/password pool closed/.test(srv.output()), "no login died with the password pool");
  } finally {
    for (const c of open) await c.close();
    await srv.stop();
  }
});
