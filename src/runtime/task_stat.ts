/**
 * Reads a thread's scheduling state (policy and nice value) from Linux's `/proc`, for the code
 * that tunes the engine's threads against each other (password workers, V8's helpers).
 */

/** A thread's id, scheduling policy and nice value as the kernel reports them. */
export interface TaskSched {
  /** The kernel's id of the thread (a directory name under `/proc/<pid>/task/`). */
  tid: number;
  /** `SCHED_OTHER` (0), `SCHED_IDLE` (5) and so on. */
  policy: number;
  /** -20 (first) to 19 (last). */
  nice: number;
}

/** A thread's scheduling state from its `/proc/.../stat` text, or null if it is not one. */
export function parseTaskStat(tid: number, stat: string): TaskSched | null {
  // The command name (field 2) may hold spaces and parentheses: it ends at the last ")".
  const end = stat.lastIndexOf(")");
  if (end < 0) return null;
  const f = stat.slice(end + 2).split(" ");
  // f starts at field 3 of proc(5)'s stat: nice is field 19, policy field 41.
  if (f.length < 39) return null;
  const nice = Number(f[16]), policy = Number(f[38]);
  return Number.isInteger(nice) && Number.isInteger(policy) ? { tid, nice, policy } : null;
}

/** One thread of this process (`/proc/self/task/<tid>/stat`), or null if it cannot be read. */
export function readTaskSched(tid: number): TaskSched | null {
  try {
    return parseTaskStat(tid, Deno.readTextFileSync(`/proc/self/task/${tid}/stat`));
  } catch {
    return null;
  }
}

/**
 * The calling thread's id, or null off Linux or where `/proc` cannot be read (Deno grants
 * `/proc/thread-self` and `/proc/self/task` to `--allow-all` only; the engine and sidecar have it).
 */
export function currentTid(): number | null {
  if (Deno.build.os !== "linux") return null;
  try {
    // Sync on purpose: an async call would run on another thread and name that one.
    const tid = Number(Deno.readLinkSync("/proc/thread-self").split("/").pop());
    return Number.isInteger(tid) ? tid : null;
  } catch {
    return null;
  }
}
