/**
 * System scripts against the built-in commands (docs/bench.md, docs/scripts.md): a game whose
 * scripts folder holds `+echo` (what `think` does, as a script) and the shipped `+who`
 * example, reached over WebSocket (the engine alone, with the V8 flags the supervisor would give
 * it) and over telnet (supervisor, sidecar and engine). Paced round trips of each script and its
 * built-in twin are randomly interleaved, so both see the same pacing, clients and load; `rounds`
 * runs of both kinds alternate, and the medians of their ratios are the result. Target: a script's
 * p50 within 1.2x of the built-in's.
 * It also measures the engine's resident memory before and after 200 scripts are loaded and
 * each is called once (target: at most 100 MB more).
 */
import { join } from "node:path";
import { ROOT, startServer, waitHealthy } from "../tests/harness.ts";
import { seedPlayers } from "./seed.ts";
import { type BenchClient, openMany } from "./client.ts";
import { loginMany } from "./telnet_client.ts";
import { quantile, round, rssKiB, sleep, summarize, type Summary } from "./stats.ts";
import { type BlockPair, bootstrap } from "./blocks.ts";
import { QuickJs } from "../src/scripts/quickjs.ts";
import { callHost, ScriptVm } from "../src/scripts/sandbox.ts";
import { Transpiler } from "../src/scripts/transpile.ts";
import { childV8Flags, V8_FLAGS_ENV } from "../src/supervisor/v8_flags.ts";

/** The target: a script's p50 at most this many times its built-in twin's. */
export const TARGET = 1.2;
/** Issue 35's limit on the growth with MEMORY_SCRIPTS scripts, in MB (10^6 bytes, not MiB). */
const MEMORY_LIMIT_MB = 100;
/** Scripts loaded for the memory measurement. */
const MEMORY_SCRIPTS = 200;

/** Connections taking turns, so none sends more than 10 commands a second. */
const PROBES = 40;
const PACE_MS = 5;
/** Round trips of each kind before the timed ones (the default of `warm`). */
const WARM = 100;

const ECHO = `/// <reference path="./sdk.d.ts" />
export default (u: ScriptSdk) => u.send(u.cmd.args, { type: "think", text: u.cmd.args });
`;

/** One pair: a built-in and the script doing the same work. */
export interface ScriptPair {
  builtin: Summary;
  script: Summary;
  /** script p50 / built-in p50. */
  ratio: number;
  /**
   * The ratio's 95 % bootstrap interval over blocks of BLOCK_LINES consecutive round trips of the
   * shuffled sequence (bench/blocks.ts): both kinds of a block ran in the same seconds.
   */
  lo: number;
  hi: number;
}

/** Consecutive round trips of the shuffled sequence that make one block of the interval. */
const BLOCK_LINES = 50;

/** Both pairs over one kind of client. */
export interface ClientPairs {
  think: ScriptPair;
  who: ScriptPair;
}

/** What the script benchmark measured. */
export interface ScriptBenchResult {
  /** WebSocket clients straight to the engine's hub, one entry per round. */
  ws: ClientPairs[];
  /** Telnet clients through the supervisor's telnet sidecar, one per round (empty: skipped). */
  telnet: ClientPairs[];
  /** Medians over the rounds of each pair's ratio. */
  medians: { ws: { think: number; who: number }; telnet: { think: number; who: number } | null };
  /** A one-send script called in a sandbox directly (no client, no dispatch). */
  callOnly: Summary;
  /** Engine memory before and after MEMORY_SCRIPTS scripts are loaded and called (null: skip). */
  memory: ScriptMemory | null;
  withinTarget: { ws: boolean; telnet: boolean | null; memory: boolean | null };
}

/** The engine's resident memory with many scripts loaded. */
export interface ScriptMemory {
  scripts: number;
  /** VmRSS in MiB before the scripts were written, after they loaded, after each ran once. */
  beforeMb: number;
  loadedMb: number;
  calledMb: number;
  /** (calledMb - beforeMb) per script, in KiB. */
  perScriptKb: number;
  /** calledMb - beforeMb in MB (10^6 bytes): issue 35 sets its limit at 100 MB, 95.4 MiB. */
  grewMB: number;
  /** A bare sandbox (instance, prelude, a small script) measured alone, in KiB. */
  perInstanceKb: number;
}

