import assert from "node:assert/strict";
import { type Child, Supervisor, type SupervisorDeps } from "./supervisor.ts";

/** A fake child that exits when told to (or when killed). */
class FakeChild implements Child {
  static next = 100;
  readonly pid = FakeChild.next++;
  readonly signals: Deno.Signal[] = [];
  exit!: (code: number) => void;
  readonly exited = new Promise<number>((r) => this.exit = r);
  constructor(readonly ignoreTerm = false) {}
  kill(signal: Deno.Signal): void {
    this.signals.push(signal);
    if (signal === "SIGKILL") this.exit(137);
    else if (!this.ignoreTerm) this.exit(0);
  }
}

/** Deps with a fake clock: each engine run lasts `runMs`, sleeps are recorded and instant. */
function fakes(runMs: number, opts: { ignoreTerm?: boolean } = {}) {
  const engines: FakeChild[] = [];
  const sidecars: FakeChild[] = [];
  const lines: string[] = [];
  const alerts: string[] = [];
  const sleeps: number[] = [];
  let clock = 0;
  const spawned: (() => void)[] = [];
  const deps: SupervisorDeps = {
    spawnEngine() {
      const c = new FakeChild(opts.ignoreTerm);
      engines.push(c);
      c.exited.then(() => clock += 0);
      clock += runMs;
      spawned.splice(0).forEach((f) => f());
      return c;
    },
    spawnSidecar() {
      const c = new FakeChild(opts.ignoreTerm);
      sidecars.push(c);
      return c;
    },
    log: (l) => lines.push(l),
    alert: (l) => {
      alerts.push(l);
      lines.push(l);
    },
    now: () => clock,
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
    stopTimeoutMs: 20,
  };
  const engineSpawned = () => new Promise<void>((r) => spawned.push(r));
  return { deps, engines, sidecars, lines, alerts, sleeps, engineSpawned };
}

async function tick(): Promise<void> {
  await new Promise((r) => setTimeout(r, 0));
}

/**
 * A supervisor over `fakes(runMs, opts)` (its deps changed by `extra`), running, with its first
 * engine and sidecar spawned: `done` is what `run()` resolves with.
 */
async function running(
  runMs: number,
  extra: Partial<SupervisorDeps> = {},
  opts: { ignoreTerm?: boolean } = {},
) {
  const f = fakes(runMs, opts);
  const sup = new Supervisor({ ...f.deps, ...extra });
  const done = sup.run();
  await tick();
  return { ...f, sup, done };
}

Deno.test("exit 75 restarts the engine with doubling delays; exit 0 stops everything", async () => {
  const f = await running(1_000);
  for (let i = 0; i < 4; i++) {
    f.engines[i].exit(75);
    await tick();
  }
  f.engines[4].exit(0);
  assert.equal(await f.done, 0);
  assert.deepEqual(f.sleeps, [1000, 2000, 4000, 8000]);
  assert.equal(f.engines.length, 5);
  assert.equal(f.sidecars.length, 1);
  assert.deepEqual(f.sidecars[0].signals, ["SIGTERM"]);
  assert.ok(f.lines.includes("restarting engine in 4000 ms"), f.lines.join("\n"));
  assert.ok(f.lines.some((l) => l.startsWith("engine stopped cleanly")));
});

Deno.test("stable runs keep the delay at one second", async () => {
  const f = await running(60_000);
  for (let i = 0; i < 3; i++) {
    f.engines[i].exit(75);
    await tick();
  }
  f.engines[3].exit(0);
  await f.done;
  assert.deepEqual(f.sleeps, [1000, 1000, 1000]);
});

Deno.test("a crash code stops the loop, stops the sidecar and is passed on", async () => {
  const f = await running(1_000);
  f.engines[0].exit(3);
  assert.equal(await f.done, 3);
  assert.equal(f.engines.length, 1);
  assert.deepEqual(f.sidecars[0].signals, ["SIGTERM"]);
  assert.ok(f.lines.some((l) => /engine crashed \(exit 3\); not restarting/.test(l)));
});

Deno.test("a crashed sidecar is restarted; the engine keeps running", async () => {
  const f = await running(1_000);
  f.sidecars[0].exit(1);
  await tick();
  await tick();
  assert.equal(f.sidecars.length, 2);
  assert.equal(f.engines.length, 1);
  assert.ok(f.lines.some((l) => /telnet sidecar exited with code 1; restarting/.test(l)));
  await f.sup.stop(true);
  assert.equal(await f.done, 0);
});

