/**
 * Puts V8's helper threads behind the event loop. V8 runs its concurrent marking, sweeping and
 * background compilation on a pool of platform threads ("V8 DefaultWorker", one a core the
 * process may use). Where they share a core with the event loop (one core, or every core busy)
 * the kernel treats them as its equal: a helper woken mid-fan-out was seen taking the core from
 * the loop for 4–5 ms while the loop had a room's lines to write (docs/bench.md, "V8's helpers
 * behind the event loop"). At ten nice levels below the loop a helper gets about a tenth of a
 * shared core while the loop wants it and all of an idle one, so the collector still works
 * beside the loop, and the loop comes first.
 *
 * Ten, not the password workers' `SCHED_IDLE`: a helper must stay ahead of a login storm's
 * hashing, or the marking falls back onto the loop. Relative to the loop's own nice value, so a
 * game started with `nice` keeps the same order; never raises a thread's priority, which needs
 * no privilege (a process may always lower its own threads). Linux only; elsewhere, or without
 * FFI or `/proc`, nothing changes and the answer says why.
 */

import { openLibcSymbols } from "./libc.ts";
import { currentTid, readTaskSched } from "./task_stat.ts";

/** How many nice levels a helper runs below the event loop. */
export const HELPER_NICE_OFFSET = 10;

/** The lowest priority a nice value gives. */
const NICE_MAX = 19;

/** `which` of setpriority: one process, which Linux takes to mean one thread. */
const PRIO_PROCESS = 0;

/** V8's platform threads' name as `/proc` shows it (15 bytes of "V8 DefaultWorker"). */
const HELPER_NAME = "V8 DefaultWorke";

/** What {@linkcode lowerV8Helpers} did. */
export interface HelperPriority {
  /** V8 helper threads found in this process. */
  found: number;
  /** Those now at `nice` (or lower), whether moved now or before. */
  lowered: number;
  /** Their nice value, or null when nothing could be read. */
  nice: number | null;
  /** Why nothing changed, when nothing could. */
  why?: string;
}

/** The ids of this process's V8 helper threads; throws if `/proc/self/task` cannot be listed. */
export function v8HelperThreads(): number[] {
  const tids: number[] = [];
  for (const entry of Deno.readDirSync("/proc/self/task")) {
    try {
      if (Deno.readTextFileSync(`/proc/self/task/${entry.name}/comm`).trim() === HELPER_NAME) {
        tids.push(Number(entry.name));
      }
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return tids;
}

/**
 * Lowers V8's helper threads to {@linkcode HELPER_NICE_OFFSET} below the calling thread (the
 * event loop); never throws. Call it from the main thread once the runtime is up.
 */
export function lowerV8Helpers(offset = HELPER_NICE_OFFSET): HelperPriority {
  const tid = currentTid();
  const self = tid === null ? null : readTaskSched(tid);
  if (!self) return { found: 0, lowered: 0, nice: null, why: "not Linux, or /proc unreadable" };
  const nice = Math.min(NICE_MAX, self.nice + Math.max(0, Math.trunc(offset)));
  let tids: number[];
  try {
    tids = v8HelperThreads();
  } catch (e) {
    return { found: 0, lowered: 0, nice, why: `cannot list threads: ${e}` };
  }
  if (!tids.length) return { found: 0, lowered: 0, nice, why: "no V8 helper threads found" };
  const lib = openLibcSymbols({
    setpriority: { parameters: ["i32", "u32", "i32"], result: "i32" },
  });
  if (typeof lib === "string") return { found: tids.length, lowered: 0, nice, why: lib };
  let lowered = 0;
  try {
    for (const tid of tids) {
      const now = readTaskSched(tid);
      if (!now) continue;
      // Already that low (an operator's choice, or a second call): leave it.
      if (now.nice >= nice || lib.symbols.setpriority(PRIO_PROCESS, tid, nice) === 0) lowered++;
    }
  } finally {
    lib.close();
  }
  return lowered
    ? { found: tids.length, lowered, nice }
    : { found: tids.length, lowered, nice, why: "the kernel refused to change their nice value" };
}
