/**
 * Telnet connect/disconnect cycles against a running server: each cycle opens a telnet socket,
 * logs a player in (`connect <name> <pw>`, then `think <marker>` to know the login finished),
 * sends QUIT and closes. Between batches it samples the resident memory (VmRSS) of every process
 * of the server's process group, so memory that is not given back when players leave shows up
 * per process (issue 14, item 4). Self-contained: `runCycles` for other benchmarks, a CLI below.
 *
 *   deno run -A bench/telnet_cycles.ts --port 4201 --pid <supervisor pid> --cycles 10000
 */
import { parseArgs } from "node:util";
import { sleep } from "./stats.ts";

/** Settings of {@linkcode runCycles}. */
export interface CycleOptions {
  host: string;
  port: number;
  /** Cycles to run (each one login and one disconnect). */
  cycles: number;
  /** Cycles in flight at once (the engine admits 10 logins in flight per address). */
  concurrency: number;
  /** Players are `<prefix><i>` for i below `players`, reused round-robin. */
  prefix: string;
  players: number;
  password: string;
  /** Server pid (the supervisor): its process group and descendants are sampled; null: none. */
  pid: number | null;
  /** Cycles before the first sample (JIT, pools and caches warmed); 0 samples the fresh server. */
  warmup: number;
  /** Pause before each sample, so closes finish and the server goes quiet. */
  settleMs: number;
  /** Sample every this many cycles. */
  sampleEvery: number;
  /** Limit for one cycle. */
  cycleTimeoutMs: number;
  /** No login: wait for the connect screen, then close (a quick check of the sidecar alone). */
  bare: boolean;
  log?: (line: string) => void;
}

/** Resident memory of one process at one moment. */
export interface ProcRss {
  pid: number;
  name: string;
  rssKiB: number;
}

/** One sample: after `cycles` cycles, every process of the server. */
export interface CycleSample {
  cycles: number;
  atMs: number;
  procs: ProcRss[];
}

/** Per process: resident memory at the start and the end, and end / start. */
export interface ProcGrowth {
  name: string;
  /** Before the warm-up (the fresh server), when there was one. */
  freshKiB: number | null;
  startKiB: number;
  endKiB: number;
  maxKiB: number;
  /** End over start (after the warm-up). */
  ratio: number;
  /** End over the fresh server's, when there was a warm-up. */
  freshRatio: number | null;
}

/** What {@linkcode runCycles} measured. */
export interface CycleResult {
  cycles: number;
  failed: number;
  errors: string[];
  seconds: number;
  /** Fresh server (before the warm-up). */
  fresh: CycleSample | null;
  /** After the warm-up: the start the growth is measured from. */
  start: CycleSample | null;
  samples: CycleSample[];
  growth: ProcGrowth[];
}

/** Defaults of the CLI. */
export const DEFAULTS: CycleOptions = {
  host: "127.0.0.1",
  port: 4201,
  cycles: 2000,
  concurrency: 10,
  prefix: "bench",
  players: 1000,
  password: "benchpw1",
  pid: null,
  warmup: 100,
  settleMs: 3000,
  sampleEvery: 1000,
  cycleTimeoutMs: 30_000,
  bare: false,
};

const enc = new TextEncoder();
const dec = new TextDecoder();

/** The pids of `pid`'s process group (when it leads one) and of its descendants, from /proc. */
export function processTree(pid: number): { pid: number; ppid: number; pgrp: number }[] {
  const all: { pid: number; ppid: number; pgrp: number }[] = [];
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const s = Deno.readTextFileSync(`/proc/${e.name}/stat`);
      const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
      if (f[0] === "Z" || f[0] === "X") continue;
      all.push({ pid: Number(e.name), ppid: Number(f[1]), pgrp: Number(f[2]) });
    } catch { /* exited meanwhile */ }
  }
  const main = all.find((p) => p.pid === pid);
  if (!main) return [];
  const set = new Map([[pid, main]]);
  if (main.pgrp === pid) { for (const p of all) if (p.pgrp === pid) set.set(p.pid, p); }
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all) {
      if (!set.has(p.pid) && set.has(p.ppid)) {
        set.set(p.pid, p);
        grew = true;
      }
    }
  }
  return [...set.values()];
}

