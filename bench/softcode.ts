/**
 * Softcode against TinyMUX 2.12 (docs/bench.md, issue 36): the shared telnet driver
 * (`../shared/bench/telnet_bench.ts`) times `think {text}[null(<expression>)]` round trips with
 * the server's CPU read from /proc (`--pid`), and the figure per expression is
 *
 *   (server CPU with the expression − server CPU of a plain `think {text}`) ÷ iterations,
 *
 * on each server, the engine (supervisor, sidecar and engine) and TinyMUX 2.12 side by side:
 * both pinned to one CPU, the driver to another, each expression run on one then the other,
 * `runs` times, medians reported. The expressions read their data from a VISUAL object both
 * servers are given the same way (a 1,000-word list, 1,000 numbers, a 4,000-character text, a
 * u() chain 20 deep); before timing, each expression's result is compared between the servers.
 * TinyMUX 2.12 has no regedit(), so the regular-expression case is regraball() over the text.
 *
 * `methods: ["pairs"]` measures the same figure another way (bench/line_cpu.ts; docs/bench.md, "A
 * paired per-line CPU measure"): 41 players stay connected to each server and send, a round trip
 * at a time with the driver's 5 ms pause, a plain `think {text}` and the expression's line next to
 * each other, the server's CPU read around every line; an expression's figure in a run is the mean
 * of the pairs' differences (the median over the runs is reported). A first case pairs two plain
 * lines, which must come out near 0.
 */
import { join } from "node:path";
import { ROOT, startServer, type TestServer, waitHealthy } from "../tests/harness.ts";
import { LeanTelnet } from "./telnet_client.ts";
import { table } from "./stats.ts";
import {
  blockRows,
  type InterleavedCase,
  interleavedCases,
  interleavedRows,
  type PairSamples,
  runInterleaved,
  runPairs,
  ServerCpu,
  type Spread,
  spreadIn,
} from "./line_cpu.ts";

/** One expression timed. */
export interface SoftcodeExpr {
  name: string;
  /** The expression, with `LIB` standing for the library object's dbref. */
  expr: string;
}

/**
 * The six: arithmetic, iter(), string building, u() 20 deep, sort, a regular expression;
 * and the arithmetic chain on a register, whose calls are not all constant (a constant one's
 * result is kept parsed: docs/softcode.md, "Evaluation").
 */
export const SOFTCODE_EXPRS: readonly SoftcodeExpr[] = [
  {
    name: "arithmetic chain",
    expr: "add(mul(3,sub(100,div(999,7))),fdiv(power(2,10),3),mod(12345,97),abs(sub(5,50)),round(" +
      "fdiv(22,7),4),max(1,2,3),min(4,5,6),trunc(fdiv(1000,3)),inc(dec(7)),mul(1.5,2.5,3.5))",
  },
  {
    name: "the chain on a register (%q0)",
    expr: "[setq(0,3)][add(mul(%q0,sub(100,div(999,7))),fdiv(power(2,10),%q0),mod(12345,add(%q0," +
      "94)),abs(sub(5,mul(%q0,50))),round(fdiv(22,add(%q0,4)),4),max(1,2,%q0),min(4,5,%q0)," +
      "trunc(fdiv(1000,%q0)),inc(dec(%q0)),mul(1.5,2.5,%q0))]",
  },
  { name: "iter() over 1,000 words", expr: "iter(get(LIB/WORDS),strlen(##))" },
  {
    name: "string building (ljust, columns)",
    expr: "iter(extract(get(LIB/WORDS),1,100),ljust(##,12,.)[rjust(#@,4)])" +
      "[columns(extract(get(LIB/WORDS),1,200),12)]",
  },
  { name: "u() chain 20 deep", expr: "u(LIB/U0,1)" },
  { name: "sort of 1,000 items", expr: "sort(get(LIB/NUMS))" },
  // TinyMUX 2.12 has no regedit(): regraball() runs a pattern over the same 4,000 characters.
  {
    name: "regular expression over 4,000 characters",
    expr: "regraball(get(LIB/TEXT),^(ka|lo|mi).*(an|el|o)$)",
  },
];

