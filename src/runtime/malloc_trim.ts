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
 *
 * A trim runs only when the process took at least `minNewPages` page faults since the last one
 * (or a minute has passed): a page only becomes resident through a fault, so with fewer there is
 * little new to give back. glibc does not remember what it gave back, and a trim advises away
 * every free page again, one system call each (about 200 in an idle engine, every time); an idle
 * or lightly used process now skips that, and the looks back off (doubling up to the minute) until
 * something comes. Memory freed without new faults since (players leaving after a trim that ran
 * while they were on) waits for the minute's trim.
 */

import { openLibcSymbols } from "./libc.ts";

/** How often a trim runs at most. */
export const TRIM_EVERY_MS = 2_000;

/** A trim's share of a thread at most: the next one waits this many times its duration. */
const PAUSE_FACTOR = 100;

/** The longest wait between trims, however long the last one seemed to take. */
export const MAX_PAUSE_MS = 60_000;

/** Page faults since the last trim that make the next look trim (1 MiB of 4 KiB pages). */
export const MIN_NEW_PAGES = 256;

/** Settings for {@linkcode startMallocTrim}. */
export interface MallocTrimOptions {
  /** Least time between trims (default {@linkcode TRIM_EVERY_MS}). */
  everyMs?: number;
  /** Longest time between trims (default {@linkcode MAX_PAUSE_MS}). */
  maxPauseMs?: number;
  /** Page faults since the last trim that make a look trim (default {@linkcode MIN_NEW_PAGES}). */
  minNewPages?: number;
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
  /** Looks that found too little new to trim. */
  readonly skipped: number;
  /** Stops trimming; a trim under way finishes. */
  stop(): void;
}

const LIBC_SYMBOLS = {
  malloc_trim: { parameters: ["usize"], result: "i32", nonblocking: true },
  getrusage: { parameters: ["i32", "buffer"], result: "i32" },
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
    return { available: false, why: lib, trims: 0, skipped: 0, stop: () => {} };
  }
  const everyMs = positive(opts.everyMs, TRIM_EVERY_MS);
  const maxPauseMs = Math.max(everyMs, positive(opts.maxPauseMs, MAX_PAUSE_MS));
  const minNewPages = positive(opts.minNewPages, MIN_NEW_PAGES);
  // struct rusage on 64-bit Linux: two timevals, then longs; ru_minflt is the fifth long.
  const usage = new BigInt64Array(18);
  const faults = (): number => {
    if (lib.symbols.getrusage(0, /* RUSAGE_SELF */ usage) !== 0) return Infinity;
    return Number(usage[8]);
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  let stopped = false;
  let trims = 0;
  let skipped = 0;
  // Unknown at first, so the first look trims.
  let faultsAtTrim = -Infinity;
  let lastTrimAt = -Infinity;
  let wait = everyMs;
  const schedule = (ms: number) => {
    wait = ms;
    const next = setTimeout(look, ms);
    // Never what keeps a process alive.
    Deno.unrefTimer(next);
    timer = next;
  };
  const finish = () => {
    running = false;
    // Closed only once no call runs on the pool.
    if (stopped) lib.close();
  };
  const look = () => {
    timer = undefined;
    const now = faults();
    if (now - faultsAtTrim < minNewPages && performance.now() - lastTrimAt < maxPauseMs) {
      skipped++;
      schedule(Math.min(maxPauseMs, wait * 2));
      return;
    }
    trim(now);
  };
  const trim = (faultsNow: number) => {
    running = true;
    faultsAtTrim = faultsNow;
    const t0 = lastTrimAt = performance.now();
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
    get skipped() {
      return skipped;
    },
    stop() {
      if (stopped) return;
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      if (!running) lib.close();
    },
  };
}
