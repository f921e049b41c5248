import assert from "node:assert/strict";
import { ManualClock } from "./clock.ts";
import { type DueJob, Scheduler } from "./scheduler.ts";
import { keys } from "../storage/keys.ts";

const HOUR = 3_600_000;

async function world(opts: { maxAttempts?: number } = {}) {
  const kv = await Deno.openKv(":memory:");
  const clock = new ManualClock();
  const logs: string[] = [];
  const make = () =>
    new Scheduler(kv, { clock, log: (m) => void logs.push(m), maxAttempts: opts.maxAttempts });
  return { kv, clock, logs, make };
}

/** Advances the clock and waits for the run it triggers. */
async function advance(clock: ManualClock, s: Scheduler, ms: number): Promise<void> {
  clock.advance(ms);
  await s.runDue();
}

async function count(kv: Deno.Kv, prefix: Deno.KvKey): Promise<number> {
  let n = 0;
  for await (const _ of kv.list({ prefix })) n++;
  return n;
}

Deno.test("scheduler: a job runs once at its time, its effect committed with its removal", async () => {
  const { kv, clock, make } = await world();
  const s = make();
  const runs: DueJob[] = [];
  s.handle("events", "start", (job) => {
    runs.push(job);
    job.atomic.set(["effect", job.payload as string], true);
  });
  await s.start();
  const id = await s.schedule("events", "start", clock.now() + HOUR, "e1");
  await advance(clock, s, HOUR - 1);
  assert.equal(runs.length, 0);
  await advance(clock, s, 1);
  assert.equal(runs.length, 1);
  assert.equal(runs[0].id, id);
  assert.equal((await kv.get(["effect", "e1"])).value, true);
  assert.equal(await s.get("events", id), null);
  assert.equal(await count(kv, keys.timersDue()), 0);
  assert.equal(await count(kv, keys.timersOf("events")), 0);
  await advance(clock, s, 10 * HOUR);
  assert.equal(runs.length, 1);
  await s.stop();
  assert.equal(clock.pending, 0);
  kv.close();
});

Deno.test("scheduler: a job due while the engine was down runs once at the next start", async () => {
  const { kv, clock, make } = await world();
  const first = make();
  await first.start();
  await first.schedule("events", "end", clock.now() + 40 * 24 * HOUR, { n: 1 });
  await first.stop();
  clock.advance(41 * 24 * HOUR);
  const second = make();
  let runs = 0;
  second.handle("events", "end", (job) => {
    runs++;
    assert.deepEqual(job.payload, { n: 1 });
  });
  await second.start();
  assert.equal(runs, 1);
  await second.stop();
  const third = make();
  third.handle("events", "end", () => void runs++);
  await third.start();
  assert.equal(runs, 1);
  await third.stop();
  kv.close();
});

Deno.test("scheduler: a run that throws leaves the job due and retries it, then drops it", async () => {
  const { kv, clock, make, logs } = await world({ maxAttempts: 3 });
  const s = make();
  let tries = 0;
  s.handle("p", "k", (job) => {
    tries++;
    job.atomic.set(["effect"], tries);
    throw new Error("boom");
  });
  await s.start();
  const id = await s.schedule("p", "k", clock.now() + 1000);
  await advance(clock, s, 1000);
  assert.equal(tries, 1);
  assert.equal((await kv.get(["effect"])).value, null, "a failed run commits nothing");
  assert.equal((await s.get("p", id))?.attempts, 1);
  await advance(clock, s, 2000);
  assert.equal(tries, 2);
  await advance(clock, s, 4000);
  assert.equal(tries, 3);
  assert.equal(await s.get("p", id), null);
  assert.ok(logs.some((l) => l.includes("dropped")));
  await s.stop();
  kv.close();
});

Deno.test("scheduler: every repeats, and runs missed while down collapse into one", async () => {
  const { kv, clock, make } = await world();
  const s = make();
  const dues: number[] = [];
  s.handle("p", "tick", (job) => void dues.push(job.due));
  await s.start();
  const t0 = clock.now();
  const id = await s.schedule("p", "tick", t0 + 1000, null, { every: 1000 });
  await advance(clock, s, 1000);
  await advance(clock, s, 1000);
  assert.deepEqual(dues, [t0 + 1000, t0 + 2000]);
  await s.stop();
  clock.advance(10_500);
  await s.start();
  assert.equal(dues.length, 3);
  assert.equal((await s.get("p", id))?.due, t0 + 13_000);
  assert.equal(await s.cancel("p", id), true);
  assert.equal(await s.cancel("p", id), false);
  await advance(clock, s, 5000);
  assert.equal(dues.length, 3);
  await s.stop();
  kv.close();
});