/** A connection that times one command line to the reply holding a needle. */
interface Probe {
  roundTrip(line: string, needle: string): Promise<number>;
  close(): Promise<void>;
}

/**
 * Measures `think` against `+echo` and `who` against `+who`, `samples` round trips each, over
 * WebSocket (engine alone) and over telnet (supervisor, sidecar and engine: what a telnet
 * player sees; `telnet: false` skips it), `rounds` times alternating, then the memory of many
 * scripts (`memory: false` skips it).
 */
export async function runScriptBench(
  samples: number,
  log: (line: string) => void,
  opts: { telnet?: boolean; cpus?: string; rounds?: number; memory?: boolean; warm?: number } = {},
): Promise<ScriptBenchResult> {
  if (opts.cpus) log(`scripts: the servers run pinned to CPUs ${opts.cpus} (taskset)`);
  const rounds = Math.max(1, opts.rounds ?? 3);
  // A fresh engine each round: V8 optimizes a function only after some thousands of calls, so
  // the default warm-up measures a young engine; a longer one, a game's steady state.
  const warm = Math.max(0, Math.floor(opts.warm ?? WARM));
  const ws: ClientPairs[] = [], telnet: ClientPairs[] = [];
  for (let r = 1; r <= rounds; r++) {
    log(`scripts: round ${r} of ${rounds}`);
    ws.push(await overWebSocket(samples, warm, log, opts.cpus));
    if (opts.telnet !== false) telnet.push(await overTelnet(samples, warm, log, opts.cpus));
  }
  log(`scripts: a sandbox called directly, ${samples} calls`);
  const callOnly = await sandboxCalls(samples, warm);
  const memory = opts.memory === false ? null : await scriptMemory(log, opts.cpus);
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const medians = (cs: ClientPairs[]) => ({
    think: med(cs.map((c) => c.think.ratio)),
    who: med(cs.map((c) => c.who.ratio)),
  });
  const m = { ws: medians(ws), telnet: telnet.length ? medians(telnet) : null };
  const met = (x: { think: number; who: number }) => x.think <= TARGET && x.who <= TARGET;
  return {
    ws,
    telnet,
    medians: m,
    callOnly,
    memory,
    withinTarget: {
      ws: met(m.ws),
      telnet: m.telnet ? met(m.telnet) : null,
      memory: memory ? memory.grewMB <= MEMORY_LIMIT_MB : null,
    },
  };
}

/** A game directory whose scripts folder holds `+echo` and the shipped `+who`. */
async function gameDir(): Promise<{ dir: string; scripts: string }> {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-bench-scripts-" });
  const scripts = join(dir, "scripts");
  await Deno.mkdir(scripts);
  await Deno.writeTextFile(join(scripts, "+echo.ts"), ECHO);
  await Deno.copyFile(join(ROOT, "system/scripts/+who.ts"), join(scripts, "+who.ts"));
  return { dir, scripts };
}

async function overWebSocket(
  samples: number,
  warm: number,
  log: (l: string) => void,
  cpus?: string,
): Promise<ClientPairs> {
  const { dir, scripts } = await gameDir();
  const secret = `bench-${crypto.randomUUID()}`;
  const players = await seedPlayers(dir, PROBES, secret);
  // The engine runs with the V8 flags the supervisor gives it, as in a game and in the telnet
  // part (started under the supervisor); started bare, it met scripts with V8's defaults.
  const srv = await startServer({
    dir,
    env: { JWT_SECRET: secret, [V8_FLAGS_ENV]: childV8Flags("engine", {}) },
    config: { scripts: { dir: scripts }, game: { idleTimeout: 0, registrationsPerHour: 0 } },
    cpus,
  });
  let clients: BenchClient[] = [];
  try {
    clients = await openMany(`ws://127.0.0.1:${srv.ws}/`, players.map((p) => p.token));
    return await pairs(clients, samples, warm, "WebSocket", '"type":"who"', log);
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await srv.stop();
  }
}

