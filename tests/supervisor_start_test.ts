/**
 * How the supervised start fails and what it prints once: a taken telnet port stops the start with
 * one line naming the setting (no endless sidecar restarts while the web side runs on),
 * configuration warnings appear once rather than once per process, and Ctrl-C is one log line.
 */
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { register, startServer } from "./harness.ts";
import type { TelnetClient } from "./telnet_client.ts";
import { ADMIN, count, startSupervised, telnetLogin } from "./supervised.ts";

Deno.test("supervisor: a taken telnet port fails the start clearly and stops the engine", async () => {
  const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (taken.addr as Deno.NetAddr).port;
  const srv = await startServer({
    entry: "src/supervisor/main.ts",
    env: {
      URSAMU_SERVER_TELNET: String(port),
      URSAMU_SUPERUSER_NAME: ADMIN.name,
      URSAMU_SUPERUSER_PASSWORD: ADMIN.password,
    },
  });
  try {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const status = await Promise.race([
      srv.status,
      new Promise<null>((r) => timer = setTimeout(() => r(null), 30_000)),
    ]);
    clearTimeout(timer);
    const out = srv.output();
    assert(status !== null, `the supervisor is still running 30 s later:\n${out}`);
    assertEquals(status.code, 78, out);
    assertEquals(
      count(out, /\(server\.telnet\) is already in use; .*URSAMU_SERVER_TELNET/),
      1,
      out,
    );
    assertMatch(out, /telnet sidecar cannot start as configured/);
    assert(!/restarting it in/.test(out), "the sidecar is not restarted");
    assertEquals(count(out, /telnet sidecar started/), 1, out);
    // The web side does not run on without telnet.
    const engine = Number(out.match(/engine started \(pid (\d+)\)/)?.[1]);
    assertMatch(out, /engine exited with code/);
    assert(!engine || !alive(engine), "the engine is gone");
    await assertRefused(srv.http);
  } finally {
    taken.close();
    await srv.stop();
  }
});

Deno.test("supervisor: a configuration warning is printed once, not once per process", async () => {
  const srv = await startSupervised({ config: { server: { maxConnections: "lots" } } });
  try {
    // Each process has read the configuration by now: the sidecar listens, the engine answers.
    const out = srv.output();
    assertEquals(count(out, /invalid config file for 'server\.maxConnections'/), 1, out);
  } finally {
    await srv.stop();
  }
});

/** True while a process exists and is not a zombie (Linux /proc). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(Deno.readTextFileSync(`/proc/${pid}/stat`));
  } catch {
    return false;
  }
}

async function assertRefused(port: number): Promise<void> {
  try {
    (await Deno.connect({ hostname: "127.0.0.1", port })).close();
  } catch {
    return;
  }
  throw new Error(`port ${port} still accepts connections`);
}

/** Pids of the engine and sidecar the supervisor reported starting. */
function childPids(out: string): number[] {
  return [...out.matchAll(/(?:engine|telnet sidecar) started \(pid (\d+)\)/g)].map((m) =>
    Number(m[1])
  );
}

/** Lines a telnet player saw that say the server is stopping. */
function shutdownLines(text: string): string[] {
  return text.split(/\r?\n/).filter((l) => /shutting down/i.test(l));
}

Deno.test("supervisor: Ctrl-C is one log line and one goodbye for telnet players", async () => {
  const srv = await startSupervised();
  let alice: TelnetClient | null = null;
  try {
    await register(srv.base, "Alice", "alice-password");
    alice = await telnetLogin(srv, "Alice", "alice-password");
    // Ctrl-C in a terminal signals the whole foreground group (supervisor, engine, sidecar), and
    // `deno task` passes it on to the supervisor a second time.
    for (const pid of childPids(srv.output())) Deno.kill(pid, "SIGINT");
    srv.child.kill("SIGINT");
    await srv.waitFor(/SIGINT received/);
    srv.child.kill("SIGINT");
    assertEquals((await srv.status).code, 0);
    await alice.until(() => alice!.closed, "telnet closed");
    assertEquals(count(srv.output(), /SIGINT received/), 1, srv.output());
    assertEquals(shutdownLines(alice.plain).length, 1, alice.plain);
  } finally {
    await alice?.close();
    await srv.stop();
  }
});

Deno.test("supervisor: at @shutdown telnet players see who stops it and one shutdown line", async () => {
  const srv = await startSupervised();
  const open: TelnetClient[] = [];
  try {
    await register(srv.base, "Alice", "alice-password");
    const alice = await telnetLogin(srv, "Alice", "alice-password");
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    open.push(alice, admin);
    await admin.send("@shutdown");
    assertEquals((await srv.status).code, 0);
    for (const c of open) {
      await c.until(() => c.closed, "telnet closed");
      const lines = shutdownLines(c.plain);
      assertEquals(lines.length, 2, c.plain);
      assertMatch(lines[0], /\[Shutdown\] Admin is shutting down the server\./);
      assertMatch(lines[1], /^The server is shutting down\.$/);
    }
  } finally {
    for (const c of open) await c.close();
    await srv.stop();
  }
});

Deno.test("supervisor: one line says where to play, once, also after an @reboot", async () => {
  const srv = await startSupervised();
  try {
    const where = new RegExp(
      `Ready: play with telnet 127\\.0\\.0\\.1 ${srv.telnet}, or at ` +
        `http://127\\.0\\.0\\.1:${srv.http}/ in a browser\\.`,
    );
    await srv.waitFor(where);
    // After the lines it sums up, never before them.
    const out = srv.output();
    for (const line of [/engine: HTTP listening on /, /engine: WebSocket hub on /]) {
      const at = out.search(line);
      assert(at !== -1 && at < out.search(where), `${line} before the ready line:\n${out}`);
    }
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    try {
      await admin.send("@reboot");
      await admin.waitFor(/Your session continues/, 30_000);
    } finally {
      await admin.close();
    }
    assertEquals(count(srv.output(), where), 1, srv.output());
  } finally {
    await srv.stop();
  }
});

Deno.test("supervisor: on an empty Deno cache the modules are fetched first, and no download is an error", async () => {
  const cache = await Deno.makeTempDir({ prefix: "ursamu-deno-dir-" });
  try {
    const srv = await startSupervised({ env: { DENO_DIR: cache } }, 180_000);
    try {
      const out = srv.output();
      // The packages came before the children started (the supervisor's `deno cache`); what a
      // child still fetches (Deno looks up a plugin's package once when it is first imported)
      // is news, not an error.
      assert(!/(engine|telnet): Download \S+\.tgz/.test(out), out);
      assert(!/ERROR +(engine|telnet): Download/.test(out), out);
      assert(!/could not load every module/.test(out), out);
      // The plugins' modules came before the children started, not while they did.
      assertMatch(out, /plugins: channels: loaded/);
    } finally {
      await srv.stop();
    }
  } finally {
    await Deno.remove(cache, { recursive: true }).catch(() => {});
  }
});
