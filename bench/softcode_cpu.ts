/**
 * The softcode evaluator's CPU per evaluation, in process (docs/bench.md, issue 36): each of
 * bench/softcode.ts's six expressions, and SGP's `+who` listing (read from a local copy of the
 * installer, never from the repository) with 31 players online, evaluated against a world held in
 * memory. Each evaluation is `think`'s text with a unique prefix, as a typed line is (so the
 * line itself is parsed every time, as in the server), and the figure is CPU µs per evaluation
 * (the process's user+system time over the loop). While iterating on the evaluator:
 *
 *   DENO_NO_PACKAGE_JSON=1 deno run -A bench/softcode_cpu.ts [--iters 2000] [--only arith]
 *     [--sgp tests/fixtures/softcode-packages/SGP-Installer.txt] [--gap-ms 5]
 *
 * `--gap-ms` sleeps that long before each evaluation, as the server waits between players'
 * lines, so each evaluation finds the caches as a paced one does; the figure is then the median
 * wall time of one evaluation (reading the CPU clock after a sleep costs more than the work).
 * `--alloc`: V8's sampling heap profiler over the timed runs, objects since collected included
 * (every 64 bytes): the fresh memory an evaluation allocates and its largest sites.
 */
import { parseArgs } from "node:util";
import process from "node:process";
import { fileURLToPath as fromFileUrl } from "node:url";
import { Session } from "node:inspector";
import { testSoftcode, type TestWorld } from "../src/softcode/_test_world.ts";
import { library, SOFTCODE_EXPRS } from "./softcode.ts";
import { TOP_FLAGS } from "../src/softcode/eval.ts";
import { EV } from "../src/softcode/types.ts";
import { type CpuProfile, type HeapNode, heapSites, topSelf } from "./inspector.ts";

/** Objects the SGP installer makes, by the name its `&` lines use. */
const SGP_OBJECTS = [
  "SGP - Global Parent Object",
  "SGP - Global Functions",
  "SGP - Main Globals",
];

/**
 * Puts the SGP objects' attributes (the installer's `&NAME <object>=<value>` lines) into the
 * world, with `&DB` and the MUX form of `ISSTAFF`; the `+who` command's action, or null.
 */
function installSgp(world: TestWorld, wiz: string, path: string): { obj: string; body: string } {
  const ids = new Map<string, string>();
  for (const name of SGP_OBJECTS) {
    ids.set(name.toLowerCase(), world.add(name, "thing", { owner: wiz, flags: ["wizard"] }));
  }
  for (const line of Deno.readTextFileSync(path).split(/\r?\n/)) {
    const m = /^&(\S+) ([^=]+)=(.*)$/.exec(line);
    const id = m && ids.get(m[2].toLowerCase());
    if (id) world.set(id, m[1], m[3]);
  }
  const parent = ids.get("sgp - global parent object")!;
  const main = ids.get("sgp - main globals")!;
  world.set(main, "DB", `#${parent}`);
  world.set(ids.get("sgp - global functions")!, "FN_ISSTAFF", "orflags(%0,WZw)");
  const cmd = world.attrs.get(main)?.get("CMD-PLUS-WHO")?.value ?? "";
  const at = cmd.indexOf("=");
  if (!cmd.startsWith("$+who:") || at < 0) throw new Error("no CMD-PLUS-WHO in the installer");
  return { obj: main, body: cmd.slice(at + 1) };
}

/** CPU µs (user + system) now. */
function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

const { values } = parseArgs({
  options: {
    iters: { type: "string", default: "2000" },
    only: { type: "string" },
    sgp: {
      type: "string",
      default: fromFileUrl(
        new URL("../tests/fixtures/softcode-packages/SGP-Installer.txt", import.meta.url),
      ),
    },
    runs: { type: "string", default: "3" },
    profile: { type: "boolean", default: false },
    alloc: { type: "boolean", default: false },
    "gap-ms": { type: "string", default: "0" },
  },
});
const iters = Number(values.iters);
const runs = Number(values.runs);
const gapMs = Number(values["gap-ms"]);

const { world, sc, wiz, room, functions } = testSoftcode({
  actorMs: 1e9,
  gameMs: 1e9,
  evaluationMs: 1e9,
});
const lib = world.add("SoftLib", "thing", { owner: wiz, flags: ["visual"] });
const data = library();
world.set(lib, "WORDS", data.words, ["visual"]);
world.set(lib, "NUMS", data.nums, ["visual"]);
world.set(lib, "TEXT", data.text, ["visual"]);
for (let i = 0; i < 19; i++) world.set(lib, `U${i}`, `[u(#${lib}/U${i + 1},%0)]`, ["visual"]);
world.set(lib, "U19", "[add(%0,1)]", ["visual"]);
const reader = world.add("Reader", "player", { location: room });

