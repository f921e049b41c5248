/**
 * Gives back to the OS the memory the C allocator keeps after it is freed. Much of a Deno
 * process's memory is not V8's heap but malloc's: array buffers' bytes (every socket read and
 * encoded line), the runtime's ops and tokio's state. glibc keeps what is freed in its arenas for
 * reuse and returns little of it by itself, so a burst (a thousand telnet logins, a reboot's
 * resumes) left the engine and the sidecar about 12 KiB a player larger for good, though the
 * objects were gone (docs/bench.md, "Issue 14: memory the allocator kept"). `malloc_trim(0)`
 * hands every whole free page back (madvise), in every arena.
 *
 * It runs on the runtime's blocking pool (a nonblocking FFI call), not the event loop (which
 * only waits for an arena's lock if it allocates meanwhile); it takes 0.1–1.5 ms with 1,000
 * players on. The next one waits at least 100 times as long as the last took (as seen from the
 * event loop, so a busy loop only makes it wait longer), so trimming uses at most 1 % of a
 * thread however large the heap grows, and never waits more than a minute. Linux with glibc
 * only; elsewhere (another OS, musl, no FFI permission) nothing runs and `available` says so.
 */

import { openLibcSymbols } from "./libc.ts";

/** How often a trim runs at most. */
export const TRIM_EVERY_MS = 2_000;

/** A trim's share of a thread at most: the next one waits this many times its duration. */
const PAUSE_FACTOR = 100;

/** The longest wait between trims, however long the last one seemed to take. */
export const MAX_PAUSE_MS = 60_000;

/** Settings for {@linkcode startMallocTrim}. */
export interface MallocTrimOptions {
  /** Least time between trims (default {@linkcode TRIM_EVERY_MS}). */
  everyMs?: number;
  /** Longest time between trims (default {@linkcode MAX_PAUSE_MS}). */
  maxPauseMs?: number;
  /** Called after each trim with its duration and whether any memory went back. */
  onTrim?: (ms: number, released: boolean) => void;
}

/** The running trims. */
export interface MallocTrimmer {
  /** False when this platform cannot trim (see `why`); nothing runs then. */
  readonly available: boolean;
  /** Why it is unavailable, when it is. */
  readonly why?: string;
  /** Trims done so far. */
  readonly trims: number;
  /** Stops trimming; a trim under way finishes. */
  stop(): void;
}

const LIBC_SYMBOLS = {
  malloc_trim: { parameters: ["usize"], result: "i32", nonblocking: true },
  // Only glibc has it: another libc's malloc_trim (a compatibility shim) may do nothing.
  gnu_get_libc_version: { parameters: [], result: "pointer" },
} as const;

/** A setting that is a positive number, or the default. */
function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}

/** Starts trimming this process's malloc arenas every few seconds; never throws. */
export function startMallocTrim(opts: MallocTrimOptions = {}): MallocTrimmer {
  const lib = openLibcSymbols(LIBC_SYMBOLS);
  if (typeof lib === "string") {
    return { available: false, why: lib, trims: 0, stop: () => {} };
  }
  const everyMs = positive(opts.everyMs, TRIM_EVERY_MS);
  const maxPauseMs = Math.max(everyMs, positive(opts.maxPauseMs, MAX_PAUSE_MS));
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  let stopped = false;
  let trims = 0;
  const schedule = (ms: number) => {
    const next = setTimeout(trim, ms);
    // Never what keeps a process alive.
    Deno.unrefTimer(next);
    timer = next;
  };
  const finish = () => {
    running = false;
    // Closed only once no call runs on the pool.
    if (stopped) lib.close();
  };
  const trim = () => {
    timer = undefined;
    running = true;
    const t0 = performance.now();
    const done = (released: number) => {
      const ms = performance.now() - t0;
      trims++;
      try {
        opts.onTrim?.(ms, released !== 0);
      } finally {
        if (!stopped) schedule(Math.min(maxPauseMs, Math.max(everyMs, ms * PAUSE_FACTOR)));
        finish();
      }
    };
    lib.symbols.malloc_trim(0n).then(done, () => done(0)).catch(() => {
      // Only onTrim can throw here; trimming goes on.
    });
  };
  schedule(everyMs);
  return {
    available: true,
    get trims() {
      return trims;
    },
    stop() {
      if (stopped) return;
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      if (!running) lib.close();
    },
  };
}
