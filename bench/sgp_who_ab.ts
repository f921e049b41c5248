/**
 * Two checkouts' SGP `+who` listing in one process, their rounds interleaved (docs/bench.md,
 * issue 38 item 10): each tree's bench/sgp_who_eval.ts builds its own in-memory engine with SGP
 * installed, and rounds of listings alternate between them, so load on the machine falls on both
 * alike. Prints each one's median CPU per listing and the median of the per-round ratios B/A.
 *
 *   DENO_NO_PACKAGE_JSON=1 deno run -A --unstable-kv --config deno.json bench/sgp_who_ab.ts \
 *     <tree A> <tree B> [--rounds 40] [--iters 200] \
 *     [--sgp tests/fixtures/softcode-packages/SGP-Installer.txt] [--gap-ms 5]
 *
 * `--gap-ms` pauses that long before each listing (as the server's paced listings come), the two
 * trees taking turns listing by listing, and times each listing alone (a round's figure is the
 * median of its listings).
 *
 * `--expr TEXT` evaluates TEXT in the listing's place in both (bench/sgp_who_eval.ts `--expr`).
 *
 * Each tree needs node_modules and the same bench/sgp_who_eval.ts (`sgpWorld`).
 */
import { parseArgs } from "node:util";
import { resolve } from "node:path";
import process from "node:process";

/** CPU time of this thread in µs. */
function cpuUs(): number {
  return Number(Deno.readTextFileSync("/proc/thread-self/schedstat").split(" ")[0]) / 1000;
}

function median(xs: number[]): number {
  return [...xs].sort((x, y) => x - y)[xs.length >> 1];
}

const { values, positionals } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: {
    sgp: { type: "string", default: "tests/fixtures/softcode-packages/SGP-Installer.txt" },
    rounds: { type: "string", default: "40" },
    iters: { type: "string", default: "200" },
    "gap-ms": { type: "string", default: "0" },
    expr: { type: "string" },
  },
});
if (positionals.length !== 2) throw new Error("give two trees: A and B");
const sgp = resolve(values.sgp!);
const worlds = [];
for (const tree of positionals) {
  const m = await import(`file://${resolve(tree)}/bench/sgp_who_eval.ts`);
  worlds.push(await m.sgpWorld(sgp, 30, values.expr ?? null));
}
for (const w of worlds) for (let i = 0; i < 300; i++) w.evaluate(i);
const per: number[][] = [[], []];
const iters = Number(values.iters);
const gapMs = Number(values["gap-ms"]);
for (let r = 0; r < Number(values.rounds) && gapMs > 0; r++) {
  const one: number[][] = [[], []];
  for (let i = 0; i < iters; i++) {
    for (const k of (r + i) % 2 ? [1, 0] : [0, 1]) {
      await new Promise((ok) => setTimeout(ok, gapMs));
      // The process's CPU (getrusage): the thread's scheduler count is not brought up to date
      // while it runs, and one listing is shorter than its tick.
      const c0 = process.cpuUsage();
      worlds[k].evaluate(i);
      const c = process.cpuUsage(c0);
      one[k].push(c.user + c.system);
    }
  }
  per[0].push(median(one[0]));
  per[1].push(median(one[1]));
}
for (let r = 0; r < Number(values.rounds) && gapMs === 0; r++) {
  for (const k of r % 2 ? [1, 0] : [0, 1]) {
    const c0 = cpuUs();
    for (let i = 0; i < iters; i++) worlds[k].evaluate(i);
    per[k].push((cpuUs() - c0) / iters);
  }
}
const ratios = per[0].map((a, i) => per[1][i] / a);
console.log(
  `A ${median(per[0]).toFixed(0)} µs, B ${median(per[1]).toFixed(0)} µs a listing; B/A ${
    median(ratios).toFixed(3)
  } (per round ${Math.min(...ratios).toFixed(2)} to ${Math.max(...ratios).toFixed(2)})`,
);
for (const w of worlds) await w.w.close();
