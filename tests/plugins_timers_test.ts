/**
 * `ctx.timers` end to end with the fixture plugin `tests/fixtures/plugins/ticker`: jobs survive
 * a full stop and a reload of their plugin, run exactly once, and wait while their plugin is
 * disabled. The in-process engines share one database file and a hand-driven clock, so "an hour
 * later" needs no waiting; the supervised test at the end uses the real clock and `@reboot`.
 */
import { join } from "node:path";
import { assert, assertEquals } from "./assert.ts";
import { api, ROOT } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";
import { createEngine, type Engine } from "../src/engine.ts";
import { ManualClock } from "../src/timers/clock.ts";

const HOUR = 3_600_000;
const TICKER = join(ROOT, "tests/fixtures/plugins/ticker");

/** A temp game folder whose plugins folder holds the ticker fixture. */
async function gameDir(): Promise<{ dir: string; plugins: string }> {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-timers-" });
  const plugins = join(dir, "plugins");
  await Deno.mkdir(plugins);
  await Deno.symlink(TICKER, join(plugins, "ticker"));
  return { dir, plugins };
}

async function engineOn(dir: string, clock: ManualClock, env: Record<string, string> = {}) {
  return await createEngine({
    root: dir,
    clock,
    env: {
      URSAMU_SERVER_DB: join(dir, "ursamu.db"),
      URSAMU_SERVER_PLUGINSDIR: join(dir, "plugins"),
      JWT_SECRET: "timers-secret",
      ...env,
    },
  });
}

async function call(engine: Engine, method: string, path: string, body?: unknown) {
  const res = await engine.app.request(`/api/v1/ticker${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  }, { remoteAddr: { hostname: "127.0.0.1" } });
  return { status: res.status, body: await res.json() };
}

async function runs(engine: Engine, tag: string): Promise<number> {
  // Whatever the start-up run is doing finishes first.
  await engine.timers.runDue();
  return (await call(engine, "GET", `/runs/${tag}`)).body.runs;
}

/** Moves the clock and lets the scheduler run what came due. */
async function advance(engine: Engine, clock: ManualClock, ms: number): Promise<void> {
  clock.advance(ms);
  await engine.timers.runDue();
}

Deno.test("timers: a job due during a full stop runs once at the next start", async () => {
  const { dir } = await gameDir();
  const clock = new ManualClock();
  try {
    let engine = await engineOn(dir, clock);
    const made = await call(engine, "POST", "/timers", { tag: "stop", due: clock.now() + HOUR });
    assertEquals(made.status, 201);
    assertEquals(await runs(engine, "stop"), 0);
    await engine.close();

    clock.advance(2 * HOUR);
    engine = await engineOn(dir, clock);
    assertEquals(await runs(engine, "stop"), 1, "ran at start, after the plugin registered");
    assertEquals((await call(engine, "GET", "/timers")).body, []);
    await engine.close();

    engine = await engineOn(dir, clock);
    assertEquals(await runs(engine, "stop"), 1, "not again at the start after");
    await engine.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("timers: @reload/plugin of the owner neither loses nor repeats a job", async () => {
  const { dir } = await gameDir();
  const clock = new ManualClock();
  const engine = await engineOn(dir, clock);
  try {
    const t0 = clock.now();
    await call(engine, "POST", "/timers", { tag: "every", every: 60_000 });
    await call(engine, "POST", "/timers", { tag: "once", due: t0 + 90_000, ifUnloaded: "drop" });
    await advance(engine, clock, 60_000);
    assertEquals(await runs(engine, "every"), 1);

    // Both jobs come due while the plugin is being swapped.
    const reloading = engine.services.plugins.reload("ticker");
    clock.advance(60_000);
    const status = await reloading;
    assert(status.ok, status.message);
    assertEquals(await runs(engine, "once"), 1, "a drop job is not lost to the reload");
    assertEquals(await runs(engine, "every"), 2);

    for (let i = 0; i < 3; i++) {
      assert((await engine.services.plugins.reload("ticker")).ok);
      await advance(engine, clock, 60_000);
    }
    assertEquals(await runs(engine, "once"), 1);
    console.log(
      "RUNS",
      await call(engine, "GET", "/runs/every"),
      await engine.timers.list("ticker"),
      clock.now() - t0,
    );
    assertEquals(await runs(engine, "every"), 5, "one run per minute, reloads or not");
    const left = (await call(engine, "GET", "/timers")).body as { payload: { tag: string } }[];
    assertEquals(left.map((t) => t.payload.tag), ["every"]);
  } finally {
    await engine.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("timers: jobs of a disabled plugin wait (or are dropped, as declared)", async () => {
  const { dir } = await gameDir();
  const clock = new ManualClock();
  try {
    let engine = await engineOn(dir, clock);
    await call(engine, "POST", "/timers", { tag: "wait", due: clock.now() + HOUR });
    await call(engine, "POST", "/timers", {
      tag: "drop",
      due: clock.now() + HOUR,
      ifUnloaded: "drop",
    });
    await engine.close();

    clock.advance(2 * HOUR);
    engine = await engineOn(dir, clock, { URSAMU_PLUGINS_TICKER_ENABLED: "false" });
    await engine.timers.runDue();
    assertEquals(engine.services.plugins.isLoaded("ticker"), false);
    const stored = (await engine.timers.list("ticker")).map((t) =>
      (t.payload as { tag: string }).tag
    );
    assertEquals(stored, ["wait"], "the waiting job is kept, the drop job is gone");
    clock.advance(HOUR);
    await engine.timers.runDue();
    assertEquals((await engine.timers.list("ticker")).length, 1);
    await engine.close();

    engine = await engineOn(dir, clock);
    assertEquals(await runs(engine, "wait"), 1, "runs once its plugin is back");
    assertEquals(await runs(engine, "drop"), 0);
    assertEquals(await engine.timers.list("ticker"), []);
    await engine.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("timers: a job due during @reboot runs once, in the restarted engine", async () => {
  const { dir, plugins } = await gameDir();
  const srv = await startSupervised({
    env: { URSAMU_SERVER_PLUGINSDIR: plugins },
    args: ["--max-delay", "1000"],
  });
  const get = async () => (await api(srv.base, "GET", "/api/v1/ticker/runs/reboot")).body;
  try {
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    const before = (await get()).enginePid as number;
    // Due a few seconds out: the engine stops its timers first thing on exit, long before.
    const made = await api(srv.base, "POST", "/api/v1/ticker/timers", {
      tag: "reboot",
      due: Date.now() + 3000,
    });
    assertEquals(made.status, 201);
    await admin.send("@reboot");
    await admin.waitFor(/Your session continues/, 30_000);
    const end = Date.now() + 30_000;
    let seen = await get().catch(() => null);
    while (seen?.runs !== 1 && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 200));
      seen = await get().catch(() => null);
    }
    assertEquals(seen?.runs, 1);
    assert(seen.enginePid !== before, "a new engine process");
    assertEquals(seen.pids, [seen.enginePid], "run by the restarted engine, once");

    // Another restart finds nothing left to run.
    await admin.send("@reboot");
    await admin.waitFor(/Your session continues[\s\S]*Your session continues/, 30_000);
    const after = await get();
    assert(after.enginePid !== seen.enginePid);
    assertEquals(after.runs, 1);
    assertEquals((await api(srv.base, "GET", "/api/v1/ticker/timers")).body, []);
    await admin.close();
  } finally {
    await srv.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