interface Case {
  name: string;
  /** The text evaluated, with `{n}` for the unique part. */
  text: (n: number) => string;
  executor: string;
  enactor: string;
  flags: number;
  /** A line a player typed (EvalRequest.typed), as the expressions' lines are. */
  typed: boolean;
}

const cases: Case[] = SOFTCODE_EXPRS.map((e) => ({
  name: e.name,
  text: (n: number) => `bench${n} [null(${e.expr.replaceAll("LIB", "#" + lib)})]`,
  executor: reader,
  enactor: reader,
  flags: TOP_FLAGS,
  typed: true,
}));

let sgp: { obj: string; body: string } | null = null;
try {
  sgp = installSgp(world, wiz, values.sgp!);
} catch (e) {
  console.log(`SGP +who skipped: ${(e as Error).message}`);
}
if (sgp) {
  const players: string[] = [];
  for (let i = 0; i < 30; i++) {
    const p = world.add(`sgp${i}`, "player", { location: room });
    world.set(p, "SEX", i % 2 ? "male" : "female");
    world.online.add(p);
    players.push(p);
  }
  world.online.add(wiz);
  // The user functions SGP's startup defines (@function isstaff, ostaff).
  const fnObj = [...world.objects.values()].find((o) => o.name === "SGP - Global Functions")!.id;
  const { UserFunctions } = await import("../src/softcode/user_functions.ts");
  const defs = new UserFunctions(functions, {
    all: () => Promise.resolve([]),
    put: () => Promise.resolve(),
    delete: () => Promise.resolve(),
  });
  for (const name of ["ISSTAFF", "OSTAFF"]) {
    await defs.define({ name, obj: fnObj, attr: `FN_${name}`, privileged: true, preserve: false });
  }
  const body = sgp.body;
  cases.push({
    name: "SGP +who (31 players)",
    // @pemit's message: its own evaluation of the command's action text.
    text: () => body,
    executor: sgp.obj,
    enactor: players[0],
    flags: EV.EVAL | EV.FCHECK | EV.STRIP_CURLY,
    typed: false,
  });
}

/** The V8 profiler of this process (--profile): the top functions by self time per case. */
class Profiler {
  readonly #s = new Session();
  constructor() {
    this.#s.connect();
  }
  post(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    return new Promise((res, rej) => this.#s.post(method, params, (e, r) => e ? rej(e) : res(r)));
  }
  async report(): Promise<string> {
    const { profile } = await this.post("Profiler.stop") as { profile: CpuProfile };
    return topSelf(profile);
  }
}
const profiler = values.profile || values.alloc ? new Profiler() : null;

const wanted = values.only?.toLowerCase();
for (const c of cases) {
  if (wanted && !c.name.toLowerCase().includes(wanted)) continue;
  const req = { executor: c.executor, enactor: c.enactor, flags: c.flags, typed: c.typed };
  const first = sc.evaluate(c.text(0), req);
  const per: number[] = [];
  let n = 1;
  // A warm-up, then `runs` timed loops.
  for (let r = 0; r <= runs; r++) {
    if (r === 1 && profiler && values.profile) {
      await profiler.post("Profiler.enable");
      await profiler.post("Profiler.start");
    }
    if (r === 1 && profiler && values.alloc) {
      await profiler.post("HeapProfiler.startSampling", {
        samplingInterval: 64,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
    }
    let used = 0;
    if (gapMs > 0) {
      const each = new Float64Array(iters);
      for (let i = 0; i < iters; i++) {
        await new Promise((res) => setTimeout(res, gapMs));
        const text = c.text(n++);
        const t0 = performance.now();
        sc.evaluate(text, req);
        each[i] = (performance.now() - t0) * 1000;
      }
      each.sort();
      used = each[iters >> 1] * iters;
    } else {
      const t0 = cpuMicros();
      for (let i = 0; i < iters; i++) sc.evaluate(c.text(n++), req);
      used = cpuMicros() - t0;
    }
    if (r > 0) per.push(used / iters);
  }
  per.sort((a, b) => a - b);
  console.log(
    `${c.name.padEnd(44)} ${per[per.length >> 1].toFixed(1).padStart(8)} µs  ` +
      `(runs ${per.map((x) => x.toFixed(1)).join(" ")}; result ${first.length} chars)`,
  );
  if (profiler && values.profile) console.log(await profiler.report());
  if (profiler && values.alloc) {
    const { profile } = await profiler.post("HeapProfiler.stopSampling") as {
      profile: { head: HeapNode };
    };
    const { total, top } = heapSites(profile.head, runs * iters);
    console.log(`  allocated (sampled): ${(total / (runs * iters)).toFixed(0)} B a line; sites:`);
    console.log(top);
  }
}