Deno.test("scheduler: an unloaded owner's jobs wait or are dropped as declared", async () => {
  const { kv, clock, make } = await world();
  const s = make();
  await s.start();
  const waiting = await s.schedule("mail", "remind", clock.now() + 1000, null);
  const dropped = await s.schedule("mail", "nag", clock.now() + 1000, null, { ifUnloaded: "drop" });
  await advance(clock, s, 5000);
  assert.ok(await s.get("mail", waiting));
  assert.equal(await s.get("mail", dropped), null);
  let ran = 0;
  const off = s.handle("mail", "remind", () => void ran++);
  await s.runDue();
  assert.equal(ran, 1);
  assert.equal(await s.get("mail", waiting), null);
  off();
  await s.stop();
  kv.close();
});

Deno.test("scheduler: lists and cancels only its owner's jobs", async () => {
  const { kv, clock, make } = await world();
  const s = make();
  const b = await s.schedule("a", "k", clock.now() + 2000);
  const a = await s.schedule("a", "k", clock.now() + 1000);
  const other = await s.schedule("b", "k", clock.now() + 1000);
  assert.deepEqual((await s.list("a")).map((r) => r.id), [a, b]);
  assert.equal(await s.cancel("a", other), false);
  assert.equal(await s.get("a", other), null);
  assert.ok(await s.get("b", other));
  kv.close();
});

Deno.test("scheduler: a handler whose own check loses a race is run again", async () => {
  const { kv, clock, make } = await world();
  const s = make();
  let runs = 0;
  s.handle("p", "k", async (job) => {
    runs++;
    const cur = await kv.get<number>(["n"]);
    if (runs === 1) await kv.set(["n"], 100); // someone else writes between read and commit
    job.atomic.check(cur).set(["n"], (cur.value ?? 0) + 1);
  });
  await s.start();
  await s.schedule("p", "k", clock.now());
  await s.runDue();
  assert.equal(runs, 2);
  assert.equal((await kv.get(["n"])).value, 101);
  await s.stop();
  kv.close();
});

Deno.test("scheduler: after-commit steps run only after the commit", async () => {
  const { kv, clock, make } = await world();
  const s = make();
  const seen: unknown[] = [];
  s.handle("p", "k", (job) => {
    job.atomic.set(["x"], 1);
    job.after(async () => void seen.push((await kv.get(["x"])).value));
  });
  await s.start();
  await s.schedule("p", "k", clock.now());
  await s.runDue();
  assert.deepEqual(seen, [1]);
  await s.stop();
  kv.close();
});

Deno.test("scheduler: bad input is refused with a clear message", async () => {
  const { kv, make } = await world();
  const s = make();
  await assert.rejects(() => s.schedule("p", "", 0), /kind/);
  await assert.rejects(() => s.schedule("p", "a b", 0), /kind/);
  await assert.rejects(() => s.schedule("p", "k", NaN), /finite/);
  await assert.rejects(() => s.schedule("p", "k", 0, null, { every: 10 }), /at least 1000/);
  await assert.rejects(() => s.schedule("p", "k", 0, "x".repeat(40_000)), /32768 bytes/);
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  await assert.rejects(() => s.schedule("p", "k", 0, cyclic), /JSON/);
  assert.throws(() => s.handle("p", "k", null as unknown as () => void), /function/);
  assert.equal(await s.list("p").then((l) => l.length), 0);
  kv.close();
});

Deno.test("scheduler: a waiting job leaves the due index until a handler of its kind comes", async () => {
  const { kv, clock, make } = await world();
  const s = make();
  await s.start();
  const id = await s.schedule("mail", "remind", clock.now() + 1000, { to: "x" });
  await advance(clock, s, 1000);
  assert.equal(await count(kv, keys.timersDue()), 0, "parked, so later passes do not read it");
  assert.equal(await count(kv, keys.timersParked("mail")), 1);
  assert.deepEqual((await s.list("mail")).map((r) => r.id), [id]);
  // A handler of another kind of the same owner leaves it parked.
  s.handle("mail", "other", () => {});
  await s.runDue();
  assert.equal(await count(kv, keys.timersParked("mail")), 1);
  const seen: unknown[] = [];
  s.handle("mail", "remind", (job) => void seen.push(job.payload));
  await s.runDue();
  assert.deepEqual(seen, [{ to: "x" }]);
  assert.equal(await count(kv, keys.timersParked("mail")), 0);
  assert.equal(await s.get("mail", id), null);
  // Cancelling a parked job removes it entirely.
  const other = await s.schedule("gone", "k", clock.now());
  await s.runDue();
  assert.equal(await count(kv, keys.timersParked("gone")), 1);
  assert.equal(await s.cancel("gone", other), true);
  assert.equal(await count(kv, keys.timersParked("gone")), 0);
  await s.stop();
  kv.close();
});

