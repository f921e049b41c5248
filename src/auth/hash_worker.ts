/**
 * One bcrypt worker of the {@linkcode HashPool}: runs the very functions of passwords.ts, so a
 * hash made here is the hash the main thread would make, in both schemes. Its first act is to
 * lower its own thread's priority (thread_priority.ts), so bcrypt only takes CPU time the
 * engine's event loop does not want; the pool hears how that went before any job.
 */
/// <reference no-default-lib="true" />
/// <reference lib="deno.worker" />
import { hashPassword, verifyPassword } from "./passwords.ts";
import { lowerThreadPriority, yieldingClock } from "./thread_priority.ts";
import type { HashJob, HashReply, WorkerStarted } from "./hash_pool.ts";

// bcrypt gives the CPU away at every round of its key schedule, where bcryptjs reads the clock
// (see yieldingClock): this isolate runs nothing but password jobs, so its clock is bcrypt's.
const clock = yieldingClock(Date.now);
if (clock !== null) Date.now = clock;
const started: WorkerStarted = { started: lowerThreadPriority(), yields: clock !== null };
self.postMessage(started);

self.onmessage = async (e: MessageEvent<HashJob>) => {
  const job = e.data;
  let reply: HashReply;
  try {
    const value = job.op === "hash"
      ? await hashPassword(job.password)
      : await verifyPassword(job.password, job.hash);
    reply = { id: job.id, ok: true, value };
  } catch (err) {
    reply = { id: job.id, ok: false, error: String(err) };
  }
  self.postMessage(reply);
};
