/**
 * System scripts against the built-in commands (docs/bench.md, docs/scripts.md): a game whose
 * scripts folder holds `+echo` (what `think` does, as a script) and the shipped `+who`
 * example, reached over WebSocket (the engine alone) and over telnet (supervisor, sidecar and
 * engine). Paced round trips of each script and its built-in twin are randomly interleaved,
 * so both see the same pacing, clients and load. Target: a script's p50 within 1.5x of the
 * built-in's.
 */
import { join } from "node:path";
import { ROOT, startServer, waitHealthy } from "../tests/harness.ts";
import { seedPlayers } from "./seed.ts";
import { type BenchClient, openMany } from "./client.ts";
import { loginMany } from "./telnet_client.ts";
import { round, sleep, summarize, type Summary } from "./stats.ts";
import { ScriptPool } from "../src/scripts/pool.ts";

/** Connections taking turns, so none sends more than 10 commands a second. */
const PROBES = 40;
const PACE_MS = 5;
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
}

/** Both pairs over one kind of client. */
export interface ClientPairs {
  think: ScriptPair;
  who: ScriptPair;
}

/** What the script benchmark measured. */
export interface ScriptBenchResult {
  /** WebSocket clients straight to the engine's hub. */
  ws: ClientPairs;
  /** Telnet clients through the supervisor's telnet sidecar (null when skipped). */
  telnet: ClientPairs | null;
  callOnly: Summary;
  within1_5x: { ws: boolean; telnet: boolean | null };
}

/** A connection that times one command line to the reply holding a needle. */
interface Probe {
  roundTrip(line: string, needle: string): Promise<number>;
  close(): Promise<void>;
}

/**
 * Measures `think` against `+echo` and `who` against `+who`, `samples` round trips each, over
 * WebSocket (engine alone) and over telnet (supervisor, sidecar and engine: what a telnet
 * player sees; `telnet: false` skips it).
 */
export async function runScriptBench(
  samples: number,
  log: (line: string) => void,
  opts: { telnet?: boolean; cpus?: string } = {},
): Promise<ScriptBenchResult> {
  if (opts.cpus) log(`scripts: the servers run pinned to CPUs ${opts.cpus} (taskset)`);
  const ws = await overWebSocket(samples, log, opts.cpus);
  const telnet = opts.telnet === false ? null : await overTelnet(samples, log, opts.cpus);
  log(`scripts: the sandbox call alone, ${samples} calls`);
  const callOnly = await sandboxCalls(samples);
  const met = (c: ClientPairs) => c.think.ratio <= 1.5 && c.who.ratio <= 1.5;
  return {
    ws,
    telnet,
    callOnly,
    within1_5x: { ws: met(ws), telnet: telnet ? met(telnet) : null },
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
  log: (l: string) => void,
  cpus?: string,
): Promise<ClientPairs> {
  const { dir, scripts } = await gameDir();
  const secret = `bench-${crypto.randomUUID()}`;
  const players = await seedPlayers(dir, PROBES, secret);
  const srv = await startServer({
    dir,
    env: { JWT_SECRET: secret },
    config: { scripts: { dir: scripts }, game: { idleTimeout: 0, registrationsPerHour: 0 } },
    cpus,
  });
  let clients: BenchClient[] = [];
  try {
    clients = await openMany(`ws://127.0.0.1:${srv.ws}/`, players.map((p) => p.token));
    return await pairs(clients, samples, "WebSocket", '"type":"who"', log);
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await srv.stop();
  }
}

async function overTelnet(
  samples: number,
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
    return await pairs(clients, samples, "telnet", "players connected.", log);
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await srv.stop();
  }
}

/** Both pairs over one kind of client: think vs +echo, then who vs +who. */
async function pairs(
  clients: Probe[],
  samples: number,
  kind: string,
  whoNeedle: string,
  log: (l: string) => void,
): Promise<ClientPairs> {
  log(`scripts: ${kind}: think vs +echo, ${samples} round trips each, randomly interleaved`);
  const think = await pair(clients, samples, (i, script) => ({
    line: `${script ? "+echo" : "think"} s${i}x`,
    needle: `s${i}x`,
  }));
  log(`scripts: ${kind}: who vs +who with ${PROBES} online, ${samples} round trips each`);
  const who = await pair(clients, samples, (_i, script) => ({
    line: script ? "+who" : "who",
    needle: whoNeedle,
  }));
  return { think, who };
}

/** Paced calls of a one-send script straight through a pool: the process hop by itself. */
async function sandboxCalls(n: number): Promise<Summary> {
  const pool = new ScriptPool(
    { size: 1, timeoutMs: 2000, heapMb: 64, rssMb: 300 },
    () => ({ message: "refused", user: true }),
  );
  try {
    const src = { key: "echo@1", label: "+echo.ts", js: false, src: ECHO };
    await pool.load(src);
    const ctx = { me: { id: "1", name: "Bench" }, here: null, cmd: { args: "x" }, args: [] };
    const times: number[] = [];
    for (let i = 0; i < n + WARM; i++) {
      const t0 = performance.now();
      await pool.run(src, ctx, () => Promise.resolve(undefined));
      if (i >= WARM) times.push(performance.now() - t0);
      await sleep(PACE_MS);
    }
    return summarize(times);
  } finally {
    await pool.close();
  }
}

/**
 * Paced round trips of a built-in and its script twin: after a warm-up that alternates them,
 * `n` of each in a random order (the same count of each, shuffled), one command every PACE_MS
 * from the connections in turn, so both meet the same pacing, clients and machine load.
 */
async function pair(
  clients: Probe[],
  n: number,
  probe: (i: number, script: boolean) => { line: string; needle: string },
): Promise<ScriptPair> {
  const order: boolean[] = [];
  for (let i = 0; i < WARM; i++) order.push(false, true);
  const timed: boolean[] = [];
  for (let i = 0; i < n; i++) timed.push(false, true);
  for (let i = timed.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [timed[i], timed[j]] = [timed[j], timed[i]];
  }
  order.push(...timed);
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < order.length; i++) {
    const started = performance.now();
    const script = order[i];
    const { line, needle } = probe(i, script);
    const rt = await clients[i % clients.length].roundTrip(line, needle);
    if (i >= 2 * WARM) times[script ? 1 : 0].push(rt);
    const wait = PACE_MS - (performance.now() - started);
    if (wait > 0) await sleep(wait);
  }
  const builtin = summarize(times[0]), script = summarize(times[1]);
  return { builtin, script, ratio: round(script.p50 / builtin.p50, 2) };
}

/** The comparison as table rows. */
export function scriptRows(r: ScriptBenchResult): string[][] {
  const ms = (s: Summary) => `${s.p50} / ${s.p99} ms`;
  const row = (what: string, p: ScriptPair) => [
    what,
    `${ms(p.builtin)} vs ${ms(p.script)}`,
    `${p.ratio}x (target <= 1.5x: ${p.ratio <= 1.5 ? "met" : "MISSED"})`,
  ];
  const rows = [
    ["Built-in vs system script, p50 / p99", "Built-in vs script", "Script / built-in (p50)"],
    row("WebSocket: think vs +echo (one u.send)", r.ws.think),
    row(`WebSocket: who vs +who (u.online, u.send; ${PROBES} online)`, r.ws.who),
  ];
  if (r.telnet) {
    rows.push(
      row("telnet (sidecar): think vs +echo", r.telnet.think),
      row(`telnet (sidecar): who vs +who (${PROBES} online)`, r.telnet.who),
    );
  }
  rows.push(["Sandbox call alone (engine <-> script process)", ms(r.callOnly), ""]);
  return rows;
}
