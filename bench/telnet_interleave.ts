/**
 * Two telnet servers measured side by side by interleaved blocks (docs/bench.md, "The round trip
 * and fan-out by interleaved blocks"): both up, warm and logged in at once, then many short
 * blocks of the shared driver's work (/work/shared/bench/telnet_bench.ts), A B B A A B ..., so a
 * period in which the machine runs slower (a minute or so) falls on both servers' blocks of a
 * pair. The figure is A's quantile over B's pooled over the counted pairs, with a bootstrap
 * interval over block pairs and the median of per-pair ratios (bench/blocks.ts).
 *
 *   rtt     `think <marker>` round trips rotating over `--speakers` players (`<prefix>0`,
 *           `<prefix>r1`.., as the driver's), `--gap-ms` after each answer; a block is
 *           `--block-lines` of them after `--block-warm` uncounted ones. Figure: p50 (and p95).
 *   fanout  `--listeners` players (`<prefix>1`..) hear `say fan-..` from `<prefix>0`, one every
 *           `--interval-ms`; a block is `--block-messages` messages, then a wait until every
 *           listener has each (or `--loss-ms`). Figure: a delivery's p99 (and p50).
 *
 * Players are created on first use (`create`, else `connect`, as the driver does). A server is
 * `engine` (this checkout's supervisor, started here with caps lifted, the shipped scripts and
 * its players seeded at a cheap bcrypt cost, pinned to `--server-cpus`), `tinymux` (the shared
 * tinymux.sh, in a directory of its own), or `PORT:PID` (running already; PID's process group
 * and descendants are its CPU). `--prefix-b` lets both slots be one server (a self-check).
 *
 *   DENO_NO_PACKAGE_JSON=1 taskset -c 1 deno run --unstable-kv -A bench/telnet_interleave.ts \
 *     --a engine --b tinymux --scenario rtt,fanout [--warm-s 60] [--pairs 40] [--json out.json]
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { startServer, type TestServer, waitHealthy } from "../tests/harness.ts";
import { LeanTelnet } from "./telnet_client.ts";
import { seedTelnetPlayers, TELNET_PASSWORD } from "./telnet_seed.ts";
import { ServerCpu } from "./line_cpu.ts";
import { type BlockPair, compareQuantiles, medianOf, type QuantileComparison } from "./blocks.ts";
import { quantile, round, sleep } from "./stats.ts";

/** The nearest-rank q-quantile of unsorted samples (the shared driver's p50, p95, p99). */
function quantileOf(xs: readonly number[], q: number): number {
  return quantile([...xs].sort((a, b) => a - b), q);
}

const SHARED_TINYMUX = "/work/shared/bench/tinymux.sh";
/** bcrypt cost of the engine's seeded players (bench only; the engine's own is 10). */
const CHEAP_COST = 4;
/** Where tinymux.sh keeps its package by default. */
const SHARED_MUX_DIR = "/tmp/tinymux-bench";

/** Settings, from the command line. */
interface Options {
  a: string;
  b: string;
  labelA: string;
  labelB: string;
  prefixA: string;
  prefixB: string;
  password: string;
  scenarios: string[];
  warmS: number;
  pairs: number;
  speakers: number;
  gapMs: number;
  blockLines: number;
  blockWarm: number;
  listeners: number;
  blockMessages: number;
  intervalMs: number;
  lossMs: number;
  fanWarmPairs: number;
  serverCpus: string;
  json: string | null;
  timeoutS: number;
}

/** A server under measurement. */
interface Side {
  label: string;
  port: number;
  prefix: string;
  cpu: ServerCpu;
  stop: () => Promise<void>;
}

