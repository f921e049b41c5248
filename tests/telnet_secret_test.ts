/**
 * The telnet sidecar proves itself to the hub with a secret, never by its address: anyone else on
 * the machine who connects with `?client=telnet` is an ordinary client (per-IP cap, no `client`
 * frames, the security log keeps the real address). The real sidecar, under the supervisor or
 * started beside the engine with the same `URSAMU_SIDECAR_SECRET`, keeps its privileges.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { register, startServer, type TestServer, waitHealthy } from "./harness.ts";
import { connectWs, type WsClient, type WsMessage } from "./ws_client.ts";
import { TelnetClient } from "./telnet_client.ts";
import { startSupervised } from "./supervised.ts";

const HEADER = "x-ursamu-sidecar";
const isType = (type: string) => (m: WsMessage) => m.data.type === type;
const newSecret = () => "sidecar-secret-" + crypto.randomUUID();

/** Security log entries of `event` (the log is written asynchronously: waits for `n`). */
async function securityLog(srv: TestServer, event: string, n: number) {
  const file = join(srv.dir, "logs", "security.log");
  const end = Date.now() + 10_000;
  for (;;) {
    const text = await Deno.readTextFile(file).catch(() => "");
    const entries = text.split("\n").filter((l) => l).map((l) => JSON.parse(l))
      .filter((e) => e.event === event);
    if (entries.length >= n || Date.now() > end) return entries;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** True when the connection is refused for its address (the per-IP cap). */
async function overCap(c: WsClient): Promise<boolean> {
  const m = await c.expect((m) => m.data.type === "connect" || m.data.type === "disconnect");
  return m.data.type === "disconnect" && /Too many connections from your address/.test(m.msg);
}

Deno.test("hub: client=telnet without the sidecar's secret gets no privileges", async (t) => {
  const secret = newSecret();
  const srv = await startServer({
    env: { URSAMU_SIDECAR_SECRET: secret },
    config: { server: { maxConnectionsPerIp: 2 } },
  });
  const open: WsClient[] = [];
  const ws = async (headers?: Record<string, string>) => {
    const c = await connectWs(srv, { client: "telnet", headers });
    open.push(c);
    return c;
  };
  const closeAll = async () => {
    for (const c of open.splice(0)) await c.close();
  };
  /**
   * A connection the cap lets in. The hub forgets a closed connection when the engine handles
   * its close, which on a loaded machine may come well after the client saw it closed: a refused
   * try is closed and tried again until then.
   */
  const admitted = async (headers?: Record<string, string>) => {
    const end = Date.now() + 15_000;
    for (;;) {
      const c = await ws(headers);
      if (!await overCap(c)) return c;
      open.splice(open.indexOf(c), 1);
      await c.close();
      if (Date.now() > end) throw new Error("the earlier connections were never forgotten");
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  try {
    for (
      const [label, headers] of [
        ["no secret", undefined],
        ["a wrong secret", { [HEADER]: newSecret() }],
        ["a prefix of the secret", { [HEADER]: secret.slice(0, -1) }],
      ] as const
    ) {
      await t.step(`${label}: the per-IP cap applies, client frames are refused`, async () => {
        // Two fit under the cap of 2 (the second is held open in `open`).
        const a = await admitted(headers);
        await admitted(headers);
        assert(await overCap(await ws(headers)), "a third connection from 127.0.0.1 is refused");
        const before = (await securityLog(srv, "LOGIN_FAILED", 0)).length;
        a.sendJson({ type: "client", ip: "203.0.113.9", connectedAt: Date.now() - 3_600_000 });
        assertMatch((await a.expect(isType("error"))).msg, /only from the telnet sidecar/);
        a.send("connect Nobody wrong-password");
        await a.expect(isType("error"));
        const logged = await securityLog(srv, "LOGIN_FAILED", before + 1);
        assertEquals(logged.length, before + 1);
        assertEquals(logged.at(-1).ip, "127.0.0.1", "the real address, not the claimed one");
        await closeAll();
      });
    }

    await t.step("the secret: not capped under its address, client frames taken", async () => {
      const h = { [HEADER]: secret };
      const cs = [await ws(h), await ws(h), await ws(h)];
      for (const c of cs) assert(!await overCap(c));
      const before = (await securityLog(srv, "LOGIN_FAILED", 0)).length;
      cs[0].sendJson({ type: "client", ip: "203.0.113.9" });
      cs[0].send("connect Nobody wrong-password");
      await cs[0].expect(isType("error"));
      const logged = await securityLog(srv, "LOGIN_FAILED", before + 1);
      assertEquals(logged.at(-1).ip, "203.0.113.9");
      assert(!cs[0].all.some((m) => /only from the telnet sidecar/.test(m.msg)));
      await closeAll();
    });

    await t.step("a wrong secret is logged once", () => {
      const out = srv.output();
      assertEquals((out.match(/presented a wrong sidecar secret/g) ?? []).length, 1, out);
      assert(!out.includes(secret), "the secret itself is never logged");
    });
  } finally {
    for (const c of open) await c.close();
    await srv.stop();
  }
});

/** Connects `n` telnet clients and waits for each one's connect screen. */
async function telnets(port: number, n: number): Promise<TelnetClient[]> {
  const out: TelnetClient[] = [];
  for (let i = 0; i < n; i++) {
    const t = await TelnetClient.connect(port);
    out.push(t);
    await t.waitFor(/connect <name>/);
  }
  return out;
}

/**
 * With telnet players on, the web clients from the same address still fit under the cap of 2
 * only if the hub did not count the telnet players under the sidecar's address.
 */
async function webFits(srv: { ws: number }, n: number): Promise<boolean> {
  const open: WsClient[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const c = await connectWs(srv, { client: "web" });
      open.push(c);
      if (await overCap(c)) return false;
    }
    return true;
  } finally {
    for (const c of open) await c.close();
  }
}

Deno.test("telnet: the supervisor hands its sidecar the secret; a new one every start", async () => {
  const srv = await startSupervised({
    config: { server: { maxConnectionsPerIp: 2 } },
    // An inherited value is replaced, not trusted.
    env: { URSAMU_SIDECAR_SECRET: "inherited-" + "x".repeat(40) },
  });
  const open: (TelnetClient | WsClient)[] = [];
  try {
    open.push(...await telnets(srv.telnet, 2));
    // Two web clients fit under the cap of 2 only if the telnet players are not counted here.
    for (let i = 0; i < 2; i++) {
      const web = await connectWs(srv, { client: "web" });
      open.push(web);
      assert(!await overCap(web), "telnet players are not counted under the sidecar's address");
    }
    const fake = await connectWs(srv, {
      client: "telnet",
      headers: { [HEADER]: "inherited-" + "x".repeat(40) },
    });
    open.push(fake);
    assert(await overCap(fake), "the inherited secret gives nothing");
    assert(!/URSAMU_SIDECAR_SECRET is not set/.test(srv.output()));
  } finally {
    for (const c of open) await c.close();
    await srv.stop();
  }
});

Deno.test("telnet: deno task telnet beside deno task engine, with and without the same secret", async (t) => {
  const secret = newSecret();
  const config = { server: { maxConnectionsPerIp: 2 } };
  const engine = await startServer({ env: { URSAMU_SIDECAR_SECRET: secret }, config });
  const sidecars: TestServer[] = [];
  /** Starts `deno task telnet` on the engine's ports with `env`. */
  const sidecar = async (env: Record<string, string>) => {
    const s = await startServer({
      entry: "telnet.ts",
      config,
      env: {
        ...env,
        URSAMU_SERVER_HTTP: String(engine.http),
        URSAMU_SERVER_WS: String(engine.ws),
      },
    });
    sidecars.push(s);
    await s.waitFor(/telnet: listening on/);
    return s;
  };
  try {
    await register(engine.base, "Alice", "alice-password");
    await waitHealthy(engine.base);

    await t.step(
      "the same secret: the sidecar's players count under their own address",
      async () => {
        const s = await sidecar({ URSAMU_SIDECAR_SECRET: secret });
        const open = await telnets(s.telnet, 2);
        try {
          assert(await webFits(engine, 2));
          assert(!/URSAMU_SIDECAR_SECRET is not set/.test(s.output()));
        } finally {
          for (const c of open) await c.close();
          await s.stop();
        }
      },
    );

    await t.step("no secret: a warning, ordinary clients, and players still play", async () => {
      const s = await sidecar({ URSAMU_SIDECAR_SECRET: "" });
      assertMatch(s.output(), /URSAMU_SIDECAR_SECRET is not set/);
      const open = await telnets(s.telnet, 1);
      try {
        const c = open[0];
        await c.send("connect Alice alice-password");
        await c.waitFor(/Limbo/);
        await c.send("say hello");
        await c.waitFor(/You say, "hello"/);
        // It sends no client frame the hub would refuse in front of the player.
        assert(!/only from the telnet sidecar/.test(c.plain), c.plain);
        // Counted under the sidecar's address like any other client: one web client still fits.
        assert(!await webFits(engine, 2), "the telnet player counts under 127.0.0.1");
      } finally {
        for (const c of open) await c.close();
        await s.stop();
      }
    });
  } finally {
    for (const s of sidecars) await s.stop();
    await engine.stop();
  }
});
