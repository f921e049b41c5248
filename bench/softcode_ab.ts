/**
 * Two trees' softcode evaluators in one process, paced as the server's lines are: one of
 * bench/softcode.ts's expressions as a typed line (`bench<n> [null(<expr>)]`) on each, the two
 * alternating ABBA with a pause before every line, each line's wall time read around it. The
 * figure is the per-pair difference (B − A): its median and its mean with a 95 % margin. Each
 * line finds the other tree's work in the cache, as a server's line finds other work, which makes
 * the paced figure close to the server's by pairs (docs/bench.md, 2026-11-30 u() chain). An A/A
 * run (the same tree twice) shows the order's bias.
 *
 *   DENO_NO_PACKAGE_JSON=1 deno run -A bench/softcode_ab.ts --a /tmp/main-copy --b . \
 *     [--only "u() chain"] [--iters 1000] [--gap-ms 5] [--plain-a] [--expr TEXT]
 *
 * `--expr`: this expression (`LIB` standing for the library's dbref) instead of a named one, to
 * take a line apart (the chain on a register with one call left out: docs/bench.md, 2026-11-30).
 * `--plain-a`: A's lines are plain (`bench<n>`), so B − A is the expression's cost beyond a plain
 * line, on tree B alone (give the same tree twice). Run it from a tree whose deno.json resolves
 * both trees' imports (this one).
 * `--evict-mb N`: before each line, instead of the pause, write one byte in every 64 of an N MB
 * buffer (64: past this host's last-level cache), so each line finds the caches as a paced one
 * does whatever else the machine runs: its figures spread far less than paced ones under load
 * (docs/bench.md, 2026-11-30 "the registers written in place").
 */
import { parseArgs } from "node:util";
import { resolve } from "node:path";

const { values } = parseArgs({
  options: {
    a: { type: "string" },
    b: { type: "string" },
    only: { type: "string", default: "u() chain" },
    iters: { type: "string", default: "1000" },
    "gap-ms": { type: "string", default: "5" },
    "plain-a": { type: "boolean", default: false },
    expr: { type: "string" },
    "evict-mb": { type: "string", default: "0" },
  },
});
if (!values.a || !values.b) throw new Error("--a and --b name the two trees' roots");
const iters = Number(values.iters), gap = Number(values["gap-ms"]);

/** One tree's engine with bench/softcode_cpu.ts's library: its line for the expression. */
async function side(root: string, plain: boolean): Promise<() => number> {
  const at = (path: string) => "file://" + resolve(root, path);
  const { testSoftcode } = await import(at("src/softcode/_test_world.ts"));
  const { TOP_FLAGS } = await import(at("src/softcode/eval.ts"));
  const { library, SOFTCODE_EXPRS } = await import(at("bench/softcode.ts"));
  const { world, sc, wiz, room } = testSoftcode({ actorMs: 1e9, gameMs: 1e9, evaluationMs: 1e9 });
  const lib = world.add("SoftLib", "thing", { owner: wiz, flags: ["visual"] });
  const data = library();
  world.set(lib, "WORDS", data.words, ["visual"]);
  world.set(lib, "NUMS", data.nums, ["visual"]);
  world.set(lib, "TEXT", data.text, ["visual"]);
  for (let i = 0; i < 19; i++) world.set(lib, `U${i}`, `[u(#${lib}/U${i + 1},%0)]`, ["visual"]);
  world.set(lib, "U19", "[add(%0,1)]", ["visual"]);
  const reader = world.add("Reader", "player", { location: room });
  const req = { executor: reader, enactor: reader, flags: TOP_FLAGS, typed: true };
  const wanted = values.only!.toLowerCase();
  const e = values.expr !== undefined
    ? { expr: values.expr }
    : (SOFTCODE_EXPRS as { name: string; expr: string }[])
      .find((x) => x.name.toLowerCase().includes(wanted));
  if (!e) throw new Error(`no expression named like ${values.only}`);
  const body = e.expr.replaceAll("LIB", "#" + lib);
  let n = 0;
  return () => {
    const text = plain ? `bench${n++}` : `bench${n++} [null(${body})]`;
    // A typed line's frame has registers of its own (src/queue/types.ts, typedFrame), which the
    // server's `think` evaluates with: made before the clock starts, as the frame is.
    const regs = new Map<string, string>();
    const t0 = performance.now();
    sc.evaluate(text, { ...req, regs });
    return (performance.now() - t0) * 1000;
  };
}

const A = await side(values.a, values["plain-a"]!);
const B = await side(values.b, false);
const junk = new Uint8Array(Number(values["evict-mb"]) * 1048576);
/** Writes a byte in each 64 of the buffer: every cache line of it taken. */
function evict(): Promise<void> {
  for (let i = 0; i < junk.length; i += 64) junk[i]++;
  return Promise.resolve();
}
const pause = junk.length > 0 ? evict : () => new Promise((r) => setTimeout(r, gap));
// Warm-up: both trees' code compiled before anything is timed.
for (let i = 0; i < 300; i++) {
  await pause();
  A();
  await pause();
  B();
}
const a = new Float64Array(iters), b = new Float64Array(iters), d = new Float64Array(iters);
for (let i = 0; i < iters; i++) {
  if (i % 2 === 0) {
    await pause();
    a[i] = A();
    await pause();
    b[i] = B();
  } else {
    await pause();
    b[i] = B();
    await pause();
    a[i] = A();
  }
  d[i] = b[i] - a[i];
}
const median = (x: Float64Array) => x.slice().sort()[x.length >> 1];
const mean = (x: Float64Array) => x.reduce((s, v) => s + v, 0) / x.length;
const m = mean(d);
const sd = Math.sqrt(d.reduce((s, v) => s + (v - m) ** 2, 0) / (iters - 1));
const f = (x: number) => x.toFixed(1);
console.log(
  `A median ${f(median(a))} mean ${f(mean(a))} µs | B median ${f(median(b))} mean ${
    f(mean(b))
  } µs` +
    ` | B − A median ${f(median(d))} mean ${f(m)} ± ${f(1.96 * sd / Math.sqrt(iters))} µs` +
    ` | load ${Deno.loadavg()[0].toFixed(1)}`,
);