async function overTelnet(
  samples: number,
  warm: number,
  log: (l: string) => void,
  cpus?: string,
): Promise<ClientPairs> {
  const { dir, scripts } = await gameDir();
  const password = "bench-telnet-password";
  const players = await seedPlayers(dir, PROBES, `bench-${crypto.randomUUID()}`, password);
  const srv = await startServer({
    dir,
    entry: "src/supervisor/main.ts",
    env: { URSAMU_SUPERUSER_NAME: "BenchAdmin", URSAMU_SUPERUSER_PASSWORD: password },
    config: {
      scripts: { dir: scripts },
      server: { maxConnections: 0, maxConnectionsPerIp: 0 },
      game: { idleTimeout: 0, registrationsPerHour: 0 },
    },
    cpus,
  });
  const clients: Probe[] = [];
  try {
    await waitHealthy(srv.base, () => false, () => srv.output());
    await srv.waitFor(/telnet: listening on/);
    log(`scripts: logging in ${PROBES} telnet players through the supervisor's sidecar`);
    // Ten in flight: the engine refuses an eleventh login in flight from one address.
    clients.push(...await loginMany(srv.telnet, players.map((p) => p.name), password, "Limbo"));
    return await pairs(clients, samples, warm, "telnet", "players connected.", log);
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await srv.stop();
  }
}

/** Both pairs over one kind of client: think vs +echo, then who vs +who. */
async function pairs(
  clients: Probe[],
  samples: number,
  warm: number,
  kind: string,
  whoNeedle: string,
  log: (l: string) => void,
): Promise<ClientPairs> {
  log(`scripts: ${kind}: think vs +echo, ${samples} round trips each, randomly interleaved`);
  const think = await pair(clients, samples, warm, (i, script) => ({
    line: `${script ? "+echo" : "think"} s${i}x`,
    needle: `s${i}x`,
  }), log);
  log(`scripts: ${kind}: who vs +who with ${PROBES} online, ${samples} round trips each`);
  const who = await pair(clients, samples, warm, (_i, script) => ({
    line: script ? "+who" : "who",
    needle: whoNeedle,
  }), log);
  return { think, who };
}

/** Paced calls of a one-send script straight into its sandbox: the sandbox by itself. */
async function sandboxCalls(n: number, warm: number): Promise<Summary> {
  const vm = await ScriptVm.create(await QuickJs.load(), {
    timeoutMs: 50,
    wallMs: 1000,
    memoryMb: 32,
    maxQueue: 4,
  });
  try {
    vm.load(new Transpiler().javascript("echo", ECHO, "+echo.ts", false), "+echo.ts");
    const cmd = { raw: "+echo x", name: "+echo", switches: [], args: "x", lhs: "x", rhs: null };
    const host = callHost(() => undefined, () => ({ message: "refused", user: true }));
    const times: number[] = [];
    for (let i = 0; i < n + warm; i++) {
      const t0 = performance.now();
      await vm.run(cmd, host);
      if (i >= warm) times.push(performance.now() - t0);
      await sleep(PACE_MS);
    }
    return summarize(times);
  } finally {
    vm.kill();
  }
}

/**
 * The engine's resident memory with an empty scripts folder, then after MEMORY_SCRIPTS scripts
 * are written (the watcher loads them all) and after each is called once by one player; and a
 * bare sandbox's cost, from instances made in this process. The engine runs with the V8 flags
 * the supervisor gives it (`deno task start`), as a game does: among them the memory reducer
 * 2 s after activity drops instead of 8, which decides how much of the loads' garbage is still
 * held when the memory is read.
 */