Deno.test("a sidecar that cannot run as configured (exit 78) stops the engine and the loop", async () => {
  const f = await running(1_000);
  f.sidecars[0].exit(78);
  assert.equal(await f.done, 78);
  assert.equal(f.sidecars.length, 1, "not restarted");
  assert.equal(f.engines.length, 1);
  assert.deepEqual(f.engines[0].signals, ["SIGTERM"]);
  assert.deepEqual(f.sleeps, []);
  assert.ok(f.lines.some((l) => /telnet sidecar cannot start as configured \(exit 78/.test(l)));
});

Deno.test("stop() sends SIGTERM, then SIGKILL to children that ignore it", async () => {
  const f = await running(1_000, {}, { ignoreTerm: true });
  await f.sup.stop(true);
  assert.equal(await f.done, 0);
  assert.deepEqual(f.engines[0].signals, ["SIGTERM", "SIGKILL"]);
  assert.deepEqual(f.sidecars[0].signals, ["SIGTERM", "SIGKILL"]);
  assert.equal(f.engines.length, 1);
});

Deno.test("the crash message names the start command the operator uses", async () => {
  const f = await running(1_000, { startCommand: "npm start" });
  f.engines[0].exit(3);
  assert.equal(await f.done, 3);
  assert.ok(f.lines.some((l) => /start again with `npm start`/.test(l)), f.lines.join("\n"));
});

Deno.test("a first engine that cannot start (78, or 1) stops everything with its code", async () => {
  for (const code of [78, 1]) {
    const f = await running(1_000);
    f.engines[0].exit(code);
    assert.equal(await f.done, code);
    assert.equal(f.engines.length, 1, "not tried again");
    assert.deepEqual(f.sidecars[0].signals, ["SIGTERM"]);
    assert.deepEqual(f.alerts, []);
  }
});

Deno.test("after a restart, an engine that cannot start is tried again with backoff; the sidecar stays", async () => {
  // Long runs (a bind retried for seconds) still back off: a failed start is never stable.
  const f = await running(12_000, { maxDelayMs: 8_000 });
  f.engines[0].exit(75);
  for (let i = 1; i <= 5; i++) {
    await tick();
    f.engines[i].exit(i === 3 ? 1 : 78);
  }
  await tick();
  assert.equal(f.engines.length, 7, "a new engine after each failed start");
  assert.deepEqual(f.sleeps, [1000, 2000, 4000, 8000, 8000, 8000]);
  assert.deepEqual(f.sidecars[0].signals, [], "the players' sidecar is left alone");
  assert.equal(f.alerts.length, 5);
  assert.match(
    f.alerts[0],
    /^engine could not start after a restart \(exit 78; its reason is above\); the telnet sidecar keeps the players; trying again in 2000 ms$/,
  );
  assert.match(f.alerts[2], /\(exit 1;/);
  // It comes back and serves; a later @reboot waits the usual second after a stable run.
  f.engines[6].exit(75);
  await tick();
  assert.equal(f.sleeps.at(-1), 1000);
  // A crash stays a crash: the loop ends with its code.
  f.engines[7].exit(137);
  assert.equal(await f.done, 137);
  assert.ok(f.lines.some((l) => /engine crashed \(exit 137\); not restarting/.test(l)));
});

Deno.test("a stop while a failed restart waits ends cleanly", async () => {
  let wake = () => {};
  const f = await running(1_000, {
    sleep: (_ms, signal) =>
      new Promise<void>((r) => {
        wake = r;
        signal.addEventListener("abort", () => r());
      }),
  });
  f.engines[0].exit(75);
  await tick();
  wake();
  await tick();
  f.engines[1].exit(78);
  await tick();
  await f.sup.stop(true);
  assert.equal(await f.done, 0);
  assert.equal(f.engines.length, 2);
});

Deno.test("a sidecar started again after a crash that finds its port taken (78) is tried again", async () => {
  const f = await running(1_000);
  f.sidecars[0].exit(1);
  await tick();
  await tick();
  f.sidecars[1].exit(78);
  await tick();
  await tick();
  assert.equal(f.sidecars.length, 3);
  assert.deepEqual(f.engines[0].signals, [], "the engine keeps running");
  assert.ok(f.lines.some((l) => /telnet sidecar exited with code 78; restarting it in/.test(l)));
  await f.sup.stop(true);
  assert.equal(await f.done, 0);
});
