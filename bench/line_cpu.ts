/**
 * A server's CPU a line, at nanosecond resolution, for paired comparisons (docs/bench.md, "A paired
 * per-line CPU measure"). One line of the kind measured and one plain line are sent next to each
 * other, a pair at a time, and the server's CPU is read around every line, so a slow drift in what
 * a line costs (neighbours on the host, the clock rate, the server's own state) falls on both lines
 * of a pair and cancels in their difference; the figure is the mean of those differences (with
 * the median and other robust figures beside it: `spreadIn`).
 *
 * The CPU is read from the kernel's clock of each of the server's processes
 * (`clock_gettime(MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED))`: the runtime each thread's
 * `schedstat` shows, summed over the process by the kernel with its ended threads' too), so a
 * thread pool's worker exiting between two readings does not take its time out of the sum.
 */

/** A process as /proc/<pid>/stat describes it. */
export interface ProcEntry {
  pid: number;
  ppid: number;
  pgrp: number;
}

/** Parses /proc/<pid>/stat's text (the name may hold spaces and parentheses); null for a zombie. */
export function parseStat(pid: number, text: string): ProcEntry | null {
  const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
  if (f.length < 3 || f[0] === "Z" || f[0] === "X") return null;
  return { pid, ppid: Number(f[1]), pgrp: Number(f[2]) };
}

/** Every live process on the machine. */
export function readProcs(): ProcEntry[] {
  const out: ProcEntry[] = [];
  for (const e of Deno.readDirSync("/proc")) {
    const pid = Number(e.name);
    if (!Number.isInteger(pid)) continue;
    try {
      const p = parseStat(pid, Deno.readTextFileSync(`/proc/${pid}/stat`));
      if (p) out.push(p);
    } catch { /* ended meanwhile */ }
  }
  return out;
}

/**
 * The server's processes among `procs`: `root`, the members of its process group if it leads one,
 * and their descendants (the engine's supervisor, sidecar and engine; netmux and its helper).
 */
export function serverPids(root: number, procs: readonly ProcEntry[]): number[] {
  const byPid = new Map(procs.map((p) => [p.pid, p]));
  if (!byPid.has(root)) return [];
  const set = new Set<number>([root]);
  for (const p of procs) if (p.pgrp === root) set.add(p.pid);
  // Descendants: a process joins when its parent is in; the table is finite, so passes end.
  for (let grew = true, pass = 0; grew && pass < procs.length; pass++) {
    grew = false;
    for (const p of procs) {
      if (!set.has(p.pid) && set.has(p.ppid)) {
        set.add(p.pid);
        grew = true;
      }
    }
  }
  return [...set].sort((a, b) => a - b);
}

/** The kernel's clock id for the CPU time of process `pid` (all its threads, ended ones too). */
export function processClockId(pid: number): number {
  // MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED): (~pid << 3) | 2, in the 32 bits of a clockid_t.
  return (~pid << 3) | 2;
}

/** A reading: CPU nanoseconds of each process read. */
export type CpuReading = Map<number, number>;

/** CPU nanoseconds spent between two readings, over the processes both hold. */
export function cpuDelta(a: CpuReading, b: CpuReading): number {
  let sum = 0;
  for (const [pid, ns] of b) {
    const before = a.get(pid);
    if (before !== undefined) sum += ns - before;
  }
  return sum;
}

