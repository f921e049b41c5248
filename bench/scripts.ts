/**
 * System scripts against the built-in commands (docs/bench.md, docs/scripts.md): one engine
 * with a scripts folder holding `+echo` (what `think` does, as a script) and the shipped
 * `+who` example; paced round trips alternate between each script and its built-in twin so
 * both see the same load. Target: a script's p50 within 1.5x of the built-in's.
 */
import { join } from "node:path";
import { ROOT, startServer } from "../tests/harness.ts";
import { seedPlayers } from "./seed.ts";
import { type BenchClient, openMany } from "./client.ts";
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

/** Measures `think` against `+echo` and `who` against `+who`, `samples` round trips each. */
export async function runScriptBench(
  samples: number,
  log: (line: string) => void,
): Promise<{ think: ScriptPair; who: ScriptPair; callOnly: Summary; within1_5x: boolean }> {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-bench-scripts-" });
  const scripts = join(dir, "scripts");
  await Deno.mkdir(scripts);
  await Deno.writeTextFile(join(scripts, "+echo.ts"), ECHO);
  await Deno.copyFile(join(ROOT, "system/scripts/+who.ts"), join(scripts, "+who.ts"));
  const secret = `bench-${crypto.randomUUID()}`;
  const players = await seedPlayers(dir, PROBES, secret);
  const srv = await startServer({
    dir,
    env: { JWT_SECRET: secret },
    config: { scripts: { dir: scripts }, game: { idleTimeout: 0 } },
  });
  let clients: BenchClient[] = [];
  try {
    clients = await openMany(`ws://127.0.0.1:${srv.ws}/`, players.map((p) => p.token));
    log(`scripts: think vs +echo, ${samples} round trips each`);
    const think = await pair(clients, samples, (i, script) => ({
      line: `${script ? "+echo" : "think"} s${i}x`,
      needle: `s${i}x`,
    }));
    log(`scripts: who vs +who with ${PROBES} online, ${samples} round trips each`);
    const who = await pair(clients, samples, (_i, script) => ({
      line: script ? "+who" : "who",
      needle: '"type":"who"',
    }));
    log(`scripts: the sandbox call alone, ${samples} calls`);
    const callOnly = await sandboxCalls(samples);
    return { think, who, callOnly, within1_5x: think.ratio <= 1.5 && who.ratio <= 1.5 };
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await srv.stop();
  }
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

async function pair(
  clients: BenchClient[],
  n: number,
  probe: (i: number, script: boolean) => { line: string; needle: string },
): Promise<ScriptPair> {
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < 2 * (n + WARM); i++) {
    const started = performance.now();
    const script = i % 2 === 1;
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
export function scriptRows(r: Awaited<ReturnType<typeof runScriptBench>>): string[][] {
  const ms = (s: Summary) => `${s.p50} / ${s.p99} ms`;
  const row = (what: string, p: ScriptPair) => [
    what,
    `${ms(p.builtin)} vs ${ms(p.script)}`,
    `${p.ratio}x (target <= 1.5x: ${p.ratio <= 1.5 ? "met" : "MISSED"})`,
  ];
  return [
    ["Built-in vs system script, p50 / p99", "Built-in vs script", "Script / built-in (p50)"],
    row("think vs +echo (one u.send)", r.think),
    row(`who vs +who (u.online, u.send; ${PROBES} online)`, r.who),
    ["Sandbox call alone (engine <-> script process)", ms(r.callOnly), ""],
  ];
}