/** A short name for a server process from its command line (supervisor, sidecar, engine, ...). */
function procName(pid: number): string {
  let cmd = "";
  try {
    cmd = Deno.readTextFileSync(`/proc/${pid}/cmdline`).replaceAll("\0", " ");
  } catch { /* exited */ }
  if (/supervisor\/main\.ts|supervisor\/main\.js/.test(cmd)) return "supervisor";
  if (/telnet\.(ts|js)|__telnet|ursamu-telnet/.test(cmd)) return "sidecar";
  if (/scripts\/child\.ts/.test(cmd)) return "script-child";
  if (/\bmain\.(ts|js)|__engine/.test(cmd)) return "engine";
  if (/netmux/.test(cmd)) return "netmux";
  return cmd.split(" ")[0].split("/").pop() || String(pid);
}

function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(Deno.readTextFileSync(`/proc/${pid}/status`));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** Resident memory of every process of the server, named; several of one name get `#2`, ... */
export function sampleProcs(pid: number): ProcRss[] {
  const out: ProcRss[] = [];
  const seen = new Map<string, number>();
  for (const p of processTree(pid).sort((a, b) => a.pid - b.pid)) {
    const base = procName(p.pid);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    out.push({ pid: p.pid, name: n === 1 ? base : `${base}#${n}`, rssKiB: rssOf(p.pid) });
  }
  return out;
}