/** Words, numbers and text made the same way each time (a small linear congruential stream). */
export function library(): { words: string; nums: string; text: string } {
  let seed = 12345;
  // 32-bit arithmetic, the high bits taken (the low bits of such a stream repeat quickly).
  const next = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) >>> 8;
  const syl = ["ka", "lo", "mi", "ne", "ru", "ta", "so", "vi", "de", "po", "an", "el"];
  const word = () => {
    let w = "";
    for (let i = 0, n = 1 + (next() % 4); i < n; i++) w += syl[next() % syl.length];
    return w;
  };
  const words = Array.from({ length: 1000 }, word).join(" ");
  const nums = Array.from({ length: 1000 }, () => String(next() % 100000)).join(" ");
  let text = "";
  while (text.length < 4000) text += word() + (next() % 9 ? " " : ". ");
  return { words, nums, text: text.slice(0, 4000).trim() };
}

/** A logged-in setup connection that runs commands and reads answers between markers. */
class Shell {
  #n = 0;
  private constructor(readonly t: LeanTelnet) {}

  /** Creates (or connects) the player `name` and waits for the login. */
  static async login(port: number, name: string, password: string): Promise<Shell> {
    const t = await LeanTelnet.connect(port);
    await t.until("connect", 30_000);
    const sh = new Shell(t);
    await t.send(`create ${name} ${password}`);
    // A name taken already is connected to instead.
    const ok = await sh.mark(5_000).catch(() => null);
    if (ok === null) {
      await t.send(`connect ${name} ${password}`);
      await sh.mark(30_000);
    }
    return sh;
  }

  /** Waits until the server has run everything sent so far. */
  async mark(ms = 30_000): Promise<void> {
    const m = `sync-${++this.#n}-${crypto.randomUUID().slice(0, 8)}`;
    await this.t.roundTrip(`think ${m}`, m, ms);
  }

  /** Runs a command and waits for it. */
  async run(line: string): Promise<void> {
    await this.t.send(line);
    await this.mark();
  }

  /** What `think <expr>` shows (one line, markers around it). */
  async think(expr: string): Promise<string> {
    const id = `${++this.#n}-${crypto.randomUUID().slice(0, 8)}`;
    let text = "";
    const prev = this.t.sink;
    this.t.sink = (chunk) => {
      text += chunk;
    };
    try {
      await this.t.roundTrip(`think <<${id}[${expr}]>>${id}`, `>>${id}`);
    } finally {
      this.t.sink = prev;
    }
    const a = text.indexOf(`<<${id}`);
    const b = text.indexOf(`>>${id}`);
    return a >= 0 && b > a ? text.slice(a + id.length + 2, b) : text;
  }

  close(): Promise<void> {
    return this.t.close();
  }
}

