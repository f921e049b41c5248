/**
 * `deno task fuzz`: fuzzes a real server (REST, WebSocket, telnet, raw connections) for a
 * bounded time and exits 1 when anything failed. Options (or the environment):
 *   --seconds N   (FUZZ_SECONDS, default 60)  how long to fuzz
 *   --seed N      (FUZZ_SEED, default random) replays a run's cases
 *   --hang-ms N   (FUZZ_HANG_MS, default 15000) bound for one request or command
 *   --only a,b    workers: rest, ws, staff, anon, telnet, raw, flood
 *   --out DIR     also write the report and large request bodies there
 */
import { parseArgs } from "node:util";
import { randomSeed } from "./rng.ts";
import { formatReport, runFuzz, saveReport, type WorkerKind, WORKERS } from "./run.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    seconds: { type: "string", short: "s" },
    seed: { type: "string" },
    "hang-ms": { type: "string" },
    only: { type: "string" },
    out: { type: "string" },
  },
});

function num(v: string | undefined, env: string, fallback: number): number {
  const raw = v ?? Deno.env.get(env);
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) {
    console.error(`fuzz: ${env.toLowerCase()} must be a number, got '${raw}'`);
    Deno.exit(2);
  }
  return n;
}

const seconds = num(values.seconds, "FUZZ_SECONDS", 60);
const seed = num(values.seed, "FUZZ_SEED", randomSeed()) >>> 0;
const hangMs = num(values["hang-ms"], "FUZZ_HANG_MS", 15_000);
let workers: WorkerKind[] | undefined;
if (values.only) {
  workers = values.only.split(",").map((w) => w.trim()) as WorkerKind[];
  const bad = workers.filter((w) => !WORKERS.includes(w));
  if (bad.length) {
    console.error(`fuzz: unknown worker ${bad.join(", ")} (known: ${WORKERS.join(", ")})`);
    Deno.exit(2);
  }
}

console.log(`fuzz: seed ${seed} (replay with: deno task fuzz --seed ${seed} --seconds ${seconds})`);
const report = await runFuzz({ seconds, seed, hangMs, workers, progress: (l) => console.log(l) });
console.log("\n" + formatReport(report));
if (values.out) {
  await saveReport(report, values.out);
  console.log(`fuzz: report written to ${values.out}`);
}
Deno.exit(report.failures.length ? 1 : 0);
