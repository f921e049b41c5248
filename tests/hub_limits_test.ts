/** Black-box tests of the hub's limits: bad frames, frame cap, connection caps, maxPlayers, idle. */
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { register, startServer, waitHealthy } from "./harness.ts";
import { connectWs, type WsClient, type WsMessage } from "./ws_client.ts";
import { TOO_FAST } from "../src/rate/too_fast.ts";

const isType = (type: string) => (m: WsMessage) => m.data.type === type;
const SUPERUSER = { URSAMU_SUPERUSER_NAME: "Root", URSAMU_SUPERUSER_PASSWORD: "password123" };
const SIDECAR_SECRET = "hub-limits-sidecar-secret-" + crypto.randomUUID();
/** What the telnet sidecar sends: its kind and its secret. */
const SIDECAR = { client: "telnet", headers: { "x-ursamu-sidecar": SIDECAR_SECRET } } as const;

Deno.test("hub: bad frames, frame cap, connection caps and maxPlayers", async (t) => {
  const srv = await startServer({
    env: { ...SUPERUSER, URSAMU_SIDECAR_SECRET: SIDECAR_SECRET },
    config: { server: { maxConnectionsPerIp: 3, maxConnections: 5 }, game: { maxPlayers: 1 } },
  });
  const open: WsClient[] = [];
  /** A connection that may be refused: what a cap is checked with. */
  const wsAny = async (opts: Parameters<typeof connectWs>[1] = {}) => {
    const c = await connectWs(srv, opts);
    open.push(c);
    return c;
  };
  /**
   * A connection the caps let in. The hub forgets a closed connection when the engine handles
   * its close, which on a loaded machine may come well after the client saw it closed (the last
   * step's connections): a try refused by a cap is closed and tried again until then.
   */
  const ws = async (opts: Parameters<typeof connectWs>[1] = {}) => {
    const end = Date.now() + 15_000;
    for (;;) {
      const c = await wsAny(opts);
      await c.sees(() => true, 10_000);
      const first = c.all[0];
      if (first?.data.type !== "disconnect" || !/too many connections/i.test(first.msg)) return c;
      open.splice(open.indexOf(c), 1);
      await c.close();
      if (Date.now() > end) throw new Error(`still refused: ${first.msg}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const closeAll = async () => {
    for (const c of open.splice(0)) await c.close();
  };
  try {
    const alice = await register(srv.base, "Alice");
    const bob = await register(srv.base, "Bob");

    await t.step("bad frames get an error; the connection stays", async () => {
      const c = await ws({ client: "web" });
      await c.expect(isType("connect"));
      // A binary frame is read as UTF-8 text (bad bytes: tests/hub_utf8_test.ts).
      c.sendRaw(new TextEncoder().encode("{not json either"));
      assertMatch((await c.expect(isType("error"))).msg, /Invalid JSON/);
      c.sendRaw("{not json");
      assertMatch((await c.expect(isType("error"))).msg, /Invalid JSON/);
      c.sendJson({ type: "nonsense" });
      assertMatch((await c.expect(isType("error"))).msg, /Unknown frame type/);
      c.sendJson({ msg: 42 });
      await c.expect(isType("error"));
      c.sendJson([1, 2, 3]);
      await c.expect(isType("prompt"));
      c.sendJson({ type: "window", width: "wide" });
      c.sendJson({ type: "auth", token: "x".repeat(100) });
      assertMatch((await c.expect(isType("error"))).msg, /Invalid or expired token/);
      c.send("\u0000\u001b[2J\u0007");
      c.sendJson({ type: "ping" });
      await c.expect(isType("pong"));
      assert(c.isOpen);
      await closeAll();
    });

    await t.step("a 1 MB frame closes the connection; the server stays healthy", async () => {
      const c = await ws({ client: "web" });
      await c.expect(isType("connect"));
      c.send("say " + "x".repeat(1024 * 1024));
      const ev = await c.closed;
      assertEquals(ev.code, 1009);
      assert(c.all.some((m) => /Frame too large/.test(m.msg)));
      await waitHealthy(srv.base);
      const d = await ws({ client: "web", token: alice });
      await d.expect(isType("session"));
      // 100,000 characters of multi-byte text is over the cap too.
      d.sendJson({ msg: "say " + "€".repeat(30_000) });
      assertEquals((await d.closed).code, 1009);
      await closeAll();
    });

    await t.step("a line over 8192 characters is refused whole", async () => {
      const c = await ws({ client: "web" });
      await c.expect(isType("connect"));
      c.send("connect " + "x".repeat(9000));
      assertMatch((await c.expect(isType("error"))).msg, /too long/);
      assert(c.isOpen);
      await closeAll();
    });

    await t.step("connections per IP are capped", async () => {
      const cs = [await ws(), await ws(), await ws()];
      for (const c of cs) await c.expect(/connect/);
      const extra = await wsAny();
      assertMatch((await extra.expect(/Too many connections from your address/)).msg, /address/);
      assertEquals((await extra.closed).code, 1008);
      await cs[0].close();
      const again = await ws();
      await again.expect(/connect/);
      await closeAll();
    });

    await t.step("sidecar connections count under the IP they report", async () => {
      // client=telnet with the secret is the sidecar: not counted under 127.0.0.1.
      const tel = [];
      for (let i = 0; i < 4; i++) tel.push(await ws(SIDECAR));
      for (const c of tel) await c.expect(isType("connect"));
      for (const c of tel) c.sendJson({ type: "client", ip: "203.0.113.7", ttype: "xterm" });
      const closed = await Promise.race([
        tel[3].closed.then(() => true),
        new Promise((r) => setTimeout(() => r(false), 2000)),
      ]);
      assert(closed, "the fourth connection from 203.0.113.7 is over the cap");
      assert(tel.slice(0, 3).every((c) => c.isOpen));
      // A web client may not claim an IP.
      const web = await ws({ client: "web" });
      await web.expect(isType("connect"));
      web.sendJson({ type: "client", ip: "198.51.100.1" });
      assertMatch((await web.expect(isType("error"))).msg, /only from the telnet sidecar/);
      await closeAll();
    });

    await t.step("total connections are capped by server.maxConnections", async () => {
      const tel = [];
      for (let i = 0; i < 5; i++) tel.push(await ws(SIDECAR));
      for (const c of tel) await c.expect(isType("connect"));
      const extra = await wsAny(SIDECAR);
      assertMatch((await extra.expect(isType("disconnect"))).msg, /too many connections/);
      await extra.closed;
      await closeAll();
    });

    await t.step("game.maxPlayers refuses non-staff logins when full", async () => {
      const a = await ws({ client: "web", token: alice });
      await a.expect(isType("session"));
      const b = await ws({ client: "web" });
      b.send("connect Bob password123");
      assertMatch((await b.expect(isType("error"))).msg, /The game is full \(1 player\)/);
      b.sendJson({ type: "auth", token: bob });
      assertMatch((await b.expect(isType("error"))).msg, /full/);
      b.send("create Carol password123");
      assertMatch((await b.expect(isType("error"))).msg, /full/);
      // Another connection of an online player is not a new player.
      const a2 = await ws({ client: "web", token: alice });
      await a2.expect(isType("session"));
      // Staff may always log in.
      b.send("connect Root password123");
      const s = await b.expect(isType("session"));
      assertEquals(s.data.player.name, "Root");
      await closeAll();
    });
  } finally {
    await closeAll();
    await srv.stop();
  }
});

Deno.test("hub: idle logged-in players are disconnected, staff are not", async () => {
  const srv = await startServer({ env: SUPERUSER, config: { game: { idleTimeout: 1 } } });
  const open: WsClient[] = [];
  try {
    const alice = await register(srv.base, "Alice");
    const bob = await register(srv.base, "Bob");
    // Root logs in first: a password's check runs at idle priority, seconds on a loaded
    // machine (more than the 5 s of an expect), and Bob has only 1 s before he idles out to be
    // made staff.
    const root = await connectWs(srv, { client: "web" });
    open.push(root);
    root.send("connect Root password123");
    await root.expect(isType("session"), 60_000);
    const a = await connectWs(srv, { client: "web", token: alice });
    open.push(a);
    const b = await connectWs(srv, { client: "web", token: bob });
    open.push(b);
    // Made staff while online: the hub's copy of Bob's flags follows, so he is exempt too.
    await b.expect(isType("room"));
    root.send("@set Bob=admin");
    await b.expect(/gave you the admin flag/);
    const guest = await connectWs(srv, { client: "web" });
    open.push(guest);
    await a.expect(isType("session"));
    const bye = await a.expect(/idle for more than 1 second/, 5000);
    assertEquals(bye.data.type, "disconnect");
    await a.closed;
    assert(root.isOpen, "staff are exempt");
    assert(b.isOpen, "a player made admin after logging in is exempt");
    assert(guest.isOpen, "only logged-in connections time out");
  } finally {
    for (const c of open) await c.close();
    await srv.stop();
  }
});

Deno.test("hub: a socket streaming frames faster than anyone types is closed (probe s51)", async () => {
  // 64 KiB frames of 8,191 lines each, as fast as the socket takes them: every frame was split
  // and every line counted before the rate limit dropped it, about 3 ms a frame, so one socket
  // held every other player seconds behind. Now its bytes are budgeted before parsing.
  const srv = await startServer();
  const open: WsClient[] = [];
  try {
    const alice = await register(srv.base, "Alice");
    const bob = await register(srv.base, "Bob");
    const flood = await connectWs(srv, { client: "web", token: alice });
    open.push(flood);
    const b = await connectWs(srv, { client: "web", token: bob });
    open.push(b);
    await flood.expect(isType("session"));
    await b.expect(isType("session"));
    const frame = "think x\n".repeat(8191);
    // 200 frames (12.8 MB) at most: the budget is 256 KiB at once, then 64 KiB a second.
    for (let i = 0; i < 200 && flood.isOpen; i++) {
      flood.send(frame);
      if (i % 10 === 9) await new Promise((r) => setTimeout(r, 5));
    }
    const ev = await Promise.race([
      flood.closed,
      new Promise<null>((r) => setTimeout(() => r(null), 15_000)),
    ]);
    assert(ev !== null, "the flooding socket is closed");
    // Told why: its first dropped frame, then the close. The close's words can be lost: the
    // server closes with the client's frames unread, and the reset may discard them unread.
    const told = flood.all.map((m) => m.msg).filter((m) => /Too much input|typing faster/.test(m));
    assert(told.length > 0, "and told why");
    b.send("think still-here");
    await b.expect(/still-here/, 10_000);
  } finally {
    for (const c of open) await c.close();
    await srv.stop();
  }
});

Deno.test("hub: sockets flooding from one address do not silence another player there", async () => {
  // Players behind one address (a school, a household behind one NAT): sockets flooding small
  // frames spent the address's input budget, and another player's commands from it were dropped
  // without a word. Each socket now reads within its own share of the address's budget.
  const srv = await startServer();
  const open: WsClient[] = [];
  let flooding = true;
  try {
    const alice = await register(srv.base, "Alice");
    const bob = await register(srv.base, "Bob");
    const a = await connectWs(srv, { client: "web", token: alice });
    const b = await connectWs(srv, { client: "web", token: bob });
    open.push(a, b);
    await a.expect(isType("session"));
    await b.expect(isType("session"));
    // Alice's socket and 29 more from the same address: 200 frames each at once (6,000, past the
    // address's 4,096), then 60 a second each (1,800, past its 1,024), under each one's own 64.
    const flooders = [a];
    for (let i = 0; i < 29; i++) flooders.push(await connectWs(srv));
    open.push(...flooders.slice(1));
    const burst = (n: number) => {
      for (const f of flooders) for (let k = 0; k < n && f.isOpen; k++) f.send("x");
    };
    burst(200);
    const flood = (async () => {
      while (flooding) {
        await new Promise((r) => setTimeout(r, 250));
        burst(15);
      }
    })();
    try {
      for (let i = 0; i < 15; i++) {
        b.send(`think bob-${i}`);
        await b.expect(new RegExp(`^bob-${i}$`), 5000);
        await new Promise((r) => setTimeout(r, 150));
      }
    } finally {
      flooding = false;
      await flood;
    }
    // The flooders' frames were dropped, and they were told.
    assert(flooders.some((f) => f.all.some((m) => m.msg === TOO_FAST)), "a flooder is told");
    assert(!b.all.some((m) => m.msg === TOO_FAST), "Bob is not");
  } finally {
    for (const c of open) await c.close();
    await srv.stop();
  }
});
