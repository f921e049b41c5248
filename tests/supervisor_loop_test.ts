/**
 * The supervisor's restart loop as a process: exit 75 restarts with the documented backoff (seen in
 * its log), exit 0 and crash codes stop it (and the sidecar), signals stop everything cleanly.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { api, register, startServer, type TestServer } from "./harness.ts";
import { TelnetClient } from "./telnet_client.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";

/**
 * Starts the supervisor over the fake engine (`tests/fixtures/exit_engine.ts`), whose runs exit
 * with `codes` in turn (`75@5500`: 75 after 5.5 s).
 */
async function startFake(codes: string): Promise<TestServer> {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-sup-" });
  return await startServer({
    dir,
    entry: "src/supervisor/main.ts",
    args: ["--engine", "tests/fixtures/exit_engine.ts"],
    env: { FAKE_ENGINE_LOG: join(dir, "runs.log"), FAKE_ENGINE_CODES: codes },
  });
}

/** Runs the supervisor over the fake engine to its end; resolves with its output and exit code. */
async function fakeRun(codes: string): Promise<{ out: string; code: number; srv: TestServer }> {
  const srv = await startFake(codes);
  try {
    const status = await srv.status;
    return { out: srv.output(), code: status.code, srv };
  } finally {
    await srv.stop();
  }
}

/** When each log line matching `re` appeared (ms), by polling the output. */
function watchLines(srv: TestServer, re: RegExp): { times: number[]; stop: () => void } {
  const times: number[] = [];
  const timer = setInterval(() => {
    const n = (srv.output().match(new RegExp(re.source, "g")) ?? []).length;
    while (times.length < n) times.push(performance.now());
  }, 10);
  return { times, stop: () => clearInterval(timer) };
}

Deno.test("supervisor: quick exits 75 back off 1 s, 2 s, 4 s; a stable run resets; 0 stops", async () => {
  const srv = await startFake("75,75,75,75@5500,75,0");
  const exited = watchLines(srv, /engine exited with code/);
  const started = watchLines(srv, /engine started/);
  try {
    const status = await srv.status;
    exited.stop();
    started.stop();
    const out = srv.output();
    const delays = [...out.matchAll(/restarting engine in (\d+) ms/g)].map((m) => Number(m[1]));
    assertEquals(delays, [1000, 2000, 4000, 1000, 2000]);
    assertEquals(status.code, 0);
    assertMatch(out, /engine stopped cleanly \(exit 0\)/);
    // The waits really happen: each start comes at least the announced delay after the exit.
    for (let i = 0; i < delays.length; i++) {
      const gap = started.times[i + 1] - exited.times[i];
      assert(gap >= delays[i] - 50, `restart ${i + 1}: waited ${gap} ms for ${delays[i]} ms`);
    }
  } finally {
    exited.stop();
    started.stop();
    await srv.stop();
  }
});

Deno.test("supervisor: a crash code stops the loop and is passed on", async () => {
  const { out, code } = await fakeRun("3");
  assertEquals(code, 3);
  assertMatch(out, /engine crashed \(exit 3\); not restarting/);
  assertEquals((out.match(/engine started/g) ?? []).length, 1);
  assertMatch(out, /telnet sidecar stopped/);
});