Deno.test("scheduler: a held owner (reloading) neither runs nor drops its jobs", async () => {
  const { kv, clock, make } = await world();
  const s = make();
  let runs = 0;
  const off = s.handle("p", "k", () => void runs++);
  await s.start();
  const id = await s.schedule("p", "k", clock.now() + 1000, null, { ifUnloaded: "drop" });
  const release = s.hold("p");
  off();
  await advance(clock, s, 1000);
  assert.equal(runs, 0);
  assert.ok(await s.get("p", id), "not dropped while held");
  s.handle("p", "k", () => void runs++);
  await s.runDue();
  assert.equal(runs, 0, "still held");
  release();
  await s.runDue();
  assert.equal(runs, 1);
  assert.equal(await s.get("p", id), null);
  // A drop job held while its owner went away for good is dropped once the hold ends.
  const later = await s.schedule("q", "k", clock.now(), null, { ifUnloaded: "drop" });
  const r2 = s.hold("q");
  await s.runDue();
  assert.ok(await s.get("q", later));
  r2();
  await s.runDue();
  assert.equal(await s.get("q", later), null);
  await s.stop();
  kv.close();
});

Deno.test("scheduler: a repeating job that keeps failing skips a turn instead of vanishing", async () => {
  const { kv, clock, make, logs } = await world({ maxAttempts: 2 });
  const s = make();
  let tries = 0;
  s.handle("p", "tick", () => {
    tries++;
    throw new Error("down");
  });
  await s.start();
  const t0 = clock.now();
  const id = await s.schedule("p", "tick", t0 + 60_000, null, { every: 60_000 });
  await advance(clock, s, 60_000);
  await advance(clock, s, 2000);
  assert.equal(tries, 2);
  const rec = await s.get("p", id);
  assert.ok(rec);
  assert.equal(rec.attempts, 0);
  assert.ok(rec.due > clock.now() && rec.due <= clock.now() + 60_000);
  assert.ok(logs.some((l) => l.includes("skipped to its next turn")));
  await s.stop();
  kv.close();
});

Deno.test("scheduler: a handler that never finishes times out and the loop goes on", async () => {
  const { kv, clock } = await world();
  const s = new Scheduler(kv, { clock, log: () => {}, handlerTimeoutMs: 5000 });
  let stuck = 0, fine = 0;
  s.handle("p", "stuck", () => {
    stuck++;
    return new Promise<void>(() => {});
  });
  s.handle("p", "fine", () => void fine++);
  await s.start();
  const id = await s.schedule("p", "stuck", clock.now());
  await s.schedule("p", "fine", clock.now() + 1);
  const run = s.runDue();
  // The timeout runs on the scheduler's clock: move it while the run waits.
  await new Promise((r) => setTimeout(r, 10));
  clock.advance(5000);
  await run;
  await s.runDue();
  assert.equal(stuck, 1);
  assert.equal(fine, 1);
  assert.equal((await s.get("p", id))?.attempts, 1);
  await s.stop();
  kv.close();
});

Deno.test("scheduler: stop leaves the rest of a backlog due for the next start", async () => {
  const { kv, clock, make } = await world();
  const s = make();
  let runs = 0;
  let stopping: Promise<void> | null = null;
  s.handle("p", "k", () => {
    runs++;
    stopping ??= s.stop();
  });
  for (let i = 0; i < 5; i++) await s.schedule("p", "k", clock.now() - 1000 + i);
  await s.start();
  await stopping;
  assert.equal(runs, 1);
  assert.equal(await count(kv, keys.timersDue()), 4);
  const again = make();
  again.handle("p", "k", () => void runs++);
  await again.start();
  assert.equal(runs, 5);
  await again.stop();
  kv.close();
});

Deno.test("scheduler: a job stored while a run picks its wake-up time is not missed", async () => {
  const { kv, clock } = await world();
  let during: (() => Promise<unknown>) | null = null;
  // The real store, with a hook where the run looks for its next wake-up time.
  const hooked = new Proxy(kv, {
    get(target, prop) {
      if (prop === "list") {
        return (sel: Deno.KvListSelector, opts?: Deno.KvListOptions) => {
          if (opts?.limit === 1 && during) {
            const fn = during;
            during = null;
            return (async function* () {
              const seen = [];
              for await (const e of target.list(sel, opts)) seen.push(e);
              await fn(); // after the run has read its answer, before it arms
              yield* seen;
            })();
          }
          return target.list(sel, opts);
        };
      }
      const v = Reflect.get(target, prop);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  const s = new Scheduler(hooked, { clock, log: () => {} });
  let runs = 0;
  s.handle("p", "k", () => void runs++);
  await s.start();
  during = () => s.schedule("p", "k", clock.now() + 5000);
  await s.runDue();
  assert.equal(during, null, "the hook ran");
  // Only the armed wake-up may run it: no explicit runDue here.
  clock.advance(5000);
  for (let i = 0; i < 100 && runs === 0; i++) await new Promise((r) => setTimeout(r, 5));
  assert.equal(runs, 1);
  await s.stop();
  kv.close();
});
