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
 *
 * Two servers are compared by interleaving (`runInterleaved`; docs/bench.md, "An interleaved
 * per-line CPU measure"): both up and warm at once, short blocks of pairs alternating between them,
 * the figure taken over matched blocks (bench/blocks.ts), so a period when the machine runs slow
 * falls on both servers' blocks alike.
 */
import {
  type BlockComparison,
  type BlockPair,
  compareBlocks,
  type Interval,
  pairsFor,
} from "./blocks.ts";

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
  sideLines?: number;
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
 * (`sideLines` lines each), in turns one side first then the other (so a side's effect on the next
 * falls on both kinds alike).
 */
export async function runPairs(
  cpu: ServerCpu,
  o: PairOptions,
  line: LineRunner,
): Promise<PairSamples> {
  const out: PairSamples = { diffNs: [], replyDiffNs: [], plainNs: [], plainMs: [], testMs: [] };
  const side = Math.max(1, Math.floor(o.sideLines ?? 1));
  const full = [0, 0], reply = [0, 0], ms = [0, 0];
  const pause = () => o.gapMs > 0 ? new Promise((r) => setTimeout(r, o.gapMs)) : null;
  let i = 0;
  let before = cpu.read();
  for (let k = 0; k < o.warmup + o.pairs; k++) {
    for (const kind of (k % 2 ? [1, 0] : [0, 1]) as (0 | 1)[]) {
      let answered = before, rtt = 0;
      for (let b = 0; b < side; b++) {
        const t0 = performance.now();
        await line(i++, kind);
        rtt += performance.now() - t0;
        if (b === side - 1) answered = cpu.read();
        await pause();
      }
      const next = cpu.read();
      full[kind] = cpuDelta(before, next) / side;
      reply[kind] = cpuDelta(before, answered) / side;
      ms[kind] = rtt / side;
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

/**
 * One server of an interleaved sitting: its CPU clock and how it sends line `i` of kind `kind`
 * (0 plain, 1 measured) for case `c`, resolving once the server has answered it.
 */
export interface InterleavedServer {
  cpu: ServerCpu;
  line: (c: number, i: number, kind: 0 | 1) => Promise<void>;
}

/** How an interleaved sitting runs (docs/bench.md, "An interleaved per-line CPU measure"). */
export interface InterleaveOptions {
  /** Cases (indexes 0..cases-1 of `InterleavedServer.line`). */
  cases: number;
  /** Rounds: each gives every case one block on each server (a block pair). */
  rounds: number;
  /** Pairs a block counts. */
  blockPairs: number;
  /** Pairs of each case on each server before the first round, not counted (the JIT, caches). */
  warmup: number;
  /** Pause after each line's answer (as `PairOptions.gapMs`). */
  gapMs: number;
  /** Lines a side of a pair (`PairOptions.sideLines`). */
  sideLines?: number;
}

/** One block: a short run of pairs of one case on one server. */
export interface BlockSamples {
  /** Seconds since the sitting's first counted block began. */
  at: number;
  /** Each pair's measured − plain CPU a line, ns (the full window, as `PairSamples.diffNs`). */
  diffNs: number[];
  /** Each pair's plain line's CPU, ns. */
  plainNs: number[];
}

/**
 * Runs an interleaved sitting on two servers: the warm-up (every case on each server, in turns),
 * then `rounds` rounds, each a block of every case on one server and the next, so the two blocks
 * of a pair fall seconds apart in the same period of the machine. The servers' order turns from
 * one case to the next and, for each case, from one round to the next (ABBA within a case): with
 * an even number of cases, turning at every block pair alone gave each case one order in every
 * round, one server's block always right after the other server's and the other's never.
 * Each block starts with one uncounted pair (the switch from the other server). `onBlock` sees
 * every block as it ends; the result is indexed [case][round][server].
 */
export async function runInterleaved(
  servers: readonly [InterleavedServer, InterleavedServer],
  o: InterleaveOptions,
  onBlock?: (c: number, round: number, server: number, b: BlockSamples) => void,
): Promise<BlockSamples[][][]> {
  const cases = Math.max(1, Math.floor(o.cases));
  const rounds = Math.max(1, Math.floor(o.rounds));
  const pairs = Math.max(1, Math.floor(o.blockPairs));
  const counters = servers.map(() => 0);
  const run = async (s: number, c: number, po: PairOptions) => {
    servers[s].cpu.refresh();
    return await runPairs(
      servers[s].cpu,
      po,
      (_i, kind) => servers[s].line(c, counters[s]++, kind),
    );
  };
  const base = { gapMs: o.gapMs, sideLines: o.sideLines };
  if (o.warmup > 0) {
    for (let c = 0; c < cases; c++) {
      for (const s of [0, 1]) await run(s, c, { ...base, pairs: o.warmup, warmup: 0 });
    }
  }
  const out: BlockSamples[][][] = Array.from({ length: cases }, () => []);
  const t0 = performance.now();
  for (let r = 0; r < rounds; r++) {
    for (let c = 0; c < cases; c++) {
      const pair: BlockSamples[] = [];
      for (const s of (r + c) % 2 ? [1, 0] : [0, 1]) {
        const at = (performance.now() - t0) / 1000;
        const p = await run(s, c, { ...base, pairs, warmup: 1 });
        pair[s] = { at, diffNs: p.diffNs, plainNs: p.plainNs };
        onBlock?.(c, r, s, pair[s]);
      }
      out[c].push(pair);
    }
  }
  return out;
}

/** A case's block pairs in µs, server 0 as side `a` (bench/blocks.ts). */
export function blockPairsUs(blocks: readonly BlockSamples[][]): BlockPair[] {
  return blocks.map((p) => ({
    a: p[0].diffNs.map((x) => x / 1000),
    b: p[1].diffNs.map((x) => x / 1000),
  }));
}

/** A block's figures for a report: its start, its mean difference and its plain line, µs. */
export function blockLine(b: BlockSamples): { at: number; meanUs: number; plainUs: number } {
  const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / Math.max(1, xs.length) / 1000;
  const r = (x: number) => Math.round(x * 10) / 10;
  return { at: r(b.at), meanUs: r(mean(b.diffNs)), plainUs: r(mean(b.plainNs)) };
}

/** One case of an interleaved sitting, summed up: the comparison and every block. */
export interface InterleavedCase {
  name: string;
  /** Server 0 as side `a`, µs (bench/blocks.ts). */
  comparison: BlockComparison;
  /** Block pairs a ±0.1 interval of the ratio would need, from this one's width. */
  pairsForTenth: number;
  /** Each block pair: both blocks' start, mean difference and plain line (µs). */
  blocks: { round: number; a: ReturnType<typeof blockLine>; b: ReturnType<typeof blockLine> }[];
}

/** Each case's comparison and blocks from a sitting (`runInterleaved`'s result). */
export function interleavedCases(
  names: readonly string[],
  blocks: readonly BlockSamples[][][],
): InterleavedCase[] {
  return names.map((name, c) => {
    const comparison = roundComparison(compareBlocks(blockPairsUs(blocks[c])));
    return {
      name,
      comparison,
      pairsForTenth: pairsFor(comparison.ratio, comparison.pairs, 0.1),
      blocks: blocks[c].map((p, round) => ({ round, a: blockLine(p[0]), b: blockLine(p[1]) })),
    };
  });
}

/** µs to 0.1 and ratios to 0.01. */
function roundComparison(c: BlockComparison): BlockComparison {
  const us = (x: number) => Math.round(x * 10) / 10;
  const ra = (x: number) => Math.round(x * 100) / 100;
  const iv = (i: Interval, f: (x: number) => number) => ({
    value: f(i.value),
    lo: f(i.lo),
    hi: f(i.hi),
  });
  return {
    pairs: c.pairs,
    a: iv(c.a, us),
    b: iv(c.b, us),
    ratio: iv(c.ratio, ra),
    medianRatio: ra(c.medianRatio),
    diff: iv(c.diff, us),
  };
}

/** The sitting's figures as table rows (bench/stats.ts `table`), servers named `a` and `b`. */
export function interleavedRows(
  cases: readonly InterleavedCase[],
  a: string,
  b: string,
): string[][] {
  const iv = (i: Interval) => `${i.value} [${i.lo}, ${i.hi}]`;
  return [
    [
      "case",
      `${a} µs [95 %]`,
      `${b} µs [95 %]`,
      `${a} ÷ ${b} [95 %]`,
      "median of pair ratios",
      "block pairs",
      "pairs for ±0.1",
    ],
    ...cases.map((c) => [
      c.name,
      iv(c.comparison.a),
      iv(c.comparison.b),
      iv(c.comparison.ratio),
      String(c.comparison.medianRatio),
      String(c.comparison.pairs),
      String(c.pairsForTenth),
    ]),
  ];
}

/** Every block as table rows, in the order they ran: the periods show in the plain line's µs. */
export function blockRows(cases: readonly InterleavedCase[], a: string, b: string): string[][] {
  const rows = cases.flatMap((c) =>
    c.blocks.map((p) => ({ c: c.name, round: p.round, x: p.a, y: p.b }))
  ).sort((p, q) => Math.min(p.x.at, p.y.at) - Math.min(q.x.at, q.y.at));
  return [
    ["s", "round", "case", `${a} µs`, `${b} µs`, `${a} plain µs`, `${b} plain µs`, "ratio"],
    ...rows.map((p) => [
      String(Math.min(p.x.at, p.y.at)),
      String(p.round + 1),
      p.c,
      String(p.x.meanUs),
      String(p.y.meanUs),
      String(p.x.plainUs),
      String(p.y.plainUs),
      p.y.meanUs ? String(Math.round(p.x.meanUs / p.y.meanUs * 100) / 100) : "-",
    ]),
  ];
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