/** Reads the command line. */
function options(): Options {
  const { values: v } = parseArgs({
    args: Deno.args,
    options: {
      a: { type: "string", default: "engine" },
      b: { type: "string", default: "tinymux" },
      "label-a": { type: "string" },
      "label-b": { type: "string" },
      prefix: { type: "string", default: "bench" },
      "prefix-b": { type: "string" },
      // The seeded players' password, used on both servers.
      password: { type: "string", default: TELNET_PASSWORD },
      scenario: { type: "string", default: "rtt" },
      "warm-s": { type: "string", default: "60" },
      pairs: { type: "string", default: "40" },
      speakers: { type: "string", default: "40" },
      "gap-ms": { type: "string", default: "5" },
      "block-lines": { type: "string", default: "300" },
      "block-warm": { type: "string", default: "5" },
      listeners: { type: "string", default: "1000" },
      "block-messages": { type: "string", default: "10" },
      "interval-ms": { type: "string", default: "200" },
      "loss-ms": { type: "string", default: "3000" },
      "fan-warm-pairs": { type: "string", default: "2" },
      "server-cpus": { type: "string", default: "0" },
      json: { type: "string" },
      timeout: { type: "string", default: "900" },
    },
  });
  const num = (k: keyof typeof v, min: number, max: number) => {
    const n = Number(v[k]);
    if (!Number.isFinite(n) || n < min || n > max) throw new Error(`--${k} must be ${min}..${max}`);
    return n;
  };
  const scenarios = String(v.scenario).split(",");
  for (const s of scenarios) {
    if (s !== "rtt" && s !== "fanout") throw new Error(`bad --scenario ${s}`);
  }
  return {
    a: String(v.a),
    b: String(v.b),
    labelA: v["label-a"] ?? String(v.a),
    labelB: v["label-b"] ?? String(v.b),
    prefixA: String(v.prefix),
    prefixB: v["prefix-b"] ?? String(v.prefix),
    password: String(v.password),
    scenarios,
    warmS: num("warm-s", 0, 3600),
    pairs: num("pairs", 2, 1000),
    speakers: num("speakers", 1, 200),
    gapMs: num("gap-ms", 0, 1000),
    blockLines: num("block-lines", 10, 100_000),
    blockWarm: num("block-warm", 0, 1000),
    listeners: num("listeners", 1, 1010),
    blockMessages: num("block-messages", 1, 1000),
    intervalMs: num("interval-ms", 0, 10_000),
    lossMs: num("loss-ms", 100, 60_000),
    fanWarmPairs: num("fan-warm-pairs", 0, 100),
    serverCpus: String(v["server-cpus"]),
    json: v.json ?? null,
    timeoutS: num("timeout", 10, 7200),
  };
}

/** Starts (or finds) the server a slot names. */
async function openSide(spec: string, label: string, prefix: string, o: Options): Promise<Side> {
  if (spec === "engine") return await startEngine(label, prefix, o);
  if (spec === "tinymux") return await startTinyMux(label, prefix, o);
  const m = /^(\d+):(\d+)$/.exec(spec);
  if (!m) throw new Error(`a server is engine, tinymux or PORT:PID, not ${spec}`);
  return {
    label,
    port: Number(m[1]),
    prefix,
    cpu: new ServerCpu(Number(m[2])),
    stop: async () => {},
  };
}

/**
 * This checkout's supervisor with the caps a bench lifts (as the shared README asks), its players
 * written into the database first (bench/telnet_seed.ts: the password at a cheap bcrypt cost, so
 * a thousand logins take seconds, not minutes of full-cost hashing at the start of a sitting).
 */
