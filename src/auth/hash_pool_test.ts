import assert from "node:assert/strict";
import bcrypt from "bcryptjs";
import { BUSY_MESSAGE, HashPool } from "./hash_pool.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import { RateLimitError } from "../errors.ts";
import { readThreadSched } from "./thread_priority.ts";
import { readTaskSched } from "../runtime/task_stat.ts";

/** SCHED_IDLE, as /proc/<pid>/task/<tid>/stat reports it. */
const SCHED_IDLE = 5;

Deno.test("hash pool: both hash formats verify in workers, and hashes match the main thread's", async () => {
  const pool = new HashPool({ workers: 2 });
  try {
    const fromPool = await pool.hash("correct horse");
    assert.match(fromPool, /^v2\$\$2[aby]\$10\$/);
    assert.equal(await verifyPassword("correct horse", fromPool), true, "pool hash, inline check");
    const inline = await hashPassword("battery staple");
    assert.equal(await pool.verify("battery staple", inline), true, "inline hash, pool check");
    assert.equal(await pool.verify("battery stapler", inline), false);
    // The older scheme: plain bcrypt over the password itself.
    const old = await bcrypt.hash("old password", 10);
    assert.equal(await pool.verify("old password", old), true);
    assert.equal(await pool.verify("new password", old), false);
    // Garbage in the store is a mismatch or an error, never a crash of the pool.
    await pool.verify("x", "not a hash").then((ok) => assert.equal(ok, false), () => {});
    assert.equal(await pool.verify("correct horse", fromPool), true, "the pool still works");
    const s = pool.stats();
    assert.ok(s.workers >= 1 && s.workers <= 2, `workers ${s.workers}`);
    assert.equal(s.busy, 0);
    assert.equal(s.waiting, 0);
  } finally {
    pool.close();
  }
});

Deno.test("hash pool: a hash bcrypt cannot read is a rejected job, and the worker takes the next one", async () => {
  const pool = new HashPool({ workers: 1 });
  try {
    // Sixty characters, so bcrypt parses it and throws (a shorter one is simply false).
    await assert.rejects(
      pool.verify("password123", "$9z$10$" + "a".repeat(53)),
      /password worker: .*Invalid salt version/,
    );
    const hash = await hashPassword("password123");
    assert.equal(await pool.verify("password123", hash), true);
    assert.deepEqual(
      { ...pool.stats(), done: 0 },
      { workers: 1, busy: 0, waiting: 0, done: 0, refused: 0, lowered: pool.stats().lowered },
    );
  } finally {
    pool.close();
  }
});

Deno.test("hash pool: jobs run in parallel workers, never more than its size", async () => {
  const pool = new HashPool({ workers: 2, maxWaiting: 10 });
  try {
    const hash = await hashPassword("password123");
    const jobs = Array.from(
      { length: 6 },
      (_, i) => pool.verify(i % 2 ? "password123" : "no", hash),
    );
    const during = pool.stats();
    assert.equal(during.workers, 2);
    assert.equal(during.busy, 2);
    assert.equal(during.waiting, 4);
    assert.deepEqual(await Promise.all(jobs), [false, true, false, true, false, true]);
    assert.equal(pool.stats().done >= 6, true);
  } finally {
    pool.close();
  }
});

Deno.test("hash pool: a full waiting line is refused at once with 429 and a clear message", async () => {
  const pool = new HashPool({ workers: 1, maxWaiting: 2 });
  try {
    const hash = await hashPassword("password123");
    const order: string[] = [];
    const jobs = Array.from({ length: 6 }, (_, i) =>
      pool.verify("password123", hash).then(
        (ok) => {
          order.push(`ok${i}`);
          return ok;
        },
        (e) => {
          order.push(`refused${i}`);
          return e;
        },
      ));
    const results = await Promise.all(jobs);
    assert.deepEqual(results.slice(0, 3), [true, true, true]);
    for (const e of results.slice(3)) {
      assert.ok(e instanceof RateLimitError);
      assert.equal(e.status, 429);
      assert.equal(e.message, BUSY_MESSAGE);
    }
    // The refusals came before any accepted job finished: nobody waited behind the line.
    assert.deepEqual(order.slice(0, 3), ["refused3", "refused4", "refused5"]);
    assert.equal(pool.stats().refused, 3);
    // Once the line has drained, new work is taken again.
    assert.equal(await pool.verify("password123", hash), true);
  } finally {
    pool.close();
  }
});

Deno.test("hash pool: close rejects what is still waiting and stops the workers", async () => {
  const pool = new HashPool({ workers: 1, maxWaiting: 4 });
  const hash = await hashPassword("password123");
  const jobs = [pool.verify("password123", hash), pool.verify("password123", hash)];
  pool.close();
  for (const j of jobs) await assert.rejects(j, /closed/);
  await assert.rejects(pool.hash("anything"), /closed/);
  assert.equal(pool.stats().workers, 0);
});

Deno.test("hash pool: start runs every worker before any job, each on a thread below the caller's", async () => {
  const pool = new HashPool({ workers: 2 });
  try {
    assert.equal(pool.stats().workers, 0, "nothing runs before start");
    await pool.start();
    assert.equal(pool.stats().workers, 2);
    const threads = pool.threads();
    assert.equal(threads.length, 2);
    if (Deno.build.os !== "linux") return;
    const main = readThreadSched()!;
    for (const t of threads) {
      assert.equal(t.lowered, true, `worker thread not lowered: ${t.error}`);
      assert.equal(t.yields, true, "bcrypt gives the CPU away at every round");
      assert.notEqual(t.tid, main.tid);
      // What the kernel says, not what the worker believes.
      const { nice, policy } = readTaskSched(t.tid!)!;
      assert.ok(policy === SCHED_IDLE || nice > main.nice, `policy ${policy}, nice ${nice}`);
      // And what the worker believes agrees with it.
      assert.equal(t.policy === "idle", policy === SCHED_IDLE, `${t.policy} against ${policy}`);
    }
    // Only the workers: the calling thread keeps its policy and nice value.
    assert.deepEqual(readThreadSched(), main);
    assert.equal(pool.stats().lowered, 2);
    // Started again: no more workers than its size, and the started ones take jobs.
    await pool.start();
    assert.equal(pool.stats().workers, 2);
    assert.equal(await pool.verify("password123", await hashPassword("password123")), true);
  } finally {
    pool.close();
  }
});

Deno.test("hash pool: a refusal of a full line is not held up by the busy workers", async () => {
  const pool = new HashPool({ workers: 1, maxWaiting: 0 });
  try {
    await pool.start();
    const hash = await hashPassword("password123");
    const running = pool.verify("password123", hash);
    let refusedFirst = false;
    await pool.verify("password123", hash).catch((e) => {
      assert.ok(e instanceof RateLimitError);
      refusedFirst = pool.stats().busy === 1;
    });
    assert.equal(refusedFirst, true, "refused while the only worker still hashed");
    assert.equal(await running, true);
  } finally {
    pool.close();
  }
});
