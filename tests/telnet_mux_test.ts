/**
 * The one link between the telnet sidecar and the engine, from outside: every telnet player
 * rides one socket (the sidecar holds one descriptor per player, not two), a room's pose
 * reaches them all, an engine killed with SIGKILL in the middle of a fan-out costs nobody
 * their session, and a flood of lines from one client costs the others nothing.
 */
import { assert, assertEquals } from "./assert.ts";
import { register, startServer, type TestServer, waitHealthy } from "./harness.ts";
import type { TelnetClient } from "./telnet_client.ts";
import { startSupervised, telnetLogin } from "./supervised.ts";

/** The pid the supervisor logged for its sidecar. */
function pidOf(srv: TestServer, what: "telnet sidecar"): number {
  const all = [...srv.output().matchAll(new RegExp(`${what} started \\(pid (\\d+)\\)`, "g"))];
  assert(all.length > 0, `no ${what} pid in:\n${srv.output()}`);
  return Number(all[all.length - 1][1]);
}

/** Sockets a process holds (Linux /proc). */
function sockets(pid: number): number {
  let n = 0;
  for (const e of Deno.readDirSync(`/proc/${pid}/fd`)) {
    try {
      if (Deno.readLinkSync(`/proc/${pid}/fd/${e.name}`).startsWith("socket:")) n++;
    } catch { /* closed meanwhile */ }
  }
  return n;
}

async function players(srv: TestServer, n: number, tag: string): Promise<TelnetClient[]> {
  const names = Array.from({ length: n }, (_, i) => `${tag}${i}`);
  await Promise.all(names.map((name) => register(srv.base, name, "mux-password")));
  // A few at a time: at most 10 logins from one address may be checked at once.
  const out: TelnetClient[] = [];
  for (let i = 0; i < names.length; i += 5) {
    out.push(
      ...await Promise.all(
        names.slice(i, i + 5).map((name) => telnetLogin(srv, name, "mux-password")),
      ),
    );
  }
  return out;
}

/** Sends `think <marker>` and waits for it. */
async function answers(c: TelnetClient, marker: string, ms = 15_000): Promise<void> {
  const from = c.mark();
  await c.send(`think ${marker}`);
  await c.waitFor(new RegExp(marker), ms, from);
}

Deno.test("sidecar link: all telnet players on one socket; a pose crosses it to every one", async () => {
  const srv = await startSupervised();
  const open: TelnetClient[] = [];
  try {
    const sidecar = pidOf(srv, "telnet sidecar");
    const first = await players(srv, 1, "Solo");
    open.push(...first);
    const before = sockets(sidecar);
    open.push(...await players(srv, 20, "Many"));
    const added = sockets(sidecar) - before;
    // One socket per player (its telnet socket): with a hub WebSocket each it would be 40.
    assert(added >= 20 && added <= 22, `sidecar sockets grew by ${added} for 20 players`);
    const from = open.map((c) => c.mark());
    await open[0].send("pose waves to the crowd");
    for (const [i, c] of open.entries()) {
      await c.waitFor(/Solo0 waves to the crowd/, 10_000, from[i]);
    }
  } finally {
    for (const c of open) await c.close();
    await srv.stop();
  }
});

Deno.test("sidecar link: SIGKILL of the engine mid-fan-out loses no telnet session", async () => {
  // Engine and sidecar apart (the supervisor treats a killed engine as a crash and stops):
  // the sidecar loses its link, a new engine comes up on the same ports and database.
  const secrets = {
    URSAMU_SIDECAR_SECRET: "sidecar-secret-" + crypto.randomUUID(),
    JWT_SECRET: "jwt-" + crypto.randomUUID(),
  };
  let engine = await startServer({ env: secrets });
  const ports = {
    URSAMU_SERVER_HTTP: String(engine.http),
    URSAMU_SERVER_WS: String(engine.ws),
  };
  const sidecar = await startServer({ entry: "telnet.ts", env: { ...secrets, ...ports } });
  await sidecar.waitFor(/telnet: listening on/);
  const open: TelnetClient[] = [];
  try {
    const names = Array.from({ length: 12 }, (_, i) => `Kill${i}`);
    for (const name of names) await register(engine.base, name, "mux-password");
    for (const name of names) open.push(await telnetLogin(sidecar, name, "mux-password"));
    const speaker = open[0];
    // Poses in flight while the engine dies.
    for (let i = 0; i < 20; i++) await speaker.send(`pose says line ${i}`);
    await open[5].waitFor(/Kill0 says line 3/, 10_000);
    engine.child.kill("SIGKILL");
    await engine.status;
    const base = engine.base;
    // On the old ports ("./main.ts": the harness would wait on ports of its own choosing).
    engine = await startServer({
      dir: engine.dir,
      entry: "./main.ts",
      env: { ...secrets, ...ports, URSAMU_SERVER_TELNET: String(engine.telnet) },
    });
    await waitHealthy(base);
    // Every session resumes over the new link, with its own player.
    for (const [i, c] of open.entries()) {
      assert(!c.closed, `player ${i} was disconnected`);
      await answers(c, `back${i}x`, 30_000);
    }
    const from = open.map((c) => c.mark());
    await open[3].send("pose is still heard");
    for (const [i, c] of open.entries()) await c.waitFor(/Kill3 is still heard/, 10_000, from[i]);
    const online = await (await fetch(`${base}/api/v1/players/online`)).json();
    assertEquals(online.map((p: { name: string }) => p.name).sort(), [...names].sort());
  } finally {
    for (const c of open) await c.close();
    await sidecar.stop();
    await engine.stop();
  }
});

Deno.test("sidecar link: a flood of lines from one client costs the others nothing", async () => {
  const srv = await startSupervised();
  const open: TelnetClient[] = [];
  try {
    open.push(...await players(srv, 6, "Flood"));
    const [flooder, ...others] = open;
    // 200 lines: 25 s at the flooder's pace of 8 a second.
    const count = 200;
    const lines = Array.from({ length: count }, (_, i) => `think flood ${i}`).join("\r\n") +
      "\r\n";
    await flooder.write(new TextEncoder().encode(lines));
    for (let round = 0; round < 3; round++) {
      for (const [i, c] of others.entries()) await answers(c, `calm${round}-${i}x`);
    }
    // Answered while the flood was still being paced: lines held up behind the flooder's on the
    // link would have come after its last.
    assert(
      !new RegExp(`flood ${count - 1}\\b`).test(flooder.plain),
      "the others were answered only after the whole flood",
    );
    // The flooder keeps its session: paced, told to slow down, and answered once it does.
    await flooder.waitFor(/flood 0/, 10_000);
    await new Promise((r) => setTimeout(r, 1_500));
    await answers(flooder, "after-floodx", 60_000);
    assert(new RegExp(`flood ${count - 1}\\b`).test(flooder.plain), "every flood line ran");
    assertEquals(open.filter((c) => c.closed).length, 0);
  } finally {
    for (const c of open) await c.close();
    await srv.stop();
  }
});