/** Reads a server's CPU through libc's `clock_gettime` (Linux only). */
export class ServerCpu {
  readonly #lib: Deno.DynamicLibrary<{
    clock_gettime: { parameters: ["i32", "buffer"]; result: "i32" };
  }>;
  readonly #ts = new BigInt64Array(2);
  #pids: number[] = [];

  /** Opens libc and finds the processes of the server whose first process is `root`. */
  constructor(readonly root: number) {
    this.#lib = Deno.dlopen("libc.so.6", {
      clock_gettime: { parameters: ["i32", "buffer"], result: "i32" },
    });
    this.refresh();
    if (this.#pids.length === 0) throw new Error(`no process ${root}`);
  }

  /** The processes summed. */
  get pids(): readonly number[] {
    return this.#pids;
  }

  /** Finds the server's processes again (between measurements: a helper may have started). */
  refresh(): void {
    this.#pids = serverPids(this.root, readProcs());
  }

  /** Each process's CPU nanoseconds now; a process that has ended is left out. */
  read(): CpuReading {
    const out: CpuReading = new Map();
    for (const pid of this.#pids) {
      if (this.#lib.symbols.clock_gettime(processClockId(pid), this.#ts) !== 0) continue;
      out.set(pid, Number(this.#ts[0]) * 1e9 + Number(this.#ts[1]));
    }
    return out;
  }

  /** Closes libc. */
  close(): void {
    this.#lib.close();
  }
}

/**
 * Sends line `i` (of `kind` 0, the plain line, or 1, the line measured) and resolves once the
 * server has answered it.
 */
export type LineRunner = (i: number, kind: 0 | 1) => Promise<void>;

/** How many pairs, and the pace. */
export interface PairOptions {
  /** Pairs measured. */
  pairs: number;
  /** Pairs run first and not counted (caches, the JIT). */
  warmup: number;
  /** Pause after each line's answer before the next line, as the shared driver's `--rtt-gap-ms`. */
  gapMs: number;
  /**
   * Lines of one kind sent one after the other as one side of a pair (default 1): the longer
   * window keeps inside it work the server puts off past a line's answer (a collector's
   * concurrent marking, a deferred task), which otherwise spills into both kinds alike and is
   * lost from the difference.
   */
  block?: number;
}

/** What a run of pairs measured, per pair and line (nanoseconds and milliseconds). */
export interface PairSamples {
  /**
   * Server CPU of the measured side less the plain side's, a line, each side's window running
   * from just before its first line is sent to just before the next side's is (so work the
   * server does after answering, and anything in the pauses, is counted).
   */
  diffNs: number[];
  /** The same with each side's window closed when its last answer arrives. */
  replyDiffNs: number[];
  /** Each pair's plain side's CPU a line (full window). */
  plainNs: number[];
  /** Mean round-trip times of the plain and the measured lines of each pair. */
  plainMs: number[];
  testMs: number[];
}

/**
 * Runs `warmup + pairs` pairs; a pair is a side of plain lines and a side of measured lines
 * (`block` lines each), in turns one side first then the other (so a side's effect on the next
 * falls on both kinds alike).
 */
export async function runPairs(
  cpu: ServerCpu,
  o: PairOptions,
  line: LineRunner,
): Promise<PairSamples> {
  const out: PairSamples = { diffNs: [], replyDiffNs: [], plainNs: [], plainMs: [], testMs: [] };
  const block = Math.max(1, Math.floor(o.block ?? 1));
  const full = [0, 0], reply = [0, 0], ms = [0, 0];
  const pause = () => o.gapMs > 0 ? new Promise((r) => setTimeout(r, o.gapMs)) : null;
  let i = 0;
  let before = cpu.read();
  for (let k = 0; k < o.warmup + o.pairs; k++) {
    for (const kind of (k % 2 ? [1, 0] : [0, 1]) as (0 | 1)[]) {
      let answered = before, rtt = 0;
      for (let b = 0; b < block; b++) {
        const t0 = performance.now();
        await line(i++, kind);
        rtt += performance.now() - t0;
        if (b === block - 1) answered = cpu.read();
        await pause();
      }
      const next = cpu.read();
      full[kind] = cpuDelta(before, next) / block;
      reply[kind] = cpuDelta(before, answered) / block;
      ms[kind] = rtt / block;
      before = next;
    }
    if (k < o.warmup) continue;
    out.diffNs.push(full[1] - full[0]);
    out.replyDiffNs.push(reply[1] - reply[0]);
    out.plainNs.push(full[0]);
    out.plainMs.push(ms[0]);
    out.testMs.push(ms[1]);
  }
  return out;
}

/** A sample's centre and spread. */
export interface Spread {
  n: number;
  /** The mean: what a total over the lines, divided by their number, gives. */
  mean: number;
  /** Its standard error (the sample's standard deviation ÷ √n). */
  sem: number;
  median: number;
  /** Mean of the middle 80 % (10 % cut from each end). */
  trimmedMean: number;
  /** Quartiles. */
  q1: number;
  q3: number;
  /** A 95 % interval of the median from the order statistics (no distribution assumed). */
  lo: number;
  hi: number;
}

/** The value at quantile `q` of sorted `s` (linear between neighbours). */
function quantile(s: readonly number[], q: number): number {
  const at = (s.length - 1) * q;
  const i = Math.floor(at);
  return i + 1 < s.length ? s[i] + (s[i + 1] - s[i]) * (at - i) : s[i];
}

/** Median, 10 %-trimmed mean, quartiles and the median's 95 % interval of `xs` (not empty). */
export function spread(xs: readonly number[]): Spread {
  if (xs.length === 0) throw new Error("spread of no samples");
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  const cut = Math.floor(n * 0.1);
  const mid = s.slice(cut, n - cut);
  // Ranks n/2 ± 0.98·√n bracket the median with about 95 % confidence for any distribution.
  const h = 0.98 * Math.sqrt(n);
  const mean = s.reduce((a, x) => a + x, 0) / n;
  const sd = Math.sqrt(s.reduce((a, x) => a + (x - mean) ** 2, 0) / Math.max(1, n - 1));
  return {
    n,
    mean,
    sem: sd / Math.sqrt(n),
    median: quantile(s, 0.5),
    trimmedMean: mid.reduce((a, x) => a + x, 0) / mid.length,
    q1: quantile(s, 0.25),
    q3: quantile(s, 0.75),
    lo: s[Math.max(0, Math.floor(n / 2 - h))],
    hi: s[Math.min(n - 1, Math.ceil(n / 2 + h) - 1)],
  };
}

/** `spread` with every figure divided by `div` and rounded to 0.1 (ns to µs: 1000). */
export function spreadIn(xs: readonly number[], div: number): Spread {
  const s = spread(xs);
  const r = (x: number) => Math.round(x / div * 10) / 10;
  return {
    n: s.n,
    mean: r(s.mean),
    sem: r(s.sem),
    median: r(s.median),
    trimmedMean: r(s.trimmedMean),
    q1: r(s.q1),
    q3: r(s.q3),
    lo: r(s.lo),
    hi: r(s.hi),
  };
}