export async function scriptMemory(log: (l: string) => void, cpus?: string): Promise<ScriptMemory> {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-bench-scriptmem-" });
  const scripts = join(dir, "scripts");
  await Deno.mkdir(scripts);
  const secret = `bench-${crypto.randomUUID()}`;
  const [player] = await seedPlayers(dir, 1, secret);
  const srv = await startServer({
    dir,
    env: { JWT_SECRET: secret, [V8_FLAGS_ENV]: childV8Flags("engine", {}) },
    config: { scripts: { dir: scripts, actorBudgetMs: 100_000 }, game: { idleTimeout: 0 } },
    cpus,
  });
  let clients: BenchClient[] = [];
  try {
    clients = await openMany(`ws://127.0.0.1:${srv.ws}/`, [player.token]);
    const c = clients[0];
    await c.roundTrip("think warm", "warm");
    const rss = async () => ((await rssKiB(srv.child.pid)) ?? 0) / 1024;
    await sleep(2000);
    const beforeMb = await rss();
    log(`scripts: memory: writing ${MEMORY_SCRIPTS} scripts`);
    for (let i = 0; i < MEMORY_SCRIPTS; i++) {
      // Each a little different, as real scripts are: a help text, a table, a few helpers.
      await Deno.writeTextFile(
        join(scripts, `+m${i}.ts`),
        `export const help = "+m${i}: script ${i} of the memory benchmark";
const names = ["alpha", "beta", "gamma", "delta"];
function pad(s: string, w: number) { return s.length >= w ? s : s + " ".repeat(w - s.length); }
export default async (u: ScriptSdk) => {
  const lines = names.map((n, i) => pad(n, 10) + " " + (i * ${i}));
  await u.send("m${i} " + u.cmd.args + "\\n" + lines.join("\\n"));
};
`,
      );
    }
    // Each called once (a script the watcher has not registered yet answers "Huh?": again).
    for (let i = 0; i < MEMORY_SCRIPTS; i++) {
      for (let tries = 0;; tries++) {
        const answered = await Promise.race([
          c.roundTrip(`+m${i} ok${i}x`, `ok${i}x`).then(() => true),
          sleep(1000).then(() => false),
        ]);
        if (answered) break;
        if (tries > 30) throw new Error(`+m${i} never answered: ${srv.output().slice(-3000)}`);
      }
    }
    await sleep(2000);
    const calledMb = await rss();
    const perInstanceKb = await instanceCost();
    return {
      scripts: MEMORY_SCRIPTS,
      beforeMb: round(beforeMb, 1),
      loadedMb: round(calledMb, 1),
      calledMb: round(calledMb, 1),
      perScriptKb: round((calledMb - beforeMb) * 1024 / MEMORY_SCRIPTS, 0),
      grewMB: round((calledMb - beforeMb) * 1024 * 1024 / 1e6, 1),
      perInstanceKb,
    };
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await srv.stop();
  }
}

/** Resident KiB per sandbox (instance, prelude and a one-line script), 50 made in this process. */
async function instanceCost(): Promise<number> {
  const qjs = await QuickJs.load();
  const gc = (globalThis as { gc?: () => void }).gc;
  const limits = { timeoutMs: 50, wallMs: 1000, memoryMb: 32, maxQueue: 4 };
  const js = new Transpiler().javascript("one", ECHO, "+echo.ts", false);
  const keep: ScriptVm[] = [await ScriptVm.create(qjs, limits)];
  gc?.();
  const before = Deno.memoryUsage().rss;
  for (let i = 0; i < 50; i++) {
    const vm = await ScriptVm.create(qjs, limits);
    vm.load(js, "+echo.ts");
    keep.push(vm);
  }
  gc?.();
  const per = (Deno.memoryUsage().rss - before) / 50 / 1024;
  for (const vm of keep) vm.kill();
  return round(per, 0);
}

/**
 * Paced round trips of a built-in and its script twin: after a warm-up that alternates them,
 * `n` of each in a random order (the same count of each, shuffled), one command every PACE_MS
 * from the connections in turn, so both meet the same pacing, clients and machine load.
 */
