/**
 * SGP's `+who` listing evaluated in process (docs/bench.md, issue 38 item 10): the SGP installer
 * (read from a local file; it is not in the repository) is run line by line by a wizard in an
 * in-memory engine's master room, 30 players connect, and the listing's body (`CMD-PLUS-WHO`'s
 * `@pemit` text, copied to `&WHOTEST` on the Main Globals) is evaluated as a player's
 * `u(<Main Globals>/WHOTEST)` again and again. Prints CPU µs per evaluation (median of rounds).
 *
 *   DENO_NO_PACKAGE_JSON=1 deno run -A --unstable-kv bench/sgp_who_eval.ts \
 *     [--sgp tests/fixtures/softcode-packages/SGP-Installer.txt] [--iters 300] [--rounds 7]
 *     [--players 30] [--print]
 *
 * `--profile <file.cpuprofile>` profiles the timed rounds (V8's sampling profiler, through
 * node:inspector) and prints the functions with the most self time. `--heap` samples what the
 * timed rounds allocate instead (V8's sampling heap profiler, objects collected since counted)
 * and prints the bytes a listing allocates, by the function that allocated them (with each
 * one's caller when HEAP_CALLERS is set; the HEAP_TOP largest, 30 unless set). `--gap-ms <ms>`
 * pauses that long before each evaluation (as a server's paced listings come) and gives each
 * round's median of single evaluations' CPU. `--expr TEXT` evaluates TEXT in the listing's place
 * (the same object, so v(db), %# and the rights are the listing's): one piece of it, such as
 * `[iter(lwho(),u(##/sex))]` (bench/sgp_pieces.txt lists the pieces the server bench times).
 */
import { parseArgs } from "node:util";
import { testWorld } from "../src/commands/_test_util.ts";
import { Session } from "node:inspector";
import process from "node:process";
import { stripMarkup } from "../src/softcode/markup.ts";
import { type Profile, summary } from "./cpu_profile.ts";

/** Starts V8's sampling profiler in this process; the function returned stops it. */
async function startProfile(): Promise<() => Promise<Profile>> {
  const s = new Session();
  s.connect();
  const post = (m: string, p?: Record<string, unknown>) =>
    new Promise<Record<string, unknown>>((res, rej) =>
      s.post(m, p ?? {}, (e, r) => e ? rej(e) : res(r as Record<string, unknown>))
    );
  await post("Profiler.enable");
  await post("Profiler.setSamplingInterval", { interval: 100 });
  await post("Profiler.start");
  return async () => (await post("Profiler.stop")).profile as never;
}

/** A node of V8's sampling heap profile. */
interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapNode[];
}