/** Reads from the socket until a line holds `marker`; false on close or timeout. */
async function readUntil(conn: Deno.TcpConn, marker: string, timeoutMs: number): Promise<boolean> {
  const buf = new Uint8Array(4096);
  let text = "";
  const timer = setTimeout(() => {
    try {
      conn.close();
    } catch { /* closed */ }
  }, timeoutMs);
  try {
    while (true) {
      const n = await conn.read(buf);
      if (n === null) return false;
      // Keep only a tail: the marker may straddle two reads, nothing before it matters.
      text = (text + dec.decode(buf.subarray(0, n), { stream: true })).slice(-4096);
      if (text.includes(marker)) return true;
    }
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** One cycle: connect, log in, confirm with a marker, QUIT, close. Throws on failure. */
async function cycle(o: CycleOptions, i: number, run: string): Promise<void> {
  const conn = await Deno.connect({ hostname: o.host, port: o.port });
  try {
    conn.setNoDelay(true);
    if (o.bare) {
      // Any text of the connect screen: the sidecar has the socket and the hub the session.
      if (!(await readUntil(conn, "\n", o.cycleTimeoutMs))) throw new Error("no connect screen");
      return;
    }
    const marker = `cyc-${run}-${i}-ok`;
    const name = `${o.prefix}${i % o.players}`;
    const wait = readUntil(conn, marker, o.cycleTimeoutMs);
    await conn.write(enc.encode(`connect ${name} ${o.password}\r\nthink ${marker}\r\n`));
    if (!(await wait)) throw new Error(`${name}: no login marker`);
    await conn.write(enc.encode("QUIT\r\n")).catch(() => 0);
  } finally {
    try {
      conn.close();
    } catch { /* closed by the timeout */ }
  }
}

/** Runs `count` cycles numbered from `from`, `concurrency` at a time; returns failures. */
async function cycles(o: CycleOptions, from: number, count: number, run: string, errors: string[]) {
  let next = from;
  let failed = 0;
  const end = from + count;
  const lane = async () => {
    while (next < end) {
      const i = next++;
      try {
        await cycle(o, i, run);
      } catch (e) {
        failed++;
        if (errors.length < 10) errors.push(String((e as Error).message ?? e));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(o.concurrency, count) }, lane));
  return failed;
}

/** Runs the cycles and samples the server's processes; see the module comment. */
export async function runCycles(opts: Partial<CycleOptions>): Promise<CycleResult> {
  const o = { ...DEFAULTS, ...opts };
  const log = o.log ?? (() => {});
  const run = Math.random().toString(36).slice(2, 8);
  const t0 = performance.now();
  const take = async (done: number): Promise<CycleSample | null> => {
    if (o.pid === null) return null;
    await sleep(o.settleMs);
    const s = { cycles: done, atMs: Math.round(performance.now() - t0), procs: sampleProcs(o.pid) };
    log(
      `${done} cycles: ${
        s.procs.map((p) => `${p.name}=${(p.rssKiB / 1024).toFixed(1)}MB`).join(" ")
      }`,
    );
    return s;
  };
  const errors: string[] = [];
  const fresh = o.warmup > 0 ? await take(0) : null;
  let failed = o.warmup > 0 ? await cycles(o, 0, o.warmup, run, errors) : 0;
  const start = await take(0);
  const samples: CycleSample[] = [];
  for (let done = 0; done < o.cycles;) {
    const n = Math.min(o.sampleEvery, o.cycles - done);
    failed += await cycles(o, o.warmup + done, n, run, errors);
    done += n;
    const s = await take(done);
    if (s) samples.push(s);
  }
  const growth: ProcGrowth[] = [];
  const last = samples.at(-1);
  if (start && last) {
    for (const p of start.procs) {
      const series = samples.map((s) => s.procs.find((q) => q.pid === p.pid)?.rssKiB ?? 0);
      const endKiB = last.procs.find((q) => q.pid === p.pid)?.rssKiB ?? 0;
      const freshKiB = fresh?.procs.find((q) => q.pid === p.pid)?.rssKiB ?? null;
      const ratio = (a: number, b: number) => Math.round((a / b) * 1000) / 1000;
      growth.push({
        name: p.name,
        freshKiB,
        startKiB: p.rssKiB,
        endKiB,
        maxKiB: Math.max(p.rssKiB, ...series),
        ratio: ratio(endKiB, p.rssKiB),
        freshRatio: freshKiB ? ratio(endKiB, freshKiB) : null,
      });
    }
  }
  return {
    cycles: o.cycles,
    failed,
    errors,
    seconds: Math.round((performance.now() - t0) / 100) / 10,
    fresh,
    start,
    samples,
    growth,
  };
}

const HELP = `telnet_cycles.ts: telnet connect/disconnect cycles, resident memory per server process
  --host H            server address (127.0.0.1)
  --port N            telnet port (4201)
  --pid PID           server pid (the supervisor); its process group and descendants are sampled
  --cycles N          cycles to run (2000)
  --concurrency N     cycles in flight (10: the engine admits 10 logins in flight per address)
  --prefix NAME       players are <prefix><i> (bench)
  --players N         i runs over 0..N-1, round-robin (1000)
  --password PW       (benchpw1)
  --warmup N          cycles before the start sample (100; 0 = the fresh server is the start)
  --settle-ms MS      pause before each sample (3000)
  --sample-every N    cycles between samples (1000)
  --bare              no login: wait for the connect screen, close (sidecar and hub only)
  --json FILE         write the result as JSON
  --max-growth R      exit 1 when a process ends above R times its start (e.g. 1.2)`;

if (import.meta.main) {
  const { values: v } = parseArgs({
    args: Deno.args,
    options: {
      host: { type: "string" },
      port: { type: "string" },
      pid: { type: "string" },
      cycles: { type: "string" },
      concurrency: { type: "string" },
      prefix: { type: "string" },
      players: { type: "string" },
      password: { type: "string" },
      warmup: { type: "string" },
      "settle-ms": { type: "string" },
      "sample-every": { type: "string" },
      json: { type: "string" },
      "max-growth": { type: "string" },
      bare: { type: "boolean" },
      help: { type: "boolean" },
    },
  });
  if (v.help) {
    console.log(HELP);
    Deno.exit(0);
  }
  const num = (s: string | undefined, d: number) => (s === undefined ? d : Number(s));
  const result = await runCycles({
    host: v.host ?? DEFAULTS.host,
    port: num(v.port, DEFAULTS.port),
    pid: v.pid ? Number(v.pid) : null,
    cycles: num(v.cycles, DEFAULTS.cycles),
    concurrency: num(v.concurrency, DEFAULTS.concurrency),
    prefix: v.prefix ?? DEFAULTS.prefix,
    players: num(v.players, DEFAULTS.players),
    password: v.password ?? DEFAULTS.password,
    warmup: num(v.warmup, DEFAULTS.warmup),
    settleMs: num(v["settle-ms"], DEFAULTS.settleMs),
    sampleEvery: num(v["sample-every"], DEFAULTS.sampleEvery),
    bare: v.bare ?? false,
    log: (line) => console.log(line),
  });
  console.log(`${result.cycles} cycles in ${result.seconds} s, ${result.failed} failed`);
  for (const e of result.errors) console.log(`  error: ${e}`);
  for (const g of result.growth) {
    console.log(
      `${g.name.padEnd(14)} start ${(g.startKiB / 1024).toFixed(1)} MB  end ${
        (g.endKiB / 1024).toFixed(1)
      } MB  ` +
        `max ${(g.maxKiB / 1024).toFixed(1)} MB  end/start ${g.ratio}`,
    );
  }
  if (v.json) Deno.writeTextFileSync(v.json, JSON.stringify(result, null, 2) + "\n");
  const limit = v["max-growth"] ? Number(v["max-growth"]) : null;
  if (limit !== null && result.growth.some((g) => g.ratio > limit)) Deno.exit(1);
}