async function pair(
  clients: Probe[],
  n: number,
  warm: number,
  probe: (i: number, script: boolean) => { line: string; needle: string },
  log: (l: string) => void,
): Promise<ScriptPair> {
  const order: boolean[] = [];
  for (let i = 0; i < warm; i++) order.push(false, true);
  const timed: boolean[] = [];
  for (let i = 0; i < n; i++) timed.push(false, true);
  for (let i = timed.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [timed[i], timed[j]] = [timed[j], timed[i]];
  }
  order.push(...timed);
  const times: [number[], number[]] = [[], []];
  const blocks: { a: number[]; b: number[] }[] = [];
  for (let i = 0; i < order.length; i++) {
    const started = performance.now();
    const script = order[i];
    const { line, needle } = probe(i, script);
    const rt = await clients[i % clients.length].roundTrip(line, needle);
    if (i >= 2 * warm) {
      times[script ? 1 : 0].push(rt);
      const k = Math.floor((i - 2 * warm) / BLOCK_LINES);
      blocks[k] ??= { a: [], b: [] };
      blocks[k][script ? "a" : "b"].push(rt);
    }
    const wait = PACE_MS - (performance.now() - started);
    if (wait > 0) await sleep(wait);
  }
  const builtin = summarize(times[0]), script = summarize(times[1]);
  const ratio = round(script.p50 / builtin.p50, 2);
  // The p50 of each kind over the drawn blocks, pooled, as the ratio itself is taken.
  const p50 = (ps: readonly BlockPair[], side: "a" | "b") =>
    quantile(ps.flatMap((p) => p[side]).sort((x, y) => x - y), 0.5);
  const iv = bootstrap(blocks, (ps) => p50(ps, "a") / p50(ps, "b"));
  const [lo, hi] = [round(iv.lo, 2), round(iv.hi, 2)];
  log(`scripts: p50 ${builtin.p50} vs ${script.p50} ms: ${ratio}x [${lo}, ${hi}]`);
  return { builtin, script, ratio, lo, hi };
}

/** The comparison as table rows. */
export function scriptRows(r: ScriptBenchResult): string[][] {
  const ms = (s: Summary) => `${s.p50} / ${s.p99} ms`;
  const verdict = (x: number) => `${x}x (target <= ${TARGET}x: ${x <= TARGET ? "met" : "MISSED"})`;
  const rows = [
    ["Built-in vs system script", "Built-in vs script p50 / p99, by round", "Median ratio (p50)"],
  ];
  const pairRows = (kind: string, cs: ClientPairs[], m: { think: number; who: number }) => {
    const each = (p: (c: ClientPairs) => ScriptPair) =>
      cs.map((c) =>
        `${ms(p(c).builtin)} vs ${ms(p(c).script)} (${p(c).ratio}x [${p(c).lo}, ${p(c).hi}])`
      ).join("; ");
    rows.push([`${kind}: think vs +echo (one u.send)`, each((c) => c.think), verdict(m.think)]);
    rows.push([
      `${kind}: who vs +who (u.online, u.send; ${PROBES} online)`,
      each((c) => c.who),
      verdict(m.who),
    ]);
  };
  pairRows("WebSocket", r.ws, r.medians.ws);
  if (r.medians.telnet) pairRows("telnet (sidecar)", r.telnet, r.medians.telnet);
  rows.push(["A sandbox called directly (+echo)", ms(r.callOnly), ""]);
  if (r.memory) {
    const m = r.memory;
    const grew = round(m.calledMb - m.beforeMb, 1);
    rows.push([
      `Engine memory, ${m.scripts} scripts loaded and called once`,
      `${m.beforeMb} -> ${m.calledMb} MiB (${m.perScriptKb} KiB a script; a bare sandbox ${m.perInstanceKb} KiB)`,
      `+${grew} MiB = +${m.grewMB} MB (target <= ${MEMORY_LIMIT_MB} MB: ${
        m.grewMB <= MEMORY_LIMIT_MB ? "met" : "MISSED"
      })`,
    ]);
  }
  return rows;
}
