/**
 * One sitting of the speed targets of issues 36, 38 and 35 (docs/bench.md, "An interleaved
 * per-line CPU measure"): the seven softcode expressions and SGP's `+who` and `$+ping` against
 * TinyMUX 2.12 by the interleaved measure (bench/line_cpu.ts `runInterleaved`: both servers up and
 * warm, short blocks alternating between them), then the system scripts against their built-in
 * twins on one engine (bench/scripts.ts: round trips already interleaved line by line). Writes
 * one JSON and a readable table into `--out`.
 *
 *   taskset -c 1 deno run --unstable-kv -A --v8-flags=--expose-gc bench/sitting.ts \
 *     --out /tmp/sitting [--parts softcode,sgp,scripts]
 *
 * Run it from the project root, under `flock -o /tmp/ursamu-bench.lock`; the servers run on CPU
 * 0 (`--server-cpus`). With the defaults it takes about 25 minutes on a quiet machine.
 *
 * Options (each takes a value): --out DIR (default a new temporary directory), --parts LIST (of
 * softcode, sgp, scripts; default all three), --shared DIR (the shared driver's directory with
 * tinymux.sh, default ../shared/bench), --server-cpus LIST (default 0), --softcode-blocks N (block
 * pairs a case, default 24), --softcode-block-pairs N (pairs a block, default 40),
 * --softcode-warmup N (pairs of each case on each server before the blocks, default 300),
 * --sgp-blocks N (default 20), --sgp-block-pairs N (default 30), --sgp-warmup N (default 1000),
 * --sgp FILE (SGP's installer, default tests/fixtures/softcode-packages/SGP-Installer.txt),
 * --sgp-exprs FILE (SGP's cases from the file instead of `+ping` and `+who`: bench/sgp_who.ts
 * `--exprs`; bench/sgp_pieces.txt takes `+who` apart),
 * --script-samples N (round trips of each kind a round, default 500), --script-rounds N (fresh
 * engines, WebSocket then telnet, default 3), --self-check 1 (the engine against itself in the
 * second slot instead of TinyMUX, for softcode and sgp: every ratio should read 1.0). --help
 * prints this text.
 */
import { join } from "node:path";
import {
  INTERLEAVED_DEFAULTS,
  runSoftcodeBench,
  SHARED_BENCH,
  softcodeReport,
} from "./softcode.ts";
import { readExprs, runSgpWho, sgpOptions, sgpReport } from "./sgp_who.ts";
import { runScriptBench, scriptRows } from "./scripts.ts";
import { table } from "./stats.ts";
import { toolOptions } from "./usage.ts";

/** The command line's options (each takes a value). */
export const SITTING_OPTIONS = [
  "out",
  "parts",
  "shared",
  "server-cpus",
  "softcode-blocks",
  "softcode-block-pairs",
  "softcode-warmup",
  "sgp-blocks",
  "sgp-block-pairs",
  "sgp-warmup",
  "sgp",
  "sgp-exprs",
  "script-samples",
  "script-rounds",
  "self-check",
];

/** The parts a sitting can run. */
const PARTS = ["softcode", "sgp", "scripts"];

async function main(): Promise<void> {
  const a = await toolOptions(import.meta.url, SITTING_OPTIONS);
  if (!a) return;
  const parts = (a.parts ?? PARTS.join(",")).split(",");
  if (!parts.every((p) => PARTS.includes(p))) throw new Error(`--parts takes ${PARTS}`);
  const num = (v: string | undefined, d: number, min = 1) =>
    Math.max(min, Math.floor(Number(v ?? d)));
  const out = a.out ?? await Deno.makeTempDir({ prefix: "ursamu-sitting-" });
  await Deno.mkdir(out, { recursive: true });
  const shared = a.shared ?? SHARED_BENCH;
  const cpus = a["server-cpus"] ?? "0";
  const selfCheck = a["self-check"] === "1";
  const started = new Date();
  const text: string[] = [];
  const log = (l: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${l}`);
  const load = async () => (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3);
  const result: Record<string, unknown> = { started: started.toISOString(), load: [await load()] };
  const save = async () => {
    result.finished = new Date().toISOString();
    await Deno.writeTextFile(join(out, "sitting.json"), JSON.stringify(result, null, 2) + "\n");
    await Deno.writeTextFile(join(out, "sitting.txt"), text.join("\n\n") + "\n");
  };
  if (parts.includes("softcode")) {
    const [r] = await runSoftcodeBench({
      iters: 0,
      runs: 1,
      driver: join(shared, "telnet_bench.ts"),
      driverCpus: "",
      tinymux: join(shared, "tinymux.sh"),
      serverCpus: cpus,
      methods: ["interleaved"],
      blocks: num(a["softcode-blocks"], INTERLEAVED_DEFAULTS.blocks),
      blockPairs: num(a["softcode-block-pairs"], INTERLEAVED_DEFAULTS.blockPairs),
      warmup: num(a["softcode-warmup"], INTERLEAVED_DEFAULTS.warmup, 0),
      selfCheck,
    }, log);
    result.softcode = r;
    result.load = [...result.load as string[][], await load()];
    text.push(`softcode (issue 36), µs of server CPU beyond a plain think:\n${softcodeReport(r)}`);
    await save();
  }
  if (parts.includes("sgp")) {
    const o = sgpOptions({
      sgp: a.sgp,
      "server-cpus": cpus,
      tinymux: join(shared, "tinymux.sh"),
      method: "interleaved",
      blocks: a["sgp-blocks"],
      "block-pairs": a["sgp-block-pairs"],
      warmup: a["sgp-warmup"],
      "self-check": selfCheck ? "1" : "0",
    }, a["sgp-exprs"] ? await readExprs(a["sgp-exprs"]) : null);
    const r = await runSgpWho(o, log);
    result.sgp = r;
    result.load = [...result.load as string[][], await load()];
    text.push(`SGP (issue 38 item 10), µs of server CPU beyond a plain think:\n${sgpReport(r)}`);
    await save();
  }
  if (parts.includes("scripts")) {
    const r = await runScriptBench(num(a["script-samples"], 500), log, {
      cpus,
      rounds: num(a["script-rounds"], 3),
      memory: false,
    });
    result.scripts = r;
    result.load = [...result.load as string[][], await load()];
    text.push(`scripts (issue 35), round trips on one engine:\n${table(scriptRows(r))}`);
  }
  await save();
  console.log("\n" + text.join("\n\n") + "\n");
  log(`wrote ${join(out, "sitting.json")} and sitting.txt`);
}

if (import.meta.main) await main();