/** Builds the library object on a server; its dbref (`#12`) (bench/softcode_profile.ts too). */
export async function setUp(port: number, log: (l: string) => void): Promise<string> {
  const sh = await Shell.login(port, "SoftLibOwner", "benchpw1");
  try {
    await sh.run("@create SoftLib");
    await sh.run("@set SoftLib=VISUAL");
    const lib = (await sh.think("num(SoftLib)")).trim();
    if (!/^#\d+$/.test(lib)) throw new Error(`the library object was not made: ${lib}`);
    const { words, nums, text } = library();
    await sh.run(`&WORDS ${lib}=${words}`);
    await sh.run(`&NUMS ${lib}=${nums}`);
    await sh.run(`&TEXT ${lib}=${text}`);
    for (let i = 0; i < 19; i++) await sh.run(`&U${i} ${lib}=[u(${lib}/U${i + 1},%0)]`);
    await sh.run(`&U19 ${lib}=[add(%0,1)]`);
    // Readable by the driver's players: the object VISUAL (MUX's rule) and each attribute
    // visual (the engine's; it reads attributes by their own flag).
    for (const a of ["WORDS", "NUMS", "TEXT", ...Array.from({ length: 20 }, (_, i) => `U${i}`)]) {
      await sh.run(`@set ${lib}/${a}=visual`);
    }
    log(`softcode: library ${lib} set up on port ${port}`);
    return lib;
  } finally {
    await sh.close();
  }
}

/** Each expression's sha1 and length, as a player other than the owner sees it. */
async function fingerprints(port: number, lib: string): Promise<string[]> {
  const sh = await Shell.login(port, "SoftLibReader", "benchpw1");
  try {
    const out: string[] = [];
    for (const e of SOFTCODE_EXPRS) {
      const x = e.expr.replaceAll("LIB", lib);
      out.push(await sh.think(`strlen(${x}) [sha1(${x})] [left(${x},40)]`));
    }
    return out;
  } finally {
    await sh.close();
  }
}

/** How the shared driver is run: where it is, on which CPUs, and how many round trips. */
export interface DriverRun {
  driver: string;
  /** taskset list for the driver, or "" to leave it where it is. */
  driverCpus: string;
  iters: number;
}

/** One driver pass's figures: server CPU (s) and the round trips' median (ms). */
export interface DriverPass {
  serverCpuS: number;
  p50Ms: number;
}

/**
 * One driver run (the method): `iters` paced round trips of `echo` over 40 players, the
 * server's CPU over them (`--pid`) and their median round trip.
 */
export async function driverPass(
  o: DriverRun,
  port: number,
  pid: number,
  echo: string,
): Promise<DriverPass> {
  const json = await Deno.makeTempFile({ prefix: "ursamu-bench-softcode-", suffix: ".json" });
  try {
    const args = [
      "run",
      "-A",
      o.driver,
      "--port",
      String(port),
      "--pid",
      String(pid),
      "--scenario",
      "rtt",
      "--conns",
      "0",
      "--iters",
      String(o.iters),
      "--warmup",
      "50",
      "--rtt-speakers",
      "40",
      "--rtt-gap-ms",
      "5",
      "--concurrency",
      "10",
      "--prefix",
      "sbench",
      "--timeout",
      "900",
      "--echo-cmd",
      echo,
      "--json",
      json,
    ];
    const cmd = o.driverCpus
      ? new Deno.Command("taskset", { args: ["-c", o.driverCpus, Deno.execPath(), ...args] })
      : new Deno.Command(Deno.execPath(), { args });
    const r = await cmd.output();
    if (!r.success) throw new Error(`driver failed: ${new TextDecoder().decode(r.stderr)}`);
    const data = JSON.parse(await Deno.readTextFile(json));
    const pass = data.results?.[0]?.passes?.[0] ?? data.runs?.[0]?.results?.[0]?.passes?.[0];
    if (!pass || pass.error || typeof pass.cpu?.server_cpu_s !== "number") {
      throw new Error(`driver pass failed: ${JSON.stringify(pass ?? data).slice(0, 400)}`);
    }
    return { serverCpuS: pass.cpu.server_cpu_s, p50Ms: pass.p50 };
  } finally {
    await Deno.remove(json).catch(() => {});
  }
}

/** Options of the softcode benchmark. */
export interface SoftcodeBenchOptions extends DriverRun {
  /** Round trips (or pairs) per expression and server in each run. */
  iters: number;
  /** Runs (alternating the servers); medians are reported. */
  runs: number;
  /** TinyMUX 2.12's control script (../shared/bench/tinymux.sh), or null: the engine alone. */
  tinymux: string | null;
  /** CPUs the servers run on (taskset list). */
  serverCpus: string;
  /** Only the expressions whose names contain one of these (lower-case); all when empty. */
  only?: string[];
  /**
   * `driver` (the default): the shared driver's CPU over `iters` round trips, less a plain
   * think's run; `pairs`: `iters` pairs of lines, the server's CPU read around each line. Both
   * run one after the other on the same servers.
   */
  methods?: SoftcodeMethod[];
  /** Lines a side of a pair (bench/line_cpu.ts, `PairOptions.sideLines`); 1 when absent. */
  sideLines?: number;
  /** `interleaved`: rounds (block pairs a case), pairs a block, and warm-up pairs a case. */
  blocks?: number;
  blockPairs?: number;
  warmup?: number;
  /** `interleaved` against the engine itself in the second slot (the check: ratios of 1.0). */
  selfCheck?: boolean;
}

/**
 * The ways the softcode benchmark measures (see {@linkcode SoftcodeBenchOptions.methods}):
 * `interleaved` is the pairs in short blocks alternating between the servers, both up at once
 * (bench/line_cpu.ts `runInterleaved`).
 */
export type SoftcodeMethod = "driver" | "pairs" | "interleaved";

/** One run of pairs on one server: the differences' spread, µs, and the lines' times. */
export interface PairRun {
  /** Measured line less plain line, each line's window up to the next line's send. */
  full: Spread;
  /** The same with each window closed at the answer. */
  reply: Spread;
  /** Median CPU of the plain line, µs. */
  plainUs: number;
  /** Median round trips, ms, of the plain and the measured lines. */
  plainMs: number;
  testMs: number;
  /** Every pair's difference, µs (the full window). */
  diffsUs: number[];
}

/** One server's figures: µs of server CPU an expression costs beyond a plain think. */
export interface SoftcodeServerRow {
  /** Median µs per round trip, per expression. */
  us: Record<string, number>;
  /** Every run's µs, per expression. */
  samples: Record<string, number[]>;
  /** Median server CPU of the plain think, µs per round trip. */
  baseUs: number;
  /** Measured by pairs: each run's figures per expression (`samples` holds their means). */
  pairs?: Record<string, PairRun[]>;
}

/** What the softcode benchmark measured. */
export interface SoftcodeBenchResult {
  method: SoftcodeMethod;
  iters: number;
  runs: number;
  engine: SoftcodeServerRow;
  tinymux: SoftcodeServerRow | null;
  /** engine ÷ TinyMUX per expression (below 1: the engine is faster). */
  ratio: Record<string, number> | null;
  /** The results the servers gave, compared before timing. */
  sameResults: boolean | null;
  /** By `interleaved`: each case's comparison over matched blocks, and every block. */
  interleaved?: InterleavedCase[];
  /** The second slot's name when it is not TinyMUX (the engine itself: the check). */
  second?: string;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** A server under test. */
interface Target {
  name: string;
  port: number;
  pid: number;
  lib: string;
  stop(): Promise<void>;
}

async function startEngine(o: SoftcodeBenchOptions, log: (l: string) => void): Promise<Target> {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-bench-softcode-" });
  const srv: TestServer = await startServer({
    dir,
    entry: "src/supervisor/main.ts",
    config: {
      server: { maxConnections: 0, maxConnectionsPerIp: 0 },
      game: { idleTimeout: 0, registrationsPerHour: 0 },
    },
    cpus: o.serverCpus,
  });
  await waitHealthy(srv.base, () => false, () => srv.output());
  await srv.waitFor(/telnet: listening on/);
  const lib = await setUp(srv.telnet, log);
  return { name: "engine", port: srv.telnet, pid: srv.child.pid, lib, stop: () => srv.stop() };
}

async function startTinyMux(o: SoftcodeBenchOptions, log: (l: string) => void): Promise<Target> {
  const script = o.tinymux!;
  const dir = await Deno.makeTempDir({ prefix: "ursamu-bench-tinymux-" });
  const env = { TINYMUX_BENCH_DIR: dir, TINYMUX_CPUS: o.serverCpus };
  // The .deb is fetched once into the default directory; copy its unpacked form when present.
  await new Deno.Command("cp", { args: ["-r", "/tmp/tinymux-bench/pkg", dir] }).output();
  const port = 20000 + Math.floor(Math.random() * 20000);
  const r = await new Deno.Command("bash", { args: [script, "start", String(port)], env }).output();
  if (!r.success) throw new Error(`tinymux.sh: ${new TextDecoder().decode(r.stderr)}`);
  const pid = Number(new TextDecoder().decode(r.stdout).trim());
  const stop = async () => {
    await new Deno.Command("bash", { args: [script, "stop"], env }).output();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  };
  try {
    const lib = await setUp(port, log);
    return { name: "TinyMUX 2.12", port, pid, lib, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** Runs the softcode benchmark (see the module comment). */
/** The shared driver's way: each case's CPU over a driver run, less the plain think's run. */
async function measureByDriver(
  o: SoftcodeBenchOptions,
  targets: Target[],
  exprs: readonly SoftcodeExpr[],
  log: (l: string) => void,
): Promise<SoftcodeServerRow[]> {
  const cpu = targets.map(() => new Map<string, number[]>());
  const cases = [{ name: "plain think", expr: "" }, ...exprs];
  for (let run = 1; run <= o.runs; run++) {
    for (const c of cases) {
      // Alternate which server goes first, so drift in the machine's load falls on both.
      const order = run % 2 ? targets : [...targets].reverse();
      for (const t of order) {
        const echo = c.expr
          ? `think {text}[null(${c.expr.replaceAll("LIB", t.lib)})]`
          : "think {text}";
        const s = (await driverPass(o, t.port, t.pid, echo)).serverCpuS;
        const m = cpu[targets.indexOf(t)];
        m.set(c.name, [...(m.get(c.name) ?? []), s]);
        log(
          `softcode: run ${run}: ${t.name}: ${c.name}: ${
            (s * 1e6 / o.iters).toFixed(1)
          } µs a round trip`,
        );
      }
    }
  }
  return cpu.map((m): SoftcodeServerRow => {
    const base = m.get("plain think")!;
    const us: Record<string, number> = {};
    const samples: Record<string, number[]> = {};
    for (const e of exprs) {
      // Each run's expression less the same run's plain think.
      samples[e.name] = m.get(e.name)!.map((s, i) =>
        Math.round((s - base[i]) * 1e6 / o.iters * 10) / 10
      );
      us[e.name] = median(samples[e.name]);
    }
    return { us, samples, baseUs: Math.round(median(base) * 1e6 / o.iters * 10) / 10 };
  });
}

/** The validation case of the paired measure: a plain line against another plain line. */
export const PLAIN_PAIR = "plain against plain";

/** Players each server keeps connected for the paired measure; odd, so each sends both kinds. */
const PAIR_SPEAKERS = 41;

/** One run's figures from its pairs. */
export function pairRun(p: PairSamples): PairRun {
  const r = (x: number) => Math.round(x * 10) / 10;
  const ms = (xs: number[]) => Math.round(median(xs) * 1000) / 1000;
  return {
    full: spreadIn(p.diffNs, 1000),
    reply: spreadIn(p.replyDiffNs, 1000),
    plainUs: Math.round(median(p.plainNs) / 100) / 10,
    plainMs: ms(p.plainMs),
    testMs: ms(p.testMs),
    diffsUs: p.diffNs.map((x) => r(x / 1000)),
  };
}

/** A run's figures in a log line: the mean ± its 95 % margin, then the robust ones. */
export function pairLine(r: PairRun): string {
  const f = r.full;
  return `${f.mean} ± ${Math.round(f.sem * 19.6) / 10} µs (median ${f.median}, 95 % ${f.lo}..` +
    `${f.hi}; trimmed mean ${f.trimmedMean}; quartiles ${f.q1}..${f.q3}; to the answer: mean ` +
    `${r.reply.mean}, median ${r.reply.median}; plain line ${r.plainUs} µs; round trips ` +
    `${r.plainMs} / ${r.testMs} ms)`;
}

/** The paired way (module comment): `o.iters` pairs a case, server and run. */
async function measureByPairs(
  o: SoftcodeBenchOptions,
  targets: Target[],
  exprs: readonly SoftcodeExpr[],
  log: (l: string) => void,
): Promise<SoftcodeServerRow[]> {
  const speakers: Shell[][] = targets.map(() => []);
  const cpus: ServerCpu[] = [];
  try {
    for (const [n, t] of targets.entries()) {
      for (let i = 0; i < PAIR_SPEAKERS; i++) {
        speakers[n].push(await Shell.login(t.port, `lcpu${i}`, "benchpw1"));
      }
      cpus.push(new ServerCpu(t.pid));
      log(`softcode: ${t.name}: ${PAIR_SPEAKERS} players; CPU of processes ${cpus[n].pids}`);
    }
    const runs = targets.map(() => new Map<string, PairRun[]>());
    const cases = [{ name: PLAIN_PAIR, expr: "" }, ...exprs];
    const tag = crypto.randomUUID().slice(0, 6);
    for (let run = 1; run <= o.runs; run++) {
      for (const c of cases) {
        const order = run % 2 ? targets : [...targets].reverse();
        for (const t of order) {
          const n = targets.indexOf(t);
          const test = c.expr ? `[null(${c.expr.replaceAll("LIB", t.lib)})]` : "";
          cpus[n].refresh();
          const po = { pairs: o.iters, warmup: 50, gapMs: 5, sideLines: o.sideLines ?? 1 };
          const p = await runPairs(cpus[n], po, (i, k) => {
            const m = `lc${i}x${tag}`;
            const sp = speakers[n][i % PAIR_SPEAKERS];
            return sp.t.roundTrip(`think ${m}${k ? test : ""}`, m).then(() => {});
          });
          const r = pairRun(p);
          runs[n].set(c.name, [...(runs[n].get(c.name) ?? []), r]);
          log(
            `softcode: run ${run}: ${t.name}: ${c.name}: ${pairLine(r)}`,
          );
        }
      }
    }
    return runs.map((m): SoftcodeServerRow => {
      const us: Record<string, number> = {};
      const samples: Record<string, number[]> = {};
      const pairs: Record<string, PairRun[]> = {};
      for (const c of cases) {
        pairs[c.name] = m.get(c.name)!;
        samples[c.name] = pairs[c.name].map((r) => r.full.mean);
        us[c.name] = median(samples[c.name]);
      }
      const baseUs = median(pairs[PLAIN_PAIR].map((r) => r.plainUs));
      return { us, samples, baseUs, pairs };
    });
  } finally {
    for (const sh of speakers.flat()) await sh.close().catch(() => {});
    for (const c of cpus) c.close();
  }
}

/** Default shape of an interleaved sitting: block pairs a case, pairs a block, warm-up pairs. */
export const INTERLEAVED_DEFAULTS = { blocks: 24, blockPairs: 40, warmup: 300 };

/**
 * The interleaved way: both servers' speakers logged in for the whole sitting, every case warmed,
 * then `blocks` rounds of a block of `blockPairs` pairs a case on each server in turn.
 */
async function measureInterleaved(
  o: SoftcodeBenchOptions,
  targets: Target[],
  exprs: readonly SoftcodeExpr[],
  log: (l: string) => void,
): Promise<{ rows: SoftcodeServerRow[]; cases: InterleavedCase[] }> {
  const speakers = new Map<Target, Shell[]>();
  const cpus: ServerCpu[] = [];
  try {
    for (const t of targets) {
      if (!speakers.has(t)) {
        const list: Shell[] = [];
        for (let i = 0; i < PAIR_SPEAKERS; i++) {
          list.push(await Shell.login(t.port, `lcpu${i}`, "benchpw1"));
        }
        speakers.set(t, list);
      }
      cpus.push(new ServerCpu(t.pid));
    }
    const cases = [{ name: PLAIN_PAIR, expr: "" }, ...exprs];
    const tag = crypto.randomUUID().slice(0, 6);
    const server = (n: number) => {
      const t = targets[n], sp = speakers.get(t)!;
      const tests = cases.map((c) => c.expr ? `[null(${c.expr.replaceAll("LIB", t.lib)})]` : "");
      return {
        cpu: cpus[n],
        line: (c: number, i: number, k: 0 | 1) => {
          const m = `li${n}x${i}x${tag}`;
          return sp[i % PAIR_SPEAKERS].t.roundTrip(`think ${m}${k ? tests[c] : ""}`, m).then(
            () => {},
          );
        },
      };
    };
    const d = INTERLEAVED_DEFAULTS;
    const io = {
      cases: cases.length,
      rounds: o.blocks ?? d.blocks,
      blockPairs: o.blockPairs ?? d.blockPairs,
      warmup: o.warmup ?? d.warmup,
      gapMs: 5,
      sideLines: o.sideLines ?? 1,
    };
    log(
      `softcode: interleaved: ${io.rounds} rounds of ${io.blockPairs} pairs a block, ` +
        `${io.warmup} warm-up pairs a case and server; ${targets.map((t) => t.name).join(" / ")}`,
    );
    const blocks = await runInterleaved([server(0), server(1)], io, (c, r, n, b) => {
      const mean = b.diffNs.reduce((a, x) => a + x, 0) / b.diffNs.length / 1000;
      const plain = b.plainNs.reduce((a, x) => a + x, 0) / b.plainNs.length / 1000;
      log(
        `softcode: block ${r + 1} ${targets[n].name} ${cases[c].name}: ${mean.toFixed(1)} µs ` +
          `(plain line ${plain.toFixed(1)} µs) at ${b.at.toFixed(1)} s`,
      );
    });
    const summary = interleavedCases(cases.map((c) => c.name), blocks);
    const rows = [0, 1].map((n): SoftcodeServerRow => {
      const us: Record<string, number> = {}, samples: Record<string, number[]> = {};
      for (const c of summary) {
        us[c.name] = n ? c.comparison.b.value : c.comparison.a.value;
        samples[c.name] = c.blocks.map((p) => n ? p.b.meanUs : p.a.meanUs);
      }
      const plain = summary[0].blocks.map((p) => n ? p.b.plainUs : p.a.plainUs);
      return { us, samples, baseUs: median(plain) };
    });
    return { rows, cases: summary };
  } finally {
    for (const sh of [...speakers.values()].flat()) await sh.close().catch(() => {});
    for (const c of cpus) c.close();
  }
}

/** Runs the softcode benchmark (see the module comment). */
export async function runSoftcodeBench(
  o: SoftcodeBenchOptions,
  log: (l: string) => void,
): Promise<SoftcodeBenchResult[]> {
  const targets: Target[] = [await startEngine(o, log)];
  try {
    if (o.tinymux && !o.selfCheck) targets.push(await startTinyMux(o, log));
    let sameResults: boolean | null = null;
    const prints = await Promise.all(targets.map((t) => fingerprints(t.port, t.lib)));
    prints[0].forEach((p, i) => log(`softcode: ${SOFTCODE_EXPRS[i].name}: ${p}`));
    if (prints.length > 1) {
      sameResults = prints[0].every((p, i) => p === prints[1][i]);
      prints[1].forEach((p, i) => {
        if (p !== prints[0][i]) log(`softcode: TinyMUX differs on ${SOFTCODE_EXPRS[i].name}: ${p}`);
      });
    }
    const exprs = SOFTCODE_EXPRS.filter((e) =>
      !o.only?.length || o.only.some((w) => e.name.toLowerCase().includes(w))
    );
    const out: SoftcodeBenchResult[] = [];
    for (const method of o.methods ?? ["driver"]) {
      if (method === "interleaved") {
        // The second slot: TinyMUX, or for the check the engine itself.
        const pair = [targets[0], o.selfCheck ? targets[0] : targets[1]];
        if (!pair[1]) throw new Error("interleaved needs --softcode-mux or --softcode-self-check");
        const { rows, cases } = await measureInterleaved(o, pair, exprs, log);
        out.push({
          method,
          iters: o.blockPairs ?? INTERLEAVED_DEFAULTS.blockPairs,
          runs: o.blocks ?? INTERLEAVED_DEFAULTS.blocks,
          engine: rows[0],
          tinymux: o.selfCheck ? null : rows[1],
          ratio: Object.fromEntries(cases.map((c) => [c.name, c.comparison.ratio.value])),
          sameResults,
          interleaved: cases,
          second: o.selfCheck ? "engine (again)" : undefined,
        });
        continue;
      }
      const rows = method === "pairs"
        ? await measureByPairs(o, targets, exprs, log)
        : await measureByDriver(o, targets, exprs, log);
      const ratio = rows.length > 1
        ? Object.fromEntries(
          exprs.map((
            e,
          ) => [e.name, Math.round(rows[0].us[e.name] / rows[1].us[e.name] * 100) / 100]),
        )
        : null;
      out.push({
        method,
        iters: o.iters,
        runs: o.runs,
        engine: rows[0],
        tinymux: rows[1] ?? null,
        ratio,
        sameResults,
      });
    }
    return out;
  } finally {
    for (const t of targets) await t.stop().catch(() => {});
  }
}

/** Table rows for the report: each server's median over the runs, and the runs' own figures. */
export function softcodeRows(r: SoftcodeBenchResult): string[][] {
  const head = ["expression", "engine µs (runs)", "TinyMUX 2.12 µs (runs)", "engine ÷ TinyMUX"];
  const cell = (row: SoftcodeServerRow | null, name: string) =>
    row ? `${row.us[name]} (${row.samples[name].join(", ")})` : "-";
  const names = [PLAIN_PAIR, ...SOFTCODE_EXPRS.map((e) => e.name)].filter((n) => n in r.engine.us);
  return [
    head,
    ...names.map((n) => [
      n,
      cell(r.engine, n),
      cell(r.tinymux, n),
      r.ratio?.[n] !== undefined ? String(r.ratio[n]) : "-",
    ]),
  ];
}

/** The report of one method's result: its table, and for `interleaved` every block too. */
export function softcodeReport(r: SoftcodeBenchResult): string {
  if (!r.interleaved) return table(softcodeRows(r));
  const b = r.second ?? "TinyMUX";
  return table(interleavedRows(r.interleaved, "engine", b)) + "\n\nblocks, in the order run:\n" +
    table(blockRows(r.interleaved, "engine", b));
}

/** Where the shared driver and TinyMUX's script are by default. */
export const SHARED_BENCH = join(ROOT, "..", "shared", "bench");