/** Starts V8's sampling heap profiler; the function returned stops it and gives bytes by place. */
async function startHeap(): Promise<() => Promise<Map<string, number>>> {
  const s = new Session();
  s.connect();
  const post = (m: string, p?: Record<string, unknown>) =>
    new Promise<Record<string, unknown>>((res, rej) =>
      s.post(m, p ?? {}, (e, r) => e ? rej(e) : res(r as Record<string, unknown>))
    );
  await post("HeapProfiler.enable");
  await post("HeapProfiler.startSampling", {
    samplingInterval: 256,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  return async () => {
    const { profile } = await post("HeapProfiler.stopSampling") as {
      profile: { head: HeapNode };
    };
    const by = new Map<string, number>();
    const name = (n: HeapNode) => {
      const f = n.callFrame;
      const where = f.url.replace(/^.*\/(src|bench)\//, "$1/");
      return `${f.functionName || "(anon)"} ${where}:${f.lineNumber + 1}`;
    };
    // With HEAP_CALLERS set, each allocating function is given with its caller (`a < b`).
    const callers = Deno.env.get("HEAP_CALLERS") !== undefined;
    const walk = (n: HeapNode, up: string) => {
      const own = name(n);
      const k = callers ? `${own} < ${up}` : own;
      by.set(k, (by.get(k) ?? 0) + n.selfSize);
      for (const c of n.children) walk(c, own);
    };
    walk(profile.head, "");
    return by;
  };
}

/** CPU time of this thread in µs, from the scheduler's nanosecond count. */
function cpuUs(): number {
  return Number(Deno.readTextFileSync("/proc/thread-self/schedstat").split(" ")[0]) / 1000;
}

/** A world with SGP installed and `players` players online; returns what evaluates the listing. */
export async function sgpWorld(sgpPath: string, players: number, expr: string | null = null) {
  const w = await testWorld();
  w.services.config.value.softcode.actorMs = 1_000_000;
  w.services.config.value.softcode.gameMs = 1e9;
  // Rounds of listings run without the event loop turning, which counts as one command's time.
  w.services.config.value.softcode.evaluationMs = 1e9;
  w.services.config.value.softcode.actorWindowMs = 1_000;
  w.services.config.value.queue.playerLimit = 100_000;
  const wiz = await w.player("Wizard", { flags: ["wizard"] });
  await w.run(wiz.conn, "@dig Master Room");
  const master = w.services.objects.world!.named("Master Room")[0];
  w.services.config.value.softcode.masterRoom = `#${master}`;
  await w.run(wiz.conn, `@tel me=#${master}`);
  const lines = (await Deno.readTextFile(sgpPath)).replace(/\r/g, "").split("\n")
    .filter((l) => l.trim() !== "");
  const errors: string[] = [];
  for (const raw of lines) {
    // The building commands are a plugin, which this in-memory engine does not load: `@create`
    // becomes softcode's create(), which builds under the same rules; `@lock` is left out (SGP's
    // use locks do not touch +who).
    if (/^@lock/i.test(raw)) continue;
    const made = /^@create (.*)$/i.exec(raw);
    const line = made ? `think [create(${made[1]},10)]` : raw;
    const out = await w.run(wiz.conn, line);
    await w.settle();
    for (const o of out) {
      if (/Huh\?|Permission denied|I don't see|#-1 |not a valid/i.test(o)) {
        errors.push(`${line.slice(0, 60)} -> ${o}`);
      }
    }
  }
  await new Promise((r) => setTimeout(r, 1500));
  await w.settle();
  // SGP's @startup defines its functions with `@function after(##,FN_)=me/##`, which MUX
  // evaluates; this engine's @function takes its name as written (docs/bench.md), so they are
  // defined here as the @startup would on MUX (isstaff() and ostaff() are in the listing).
  const gf = w.services.objects.world!.named("SGP - Global Functions")[0];
  for (const attr of w.services.attributes.names(gf)) {
    const m = /^FNP?_(.*)$/.exec(attr);
    if (!m) continue;
    const out = await w.run(wiz.conn, `@function ${m[1]}=#${gf}/${attr}`);
    if (!out.some((o) => /defined/.test(o))) errors.push(`@function ${m[1]}: ${out.join(" ")}`);
  }
  await w.run(wiz.conn, "@tel me=#1");
  const conns = [];
  for (let i = 0; i < players; i++) conns.push(await w.player(`sgp${i}`));
  const mainId = w.services.objects.world!.named("SGP - Main Globals")[0];
  const attrs = w.services.attributes;
  const body = attrs.peek(mainId, "CMD-PLUS-WHO")?.value ?? "";
  const text = expr ?? body.slice(body.indexOf("=") + 1);
  const bad = attrs.setNow(wiz.obj, mainId, "WHOTEST", text);
  if (bad) throw new Error(`WHOTEST: ${bad.message}`);
  await w.run(wiz.conn, `@set #${mainId}=VISUAL`);
  const p = conns[0].obj;
  const code = `[u(#${mainId}/WHOTEST)]`;
  const softcode = w.ports.softcode;
  return {
    w,
    errors,
    /** One evaluation of the listing as player sgp0 sees it (uniquely spaced, as typed lines are). */
    evaluate(i = 0): string {
      return softcode.evaluate(code + " ".repeat(i % 2), { executor: p.id, enactor: p.id });
    },
  };
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      sgp: { type: "string", default: "tests/fixtures/softcode-packages/SGP-Installer.txt" },
      iters: { type: "string", default: "300" },
      rounds: { type: "string", default: "7" },
      players: { type: "string", default: "30" },
      print: { type: "boolean", default: false },
      profile: { type: "string" },
      heap: { type: "boolean", default: false },
      "gap-ms": { type: "string", default: "0" },
      expr: { type: "string" },
    },
  });
  const s = await sgpWorld(values.sgp!, Number(values.players), values.expr ?? null);
  if (s.errors.length) console.error(`install errors:\n${s.errors.join("\n")}`);
  const sample = stripMarkup(s.evaluate());
  if (values.print) console.log(sample);
  const rows = sample.split("\n").length;
  console.error(`listing: ${sample.length} chars, ${rows} lines`);
  for (let i = 0; i < 200; i++) s.evaluate(i);
  const iters = Number(values.iters);
  const gapMs = Number(values["gap-ms"]);
  const per: number[] = [];
  const stop = values.profile ? await startProfile() : null;
  const stopHeap = values.heap ? await startHeap() : null;
  for (let r = 0; r < Number(values.rounds); r++) {
    if (gapMs > 0) {
      // Paced, as the server serves a listing between other work: each evaluation after a
      // pause, timed alone.
      const one: number[] = [];
      for (let i = 0; i < iters; i++) {
        await new Promise((ok) => setTimeout(ok, gapMs));
        // The process's CPU (getrusage): the thread's scheduler count is not brought up to
        // date while it runs, and one listing is shorter than its tick.
        const c0 = process.cpuUsage();
        s.evaluate(i);
        const c = process.cpuUsage(c0);
        one.push(c.user + c.system);
      }
      one.sort((a, b) => a - b);
      per.push(one[one.length >> 1]);
      continue;
    }
    const c0 = cpuUs();
    for (let i = 0; i < iters; i++) s.evaluate(i);
    per.push((cpuUs() - c0) / iters);
  }
  if (stopHeap) {
    const by = await stopHeap();
    const listings = iters * Number(values.rounds);
    let all = 0;
    for (const v of by.values()) all += v;
    console.log(`allocated: ${(all / listings / 1024).toFixed(1)} KiB a listing; by function:`);
    for (
      const [k, v] of [...by].sort((a, b) => b[1] - a[1]).slice(
        0,
        Number(Deno.env.get("HEAP_TOP") ?? 30),
      )
    ) {
      console.log(`${(v / listings).toFixed(0).padStart(8)} B  ${k}`);
    }
  }
  if (stop) {
    const prof = await stop();
    await Deno.writeTextFile(values.profile!, JSON.stringify(prof));
    console.log(summary(prof, 45));
  }
  per.sort((a, b) => a - b);
  console.log(
    `+who listing${gapMs > 0 ? ` ${gapMs} ms apart` : ""}: median ${
      per[per.length >> 1].toFixed(0)
    } µs CPU per evaluation, least ` +
      `${per[0].toFixed(0)} ` +
      `(rounds: ${per.map((x) => x.toFixed(0)).join(" ")})`,
  );
  await s.w.close();
}