Deno.test("supervisor: @shutdown stops the engine, the sidecar and the loop", async () => {
  const srv = await startSupervised();
  const open: TelnetClient[] = [];
  try {
    await register(srv.base, "Alice", "alice-password");
    const alice = await telnetLogin(srv, "Alice", "alice-password");
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    open.push(alice, admin);
    await alice.send("@shutdown");
    await alice.waitFor(/Permission denied/);
    await admin.send("@shutdown");
    await alice.waitFor(/\[Shutdown\] Admin is shutting down the server/);
    const status = await srv.status;
    assertEquals(status.code, 0);
    await alice.until(() => alice.closed, "telnet closed by the stopping sidecar");
    // Told the truth: the engine is stopping, not restarting (the hub's disconnect frame says so).
    assertMatch(alice.plain, /\[Shutdown\][^\n]*\n(.*\n)*The server is shutting down\.\r?\n/);
    assert(!/game server is restarting/.test(alice.plain), "no restart notice on @shutdown");
    const out = srv.output();
    assertMatch(out, /engine: exiting with code 0 \(@shutdown by Admin\(#\d+\)\)/);
    assertMatch(out, /engine stopped cleanly \(exit 0\)/);
    assertMatch(out, /telnet sidecar stopped/);
    assertEquals((out.match(/engine started/g) ?? []).length, 1);
  } finally {
    for (const c of open) await c.close();
    await srv.stop();
  }
});

Deno.test("supervisor: a killed engine counts as a crash", async () => {
  const srv = await startSupervised();
  try {
    const pid = Number(srv.output().match(/engine started \(pid (\d+)\)/)![1]);
    Deno.kill(pid, "SIGKILL");
    const status = await srv.status;
    assertEquals(status.code, 137);
    assertMatch(srv.output(), /engine crashed \(exit 137\); not restarting/);
  } finally {
    await srv.stop();
  }
});

Deno.test("supervisor: SIGTERM stops both; telnet players are told", async () => {
  const srv = await startSupervised();
  let c: TelnetClient | null = null;
  try {
    c = await TelnetClient.connect(srv.telnet);
    await c.waitFor(/connect <name>/);
    srv.child.kill("SIGTERM");
    const status = await srv.status;
    assertEquals(status.code, 0);
    // The sidecar's goodbye, or the hub's line if the engine's stop reached the player first:
    // one of them, never both.
    await c.until(() => c!.closed, "telnet closed");
    assertEquals((c.plain.match(/The server is shutting down\./g) ?? []).length, 1, c.plain);
    const out = srv.output();
    assertMatch(out, /SIGTERM received/);
    assertMatch(out, /telnet sidecar stopped \(exit 0\)/);
    assertMatch(out, /engine exited with code 0/);
  } finally {
    await c?.close();
    await srv.stop();
  }
});

Deno.test("supervisor: without JWT_SECRET one secret serves every run, so tokens survive @reboot", async () => {
  const srv = await startSupervised({ env: { JWT_SECRET: "" } });
  const open: TelnetClient[] = [];
  try {
    const token = await register(srv.base, "Alice", "alice-password");
    const alice = await telnetLogin(srv, "Alice", "alice-password");
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    open.push(alice, admin);
    await admin.send("@reboot");
    await alice.waitFor(/Your session continues/, 30_000);
    const me = await api(srv.base, "GET", "/api/v1/me", undefined, token);
    assertEquals(me.status, 200);
    assertEquals(me.body.name, "Alice");
    const out = srv.output();
    assertEquals((out.match(/JWT_SECRET is not set/g) ?? []).length, 1, "one warning");
    assertMatch(out, /\[supervisor\] WARNING: JWT_SECRET is not set; generated a random secret/);
  } finally {
    for (const c of open) await c.close();
    await srv.stop();
  }
});

/** Pids of the engine and sidecar the supervisor reported starting. */
function childPids(out: string): number[] {
  return [...out.matchAll(/(?:engine|telnet sidecar) started \(pid (\d+)\)/g)].map((m) =>
    Number(m[1])
  );
}

/** True while a process exists and is not a zombie (Linux /proc). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(Deno.readTextFileSync(`/proc/${pid}/stat`));
  } catch {
    return false;
  }
}

async function refused(port: number): Promise<boolean> {
  try {
    (await Deno.connect({ hostname: "127.0.0.1", port })).close();
    return false;
  } catch {
    return true;
  }
}

async function gone(pids: number[], ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (pids.some(alive)) {
    if (Date.now() > end) throw new Error(`still running: ${pids.filter(alive).join(", ")}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

Deno.test("supervisor: SIGINT stops both children; a killed supervisor leaves no orphan", async () => {
  for (const signal of ["SIGINT", "SIGKILL"] as const) {
    const srv = await startSupervised();
    try {
      const pids = childPids(srv.output());
      assertEquals(pids.length, 2);
      srv.child.kill(signal);
      const status = await srv.status;
      // SIGKILL gives the supervisor no chance to clean up: the children notice that their
      // standard input (a pipe from it) closed and stop by themselves.
      assertEquals(status.code, signal === "SIGINT" ? 0 : 137);
      await gone(pids, 10_000);
      assert(await refused(srv.telnet), `${signal}: telnet port released`);
      assert(await refused(srv.http), `${signal}: HTTP port released`);
    } finally {
      await srv.stop();
    }
  }
});
