/**
 * Lowers the scheduling priority of the calling thread, so a password worker gives the CPU up
 * the moment the engine's event loop (or the telnet sidecar) wants it, and takes whatever is
 * left over. Linux keeps the policy and nice value per thread: `sched_setscheduler(0, …)` and
 * `setpriority(PRIO_PROCESS, 0, …)` change only the caller, not the engine's other threads.
 *
 * First choice is `SCHED_IDLE`: a normal thread that wakes up is meant to preempt an idle-policy
 * one at once, though not every kernel does: on this project's 6.18 VM (HZ=250) the engine's
 * event loop was seen waiting up to a tick (4 ms) behind a worker (docs/bench.md, "a typed
 * line's way through the engine, shortened"). Where that is
 * refused the thread's nice value is raised to 19 instead. An unprivileged thread may always
 * lower its own priority, so neither needs rights beyond Deno's `--allow-ffi` (the engine runs
 * with `-A`). Elsewhere (another OS, no FFI permission, no glibc) the thread keeps its priority
 * and the answer says why.
 */

import { openLibcSymbols } from "../runtime/libc.ts";
import { currentTid, readTaskSched, type TaskSched } from "../runtime/task_stat.ts";

/** The scheduling policy of an ordinary thread. */
const SCHED_OTHER = 0;
/** The policy of a thread that runs only when nothing else of its group wants the CPU. */
const SCHED_IDLE = 5;
/** `which` of setpriority: one process, which Linux takes to mean one thread. */
const PRIO_PROCESS = 0;
/** The lowest priority a nice value gives. */
const NICE_MAX = 19;

/** How the calling thread now runs. */
export interface ThreadPriority {
  /** The kernel's id of the thread (what `/proc/<pid>/task/` lists), or null off Linux. */
  tid: number | null;
  /** True when the thread now runs below the engine's other threads. */
  lowered: boolean;
  /** `idle` (SCHED_IDLE), `nice` (nice value raised) or `normal` (unchanged). */
  policy: "idle" | "nice" | "normal";
  /** The thread's nice value afterwards, or null where it cannot be read. */
  nice: number | null;
  /** Why the priority is unchanged, when it is. */
  error?: string;
}

/**
 * A clock (`now` wrapped) that first gives the calling thread's CPU to whatever else waits for it
 * (`sched_yield`), or null where that cannot be had (not Linux, no FFI permission, no libc); never
 * throws. A password worker installs it as its `Date.now`: bcryptjs reads the clock once a round
 * of its key schedule (about 60 µs at cost 10), so an engine thread that wakes behind a worker
 * waits about that long. Without it, it waited for the scheduler's next tick: the kernel of this
 * project's machines lets a running idle-policy thread go on until then (4 ms, docs/bench.md).
 */
export function yieldingClock(now: () => number): (() => number) | null {
  // Kept open for the thread's life: it is read for every round of every hash.
  const lib = openLibcSymbols({ sched_yield: { parameters: [], result: "i32" } });
  if (typeof lib === "string") return null;
  const giveWay = lib.symbols.sched_yield;
  return () => {
    giveWay();
    return now();
  };
}

/** This thread's id, policy and nice value as the kernel reports them, or null off Linux. */
export function readThreadSched(): TaskSched | null {
  const tid = currentTid();
  return tid === null ? null : readTaskSched(tid);
}

/** Moves the calling thread to SCHED_IDLE, or failing that to nice 19; never throws. */
export function lowerThreadPriority(): ThreadPriority {
  const before = Deno.build.os === "linux" ? readThreadSched() : null;
  if (!before) {
    return {
      tid: null,
      lowered: false,
      policy: "normal",
      nice: null,
      error: "not Linux, or no /proc",
    };
  }
  const unchanged = {
    tid: before.tid,
    lowered: false,
    policy: "normal",
    nice: before.nice,
  } as const;
  const lib = openLibcSymbols({
    sched_setscheduler: { parameters: ["i32", "i32", "buffer"], result: "i32" },
    setpriority: { parameters: ["i32", "u32", "i32"], result: "i32" },
  });
  if (typeof lib === "string") return { ...unchanged, error: lib };
  try {
    // struct sched_param { int sched_priority; }: 0 for the non-realtime policies.
    const param = new Int32Array([0]);
    if (before.policy === SCHED_OTHER) lib.symbols.sched_setscheduler(0, SCHED_IDLE, param);
    if (readThreadSched()?.policy !== SCHED_IDLE) {
      lib.symbols.setpriority(PRIO_PROCESS, 0, NICE_MAX);
    }
  } finally {
    lib.close();
  }
  const after = readThreadSched();
  if (after?.policy === SCHED_IDLE) {
    return { tid: after.tid, lowered: true, policy: "idle", nice: after.nice };
  }
  if (after && after.nice > before.nice) {
    return { tid: after.tid, lowered: true, policy: "nice", nice: after.nice };
  }
  return {
    tid: before.tid,
    lowered: before.nice >= NICE_MAX,
    policy: before.nice >= NICE_MAX ? "nice" : "normal",
    nice: after?.nice ?? before.nice,
    error: before.nice >= NICE_MAX ? undefined : "the kernel refused both SCHED_IDLE and nice",
  };
}