async function startEngine(label: string, prefix: string, o: Options): Promise<Side> {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-interleave-" });
  await seedTelnetPlayers(dir, `${prefix}r`, 1, Math.max(1, o.speakers), CHEAP_COST);
  await seedTelnetPlayers(dir, prefix, 0, o.listeners + 1, CHEAP_COST);
  const srv: TestServer = await startServer({
    dir,
    entry: "src/supervisor/main.ts",
    cpus: o.serverCpus,
    config: {
      server: { maxConnections: 0, maxConnectionsPerIp: 0 },
      game: { idleTimeout: 0, maxPlayers: 0, registrationsPerHour: 0, loginsPerMinute: 0 },
      // A game's shipped scripts, as `npm start` loads them (the harness's default is none).
      scripts: { dir: "system/scripts" },
    },
  });
  try {
    await waitHealthy(srv.base, () => false, () => srv.output(), 60_000);
    await srv.waitFor(/telnet: listening on/, 30_000);
  } catch (e) {
    await srv.stop();
    throw e;
  }
  return {
    label,
    port: srv.telnet,
    prefix,
    cpu: new ServerCpu(srv.child.pid),
    stop: async () => {
      await srv.stop();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** A TinyMUX 2.12 by the shared script, in a directory of this run's (helpers run side by side). */
async function startTinyMux(label: string, prefix: string, o: Options): Promise<Side> {
  const dir = await Deno.makeTempDir({ prefix: "tinymux-interleave-" });
  // The package is copied from the shared directory when there, so nothing is downloaded again.
  try {
    for (const e of Deno.readDirSync(SHARED_MUX_DIR)) {
      if (e.name.endsWith(".deb")) {
        Deno.copyFileSync(join(SHARED_MUX_DIR, e.name), join(dir, e.name));
      }
    }
  } catch { /* none there: tinymux.sh downloads it */ }
  const port = 20000 + Math.floor(Math.random() * 40000);
  const env = { TINYMUX_BENCH_DIR: dir, TINYMUX_CPUS: o.serverCpus };
  const run = async (...args: string[]) => {
    const r = await new Deno.Command(SHARED_TINYMUX, {
      args,
      env,
      stdout: "piped",
      stderr: "piped",
    })
      .output();
    const out = new TextDecoder().decode(r.stdout).trim();
    if (!r.success) throw new Error(`tinymux.sh ${args[0]}: ${new TextDecoder().decode(r.stderr)}`);
    return out;
  };
  const pid = Number(await run("start", String(port)));
  return {
    label,
    port,
    prefix,
    cpu: new ServerCpu(pid),
    stop: async () => {
      await run("stop").catch(() => {});
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/**
 * Logs `name` in by `create`, else `connect` (as the shared driver), waiting for a `think`: all
 * three lines in one send. A `create` of a name that exists is refused and the `connect` after it
 * logs in; a `create` that succeeds leaves the `connect` a game command (an unknown one, answered
 * with a line). Either way the `think` is the first line run logged in, so its answer comes as
 * soon as the login is done. (It waited for a `create`'s refusal, then a second for a marker
 * that could not come, before sending `connect`: 1,001 logins of players the engine already has,
 * 10 at a time, took 100 s of waiting; docs/bench.md, "Issue 34: logins into a room of 1,000".)
 */
async function login(
  port: number,
  name: string,
  pw: string,
  ms = 60_000,
): Promise<LeanTelnet> {
  const c = await LeanTelnet.connect(port);
  try {
    const marker = `in-${crypto.randomUUID().slice(0, 8)}`;
    const arrived = c.until(marker, ms);
    await c.send(`create ${name} ${pw}\r\nconnect ${name} ${pw}\r\nthink ${marker}`);
    await arrived;
    return c;
  } catch (e) {
    await c.close();
    throw new Error(`${name}: ${(e as Error).message}`);
  }
}

/** Logs every name in, 10 in flight (the engine's per-address limit on logins in progress). */
async function loginAll(port: number, names: readonly string[], pw: string): Promise<LeanTelnet[]> {
  const out: LeanTelnet[] = new Array(names.length);
  let next = 0;
  const worker = async () => {
    while (next < names.length) {
      const i = next++;
      out[i] = await login(port, names[i], pw);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(10, names.length) }, worker));
  } catch (e) {
    await Promise.all(out.filter(Boolean).map((c) => c.close()));
    throw e;
  }
  return out;
}

/** One block of one server: its counted samples (ms), its CPU a unit (µs) and its wall time. */
interface Block {
  side: number;
  samples: number[];
  cpuUs: number;
  wallMs: number;
  /** Fan-out: deliveries not seen within the loss limit. */
  lost?: number;
}

/** Runs pairs of blocks A B, B A, ... by `block(side)`; the first `warm` pairs are not kept. */
async function interleave(
  pairs: number,
  warm: number,
  block: (side: number) => Promise<Block>,
  deadline: number,
  log: (s: string) => void,
): Promise<Block[][]> {
  const out: Block[][] = [];
  for (let k = 0; k < warm + pairs; k++) {
    if (performance.now() > deadline) throw new Error("over the time limit");
    const order = k % 2 ? [1, 0] : [0, 1];
    const got: Block[] = [];
    for (const s of order) got[s] = await block(s);
    if (k >= warm) out.push(got);
    if ((k + 1) % 10 === 0) log(`pair ${k + 1}/${warm + pairs}`);
  }
  return out;
}

/** The rtt scenario's state on one server: its speakers and whose turn it is. */
class RttSide {
  turn = 0;
  seq = 0;
  constructor(readonly side: Side, readonly speakers: LeanTelnet[]) {}

  /** `lines` round trips, the first `warm` not counted. */
  async block(index: number, warm: number, lines: number, gapMs: number): Promise<Block> {
    const samples: number[] = [];
    const t0 = performance.now();
    let c0 = this.side.cpu.read();
    for (let i = 0; i < warm + lines; i++) {
      if (i === warm) c0 = this.side.cpu.read();
      const tag = `rt${index}x${this.seq++}q`;
      const c = this.speakers[this.turn++ % this.speakers.length];
      const rt = await c.roundTrip(`think ${tag}`, tag, 5000);
      if (i >= warm) samples.push(rt);
      // The driver's pace: the gap runs from the answer.
      if (gapMs > 0) await sleep(gapMs);
    }
    const c1 = this.side.cpu.read();
    return {
      side: index,
      samples,
      cpuUs: cpuNs(c0, c1) / 1000 / lines,
      wallMs: performance.now() - t0,
    };
  }
}

/** CPU nanoseconds between two readings of a server. */
function cpuNs(a: Map<number, number>, b: Map<number, number>): number {
  let sum = 0;
  for (const [pid, ns] of b) {
    const before = a.get(pid);
    if (before !== undefined) sum += ns - before;
  }
  return sum;
}

/**
 * Each ready listener's delay (ms) for each message sent: its arrival less the send, or Infinity
 * for a delivery not seen within the loss limit. A lost delivery is slower than any seen one, so
 * it sits at the top of the block's distribution and a server that loses more reads slower, not
 * faster (it used to be left out: docs/bench.md, "lost deliveries count").
 */
export function deliveryDelays(
  sent: readonly { k: number; at: number }[],
  arrivals: ReadonlyMap<number, Float64Array>,
  ready: readonly boolean[],
): number[] {
  const out: number[] = [];
  for (const { k, at } of sent) {
    const a = arrivals.get(k);
    for (let j = 0; j < ready.length; j++) {
      if (!ready[j]) continue;
      const t = a === undefined ? NaN : a[j];
      out.push(Number.isNaN(t) ? Infinity : t - at);
    }
  }
  return out;
}

/** The fan-out scenario's state on one server. */
class FanSide {
  #seq = 0;
  #arrivals = new Map<number, Float64Array>();
  readonly #run = crypto.randomUUID().slice(0, 6);
  ready: boolean[] = [];

  constructor(readonly side: Side, readonly speaker: LeanTelnet, readonly listeners: LeanTelnet[]) {
    const re = new RegExp(`fan-${this.#run}-(\\d+)\\b`, "g");
    listeners.forEach((c, j) => {
      c.sink = (text, at) => {
        if (!text.includes("fan-")) return;
        re.lastIndex = 0;
        for (let m = re.exec(text); m; m = re.exec(text)) {
          const a = this.#arrivals.get(Number(m[1]));
          if (a && Number.isNaN(a[j])) a[j] = at;
        }
      };
    });
  }

  /** Says message 0 and notes which listeners hear it (the others are not counted). */
  async sync(lossMs: number): Promise<number> {
    const k = this.#seq++;
    const a = new Float64Array(this.listeners.length).fill(NaN);
    this.#arrivals.set(k, a);
    await this.speaker.send(`say fan-${this.#run}-${k}`);
    const end = performance.now() + lossMs;
    while (a.some(Number.isNaN) && performance.now() < end) await sleep(20);
    this.ready = Array.from(a, (x) => !Number.isNaN(x));
    this.#arrivals.delete(k);
    return this.ready.filter(Boolean).length;
  }

  /** `messages` says `intervalMs` apart; every ready listener's delay for each. */
  async block(index: number, messages: number, intervalMs: number, lossMs: number): Promise<Block> {
    const t0 = performance.now();
    const c0 = this.side.cpu.read();
    const sent: { k: number; at: number }[] = [];
    for (let m = 0; m < messages; m++) {
      const wait = t0 + m * intervalMs - performance.now();
      if (wait > 0) await sleep(wait);
      const k = this.#seq++;
      this.#arrivals.set(k, new Float64Array(this.listeners.length).fill(NaN));
      sent.push({ k, at: performance.now() });
      await this.speaker.send(`say fan-${this.#run}-${k}`);
    }
    const expected = this.ready.filter(Boolean).length * messages;
    const count = () => {
      let n = 0;
      for (const { k } of sent) {
        const a = this.#arrivals.get(k)!;
        for (let j = 0; j < a.length; j++) if (this.ready[j] && !Number.isNaN(a[j])) n++;
      }
      return n;
    };
    const end = performance.now() + lossMs;
    while (count() < expected && performance.now() < end) await sleep(20);
    const c1 = this.side.cpu.read();
    const samples = deliveryDelays(sent, this.#arrivals, this.ready);
    const lost = samples.filter((x) => x === Infinity).length;
    for (const { k } of sent) this.#arrivals.delete(k);
    return {
      side: index,
      samples,
      cpuUs: cpuNs(c0, c1) / 1000 / Math.max(1, samples.length - lost),
      wallMs: performance.now() - t0,
      lost,
    };
  }
}

/** A scenario's figures: each server's pooled quantiles and CPU, and the paired ratios. */
interface Figures {
  scenario: string;
  pairs: number;
  perServer: { label: string; n: number; p50: number; p95: number; p99: number; cpuUs: number }[];
  ratios: Record<string, QuantileComparison>;
  cpuRatio: { pooled: number; medianPairRatio: number };
  lost?: number[];
  blocks: { side: number; p50: number; p95: number; p99: number; cpuUs: number; wallMs: number }[];
}

/** The figures of the kept pairs, for the quantiles named. */
function figures(
  scenario: string,
  kept: Block[][],
  sides: Side[],
  qs: Record<string, number>,
): Figures {
  const bp: BlockPair[] = kept.map(([a, b]) => ({ a: a.samples, b: b.samples }));
  const ratios: Record<string, QuantileComparison> = {};
  for (const [name, q] of Object.entries(qs)) ratios[name] = compareQuantiles(bp, q);
  const perServer = [0, 1].map((s) => {
    const all = kept.flatMap((p) => p[s].samples);
    // CPU is a unit's over the units served (a lost delivery cost no write).
    const served = (b: Block) => b.samples.length - (b.lost ?? 0);
    const units = kept.reduce((n, p) => n + served(p[s]), 0);
    const cpu = kept.reduce((n, p) => n + p[s].cpuUs * served(p[s]), 0);
    return {
      label: sides[s].label,
      n: all.length,
      p50: round(quantileOf(all, 0.5)),
      p95: round(quantileOf(all, 0.95)),
      p99: round(quantileOf(all, 0.99)),
      cpuUs: round(cpu / Math.max(1, units), 1),
    };
  });
  const pr = kept.map(([a, b]) => a.cpuUs / b.cpuUs);
  return {
    scenario,
    pairs: kept.length,
    perServer,
    ratios,
    cpuRatio: {
      pooled: round(perServer[0].cpuUs / perServer[1].cpuUs),
      medianPairRatio: round(medianOf(pr)),
    },
    lost: scenario === "fanout"
      ? [0, 1].map((s) => kept.reduce((n, p) => n + (p[s].lost ?? 0), 0))
      : undefined,
    blocks: kept.flat().map((b) => ({
      side: b.side,
      p50: round(quantileOf(b.samples, 0.5)),
      p95: round(quantileOf(b.samples, 0.95)),
      p99: round(quantileOf(b.samples, 0.99)),
      cpuUs: round(b.cpuUs, 1),
      wallMs: round(b.wallMs, 0),
    })),
  };
}

/** The text report of a scenario's figures. */
function report(f: Figures): string {
  const lines = [`${f.scenario}: ${f.pairs} block pairs`];
  for (const s of f.perServer) {
    lines.push(
      `  ${s.label.padEnd(12)} n=${s.n} p50=${s.p50}ms p95=${s.p95}ms p99=${s.p99}ms ` +
        `cpu=${s.cpuUs}us a ${f.scenario === "rtt" ? "line" : "delivery"}`,
    );
  }
  for (const [name, r] of Object.entries(f.ratios)) {
    lines.push(
      `  ${name} ratio ${f.perServer[0].label}/${f.perServer[1].label} = ${round(r.ratio.value)} ` +
        `(95% ${round(r.ratio.lo)}..${round(r.ratio.hi)}), median of per-pair ratios ${
          round(r.medianRatio)
        }`,
    );
  }
  lines.push(`  cpu ratio ${f.cpuRatio.pooled} (median of per-pair ${f.cpuRatio.medianPairRatio})`);
  // Lost deliveries are in the quantiles above as slower than any seen (Infinity).
  if (f.lost) lines.push(`  lost deliveries ${f.lost.join(" / ")} (counted as slowest)`);
  return lines.join("\n");
}

/** Runs the scenarios asked for on two servers and prints (and writes) the figures. */
async function main(): Promise<void> {
  const o = options();
  const deadline = performance.now() + o.timeoutS * 1000;
  const log = (s: string) => console.error(`${new Date().toISOString().slice(11, 19)} ${s}`);
  const sides: Side[] = [];
  const clients: LeanTelnet[] = [];
  const result: Record<string, unknown> = { started: new Date().toISOString(), options: o };
  const killer = setTimeout(() => {
    log("time limit reached; stopping");
    Promise.all(sides.map((s) => s.stop())).finally(() => Deno.exit(2));
  }, o.timeoutS * 1000 + 30_000);
  try {
    sides.push(await openSide(o.a, o.labelA, o.prefixA, o));
    sides.push(await openSide(o.b, o.labelB, o.prefixB, o));
    log(
      `servers: ${
        sides.map((s) => `${s.label} port ${s.port} pids ${s.cpu.pids.join(",")}`).join("; ")
      }`,
    );
    if (o.scenarios.includes("rtt")) {
      const rtt: RttSide[] = [];
      for (const s of sides) {
        const names = [
          `${s.prefix}0`,
          ...Array.from({ length: o.speakers - 1 }, (_, i) => `${s.prefix}r${i + 1}`),
        ];
        const cs = await loginAll(s.port, names, o.password);
        clients.push(...cs);
        rtt.push(new RttSide(s, cs));
      }
      for (const s of sides) s.cpu.refresh();
      const block = (s: number) => rtt[s].block(s, o.blockWarm, o.blockLines, o.gapMs);
      // Warm-up: whole alternating blocks, not counted, for --warm-s seconds.
      const warmEnd = performance.now() + o.warmS * 1000;
      let warmPairs = 0;
      // Each warm block's p50 and CPU a line, by seconds since the logins: how long warming takes.
      const warming: { s: number; side: number; p50: number; cpuUs: number }[] = [];
      const warmStart = performance.now();
      while (performance.now() < warmEnd) {
        for (const side of warmPairs % 2 ? [1, 0] : [0, 1]) {
          const b = await block(side);
          warming.push({
            s: round((performance.now() - warmStart) / 1000, 1),
            side,
            p50: round(quantileOf(b.samples, 0.5)),
            cpuUs: round(b.cpuUs, 1),
          });
        }
        warmPairs++;
      }
      log(`rtt: warmed by ${warmPairs} pairs; measuring ${o.pairs}`);
      const kept = await interleave(o.pairs, 0, block, deadline, log);
      const f = figures("rtt", kept, sides, { p50: 0.5, p95: 0.95 });
      result.rtt = { warmPairs, warming, ...f };
      console.log(report(f));
      await Promise.all(clients.splice(0).map((c) => c.close()));
    }
    if (o.scenarios.includes("fanout")) {
      const fan: FanSide[] = [];
      for (const s of sides) {
        const names = Array.from({ length: o.listeners + 1 }, (_, i) => `${s.prefix}${i}`);
        log(`fanout: logging ${names.length} players in to ${s.label}`);
        const cs = await loginAll(s.port, names, o.password);
        clients.push(...cs);
        const f = new FanSide(s, cs[0], cs.slice(1));
        const ready = await f.sync(o.lossMs);
        log(`fanout: ${ready}/${o.listeners} listeners hear ${s.label}'s speaker`);
        if (ready === 0) throw new Error(`no listener hears ${s.label}'s speaker`);
        fan.push(f);
      }
      for (const s of sides) s.cpu.refresh();
      const block = (s: number) => fan[s].block(s, o.blockMessages, o.intervalMs, o.lossMs);
      const kept = await interleave(o.pairs, o.fanWarmPairs, block, deadline, log);
      const f = figures("fanout", kept, sides, { p99: 0.99, p50: 0.5 });
      result.fanout = f;
      console.log(report(f));
    }
  } finally {
    clearTimeout(killer);
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all(sides.map((s) => s.stop()));
    for (const s of sides) s.cpu.close();
    // JSON has no Infinity (a quantile on a lost delivery): written as the string.
    const inf = (_k: string, v: unknown) => v === Infinity ? "Infinity" : v;
    if (o.json) await Deno.writeTextFile(o.json, JSON.stringify(result, inf, 1) + "\n");
  }
}

if (import.meta.main) await main();
