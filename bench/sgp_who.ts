/**
 * SGP's `+who` on the engine against TinyMUX 2.12 running the same installed code (docs/bench.md,
 * issue 38 item 10). Both servers are started fresh and pinned to one CPU; a wizard pastes the
 * SGP installer (read from a local file, never from the repository: it carries no licence) over
 * telnet; 30 players connect; the players take turns typing `+who` then `think <marker>`, and the
 * figure is the server's CPU (its process and its descendants, every thread, at ns resolution:
 * bench/line_cpu.ts) over those rounds less the same number of rounds
 * of `think <marker>` alone, per `+who`. The servers alternate, `--runs` times.
 *
 *   deno run -A bench/sgp_who.ts --sgp tests/fixtures/softcode-packages/SGP-Installer.txt \
 *     --iters 500 --runs 5 --server-cpus 0 [--tinymux ../shared/bench/tinymux.sh] \
 *     [--engine-v8-flags <flags the engine gets after the supervisor's, comma-separated>] \
 *     [--method rounds,pairs] [--pairs 500] [--driver-iters 1000]
 *
 * run under `taskset -c 1` (the driver on the other core), from the project root.
 *
 * Options (each takes a value): --sgp FILE (the installer, default
 * tests/fixtures/softcode-packages/SGP-Installer.txt), --iters N (rounds of `+who`, and of the
 * plain line, per run; default 500), --runs N (runs per server, alternating; default 3), --players
 * N (default 30), --gap-ms N (a player's pause between two of its rounds, default 300: typed
 * commands have a budget of 10 a second), --server-cpus LIST (`taskset -c` of both servers, default
 * 0), --tinymux PATH (default ../shared/bench/tinymux.sh), --engine-v8-flags LIST, --method
 * rounds|pairs|interleaved, comma-separated (default rounds), --pairs N (default 500), --side-lines
 * N (lines a side of a pair, bench/line_cpu.ts; default 1), --driver PATH (the shared driver, default telnet_bench.ts
 * beside --tinymux), --driver-iters N (default 1000; 0 skips +ping's driver runs), --blocks N
 * (interleaved: block pairs a case, default 20), --block-pairs N (pairs a block, default 30),
 * --warmup N (interleaved: pairs of each case on each server before the first block, default 1000),
 * --self-check 1 (interleaved: the engine in both slots, no TinyMUX: every ratio should read 1.0),
 * --json FILE (write the interleaved figures and every block there), --exprs FILE (the
 * interleaved cases taken from the file instead, one a line: `+who` or `+ping` as they are, any
 * other line a softcode expression the bench installs on both servers as a `$+bpN` command of
 * SGP's object holding `+who`, which `@pemit`s it to the player typing it, so that v(db), %# and
 * the rights are `+who`'s; a line `x` is such a command's own cost). --help prints this text.
 *
 * Both servers also get the item's `$+ping` global (`$+ping *:@pemit %#=%0` on an `inherit` object
 * in the master room). `--method rounds` (the default) is the measure above for `+who`, and for
 * `+ping` the item's own: the shared driver's round trips of `+ping {text}` and of `think {text}`
 * (`--driver-iters` each; `--driver-iters 0` skips them), their medians and server CPU.
 * `--method pairs` is the paired per-line measure of bench/line_cpu.ts (docs/bench.md, "A paired
 * per-line CPU measure"): `--pairs` pairs of a plain `think <marker>` and the line measured, the
 * players taking turns with a 10 ms pause after each line, the server's CPU read around each line;
 * the cases are a plain line against a plain line (the check: near 0), `+ping <marker>`, and
 * `+who` then `think <marker>`. `--method rounds,pairs` runs both on the same servers.
 * `--method interleaved` (the project's way to take these figures: docs/bench.md, "An interleaved
 * per-line CPU measure") runs the paired cases in short blocks alternating between the two servers,
 * both warm for the whole sitting; each case's figure is the ratio of the servers' means over all
 * blocks, with a bootstrap interval over block pairs and the median of per-pair ratios beside it.
 */
import { dirname, join } from "node:path";
import type { TestServer } from "../tests/harness.ts";
import { ADMIN, startSupervised } from "../tests/supervised.ts";
import {
  driverPass,
  pairLine as describePairs,
  type PairRun,
  pairRun,
  PLAIN_PAIR,
  SHARED_BENCH,
} from "./softcode.ts";
import { LeanTelnet } from "./telnet_client.ts";
import {
  blockLine,
  blockRows,
  cpuDelta,
  type InterleavedCase,
  interleavedCases,
  interleavedRows,
  runInterleaved,
  runPairs,
  ServerCpu,
} from "./line_cpu.ts";
import { table } from "./stats.ts";
import { toolOptions } from "./usage.ts";

/** A logged-in connection that collects what it is sent and waits for phrases in it. */
export class Player {
  text = "";
  #n = 0;
  private constructor(readonly t: LeanTelnet) {
    t.sink = (chunk) => {
      this.text += chunk;
    };
  }

  /** Connects and logs in as `name`, creating the character when `create` is set. */
  static async login(port: number, name: string, pw: string, create: boolean): Promise<Player> {
    const t = await LeanTelnet.connect(port);
    const p = new Player(t);
    await p.waitFor(() => /connect/i.test(p.text), 30_000);
    await t.send(`${create ? "create" : "connect"} ${name} ${pw}`);
    await p.sync(60_000);
    return p;
  }

  /** Resolves once `done()` holds, checking after each chunk. */
  async waitFor(done: () => boolean, ms: number): Promise<void> {
    const end = Date.now() + ms;
    while (!done()) {
      if (Date.now() > end) throw new Error(`timed out; last output: ${this.text.slice(-400)}`);
      if (this.t.closed) throw new Error(`connection closed: ${this.text.slice(-400)}`);
      await new Promise((r) => setTimeout(r, 1));
    }
  }

  /** Sends `think <marker>` and waits for the marker: everything before it has run. */
  async sync(ms = 30_000): Promise<void> {
    const m = `sync-${++this.#n}-${crypto.randomUUID().slice(0, 8)}`;
    const from = this.text.length;
    await this.t.send(`think ${m}`);
    await this.waitFor(() => this.text.indexOf(m, Math.max(0, from - m.length)) >= 0, ms);
  }

  /** Runs a line and waits for it (and anything it queued at once) to finish. */
  async run(line: string, ms = 30_000): Promise<string> {
    const from = this.text.length;
    await this.t.send(line);
    await this.sync(ms);
    return this.text.slice(from);
  }

  close(): Promise<void> {
    return this.t.close();
  }
}

/** A server under test. */
interface Target {
  name: string;
  port: number;
  pid: number;
  wizard: Player;
  players: Player[];
  /** One `+who` listing as a player saw it. */
  sample: string;
  stop(): Promise<void>;
}

/** Pastes the installer as a wizard in the master room would, and returns the error lines. */
export async function install(
  w: Player,
  master: string,
  home: string,
  sgp: string,
): Promise<string[]> {
  await w.run(`@tel me=${master}`);
  const lines = sgp.replace(/\r/g, "").split("\n").filter((l) => l.trim() !== "");
  const from = w.text.length;
  await w.t.send(lines.join("\r\n"));
  await w.sync(300_000);
  // Let the installer's own @waits finish.
  await new Promise((r) => setTimeout(r, 4000));
  const out = w.text.slice(from);
  await w.run(`@tel me=${home}`);
  return out.split(/\r?\n/).filter((l) =>
    !l.startsWith("Set - ") && /Huh\?|Permission denied|I don't see|#-1 |not a valid/i.test(l)
  );
}

/**
 * Defines SGP's global functions (isstaff(), ostaff()... which +who calls) the way its
 * @startup means to, when the paste left them undefined (on both servers it does: the engine's
 * `@function` takes `after(##,FN_)` as a name as written, and TinyMUX's @startup trigger defines
 * nothing either; docs/bench.md), so both servers run the listing with them.
 */
export async function defineSgpFunctions(w: Player, master: string, home: string): Promise<string> {
  const probe = async () => (await w.run("think [isstaff(me)]")).split(/\r?\n/)[0].trim();
  const before = await probe();
  if (!before.startsWith("#-1 FUNCTION")) return `already defined (isstaff(me) is ${before})`;
  await w.run(`@tel me=${master}`);
  // By what it holds: TinyMUX's starter database has SGP objects of the same names.
  const gf = /#\d+/.exec(
    await w.run("think [first(iter(lcon(here),switch(hasattr(##,FN_ISSTAFF),1,##)))]"),
  )?.[0];
  if (!gf) throw new Error("no SGP - Global Functions in the master room");
  const attrs = (await w.run(`think [lattr(${gf}/FN*)]`)).split(/\r?\n/)[0].trim().split(/\s+/);
  for (const a of attrs) {
    const m = /^FNP?_(.+)$/.exec(a);
    if (m) await w.run(`@function ${m[1]}=${gf}/${a}`);
  }
  await w.run(`@tel me=${home}`);
  return `defined by the bench (isstaff(me) is ${await probe()})`;
}

/**
 * Installs each expression of `exprs` (not `+who`/`+ping`) as `$+bpN` on the SGP object that
 * holds `+who`: `@pemit %#=<expr>bpendN`, the end mark telling the bench the output is in.
 */
export async function installPieces(
  w: Player,
  master: string,
  home: string,
  exprs: readonly string[],
): Promise<void> {
  await w.run(`@tel me=${master}`);
  const found = await w.run("think [iter(lcon(here),switch(hasattr(##,CMD-PLUS-WHO),1,##))]");
  // TinyMUX's starter database may hold SGP objects too: the one just installed is the newest.
  const ids = [...found.split(/\r?\n/)[0].matchAll(/#(\d+)/g)].map((m) => Number(m[1]));
  if (ids.length === 0) throw new Error("no SGP object holding +who in the master room");
  const obj = `#${Math.max(...ids)}`;
  for (const [n, e] of exprs.entries()) {
    if (!isCommandCase(e)) {
      await w.run(`&CMD-BENCH-PIECE${n} ${obj}=$+bp${n}:@pemit %#=${e}bpend${n}`);
    }
  }
  await w.run(`@tel me=${home}`);
}

/** Whether an `--exprs` line is a command typed as it is rather than an expression. */
function isCommandCase(e: string): boolean {
  return e === "+who" || e === "+ping";
}

/** Puts the `$+ping` global (issue 38 item 10) in the master room as the wizard. */
export async function addPing(w: Player, master: string): Promise<void> {
  await w.run("@create Ping Global");
  await w.run("&CMD.PING Ping Global=$+ping *:@pemit %#=%0");
  // A wizard's object acts with the wizard's rights only when inherit is set (MUX's rule).
  await w.run("@set Ping Global=inherit");
  await w.run(`@tel Ping Global=${master}`);
}

/** Checks `+ping <word>` answers the word to a player. */
export async function checkPing(p: Player): Promise<void> {
  const m = `pingcheck${crypto.randomUUID().slice(0, 6)}`;
  await p.t.roundTrip(`+ping ${m}`, m, 10_000).catch(() => {
    throw new Error(`+ping gave no answer: ${p.text.slice(-300)}`);
  });
}

/** Connects `n` players named sgpN, creating them. */
export async function connectPlayers(port: number, n: number): Promise<Player[]> {
  const out: Player[] = [];
  for (let i = 0; i < n; i += 10) {
    out.push(
      ...await Promise.all(
        Array.from(
          { length: Math.min(10, n - i) },
          (_, k) => Player.login(port, `sgp${i + k}`, "benchpw1", true),
        ),
      ),
    );
  }
  return out;
}

/** Reads `+who` once and checks it is a listing of at least `min` players. */
export async function sampleWho(p: Player, min: number): Promise<string> {
  const from = p.text.length;
  await p.t.send("+who");
  await p.waitFor(
    () => /There are \d+ players connected[^\n]*\n[^\n]*\n/.test(p.text.slice(from)),
    30_000,
  );
  const out = p.text.slice(from);
  const n = Number(/There are (\d+) players connected/.exec(out)![1]);
  const rows = out.split(/\r?\n/).filter((l) => /^sgp\d+\.*\s/i.test(l)).length;
  if (n < min || rows < min - 1) throw new Error(`+who lists ${n} players (${rows} rows):\n${out}`);
  return out;
}

async function startEngine(o: SgpOptions, sgp: string, log: (l: string) => void): Promise<Target> {
  const srv: TestServer = await startSupervised({
    config: {
      server: { maxConnections: 0, maxConnectionsPerIp: 0 },
      game: { idleTimeout: 0, registrationsPerHour: 0 },
      scripts: { disabled: ["+who", "+finger"] },
      // The bench types +who far faster than players do: each listing is charged to the player
      // typing it (docs/softcode.md, "Whose time"); lifted so no pace of the bench meets it.
      softcode: { masterRoom: "#3", actorMs: 10_000, actorWindowMs: 10_000, gameMs: 1e9 },
    },
    cpus: o.serverCpus,
    // The engine's own V8 flags after the supervisor's (src/supervisor/v8_flags.ts), to try one.
    env: o.engineV8Flags ? { URSAMU_ENGINE_V8_FLAGS: o.engineV8Flags } : {},
  });
  try {
    const w = await Player.login(srv.telnet, ADMIN.name, ADMIN.password, false);
    const dug = await w.run("@dig Master Room");
    if (!/Master Room created as room #3\./.test(dug)) {
      throw new Error(`the master room is not #3: ${dug}`);
    }
    const errors = await install(w, "#3", "#1", sgp);
    errors.forEach((e) => log(`sgp: engine install: ${e}`));
    log(`sgp: engine: SGP's functions ${await defineSgpFunctions(w, "#3", "#1")}`);
    await addPing(w, "#3");
    if (o.exprs) await installPieces(w, "#3", "#1", o.exprs);
    const players = await connectPlayers(srv.telnet, o.players);
    await checkPing(players[0]);
    return {
      name: "engine",
      port: srv.telnet,
      pid: srv.child.pid,
      wizard: w,
      players,
      sample: await sampleWho(players[0], o.players),
      stop: async () => {
        for (const p of [w, ...players]) await p.close();
        await srv.stop();
      },
    };
  } catch (e) {
    await srv.stop();
    throw e;
  }
}

async function startTinyMux(o: SgpOptions, sgp: string, log: (l: string) => void): Promise<Target> {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-bench-tinymux-" });
  const env = { TINYMUX_BENCH_DIR: dir, TINYMUX_CPUS: o.serverCpus };
  // The .deb is fetched once into the default directory; copy its unpacked form when present.
  await new Deno.Command("cp", { args: ["-r", "/tmp/tinymux-bench/pkg", dir] }).output();
  const port = 20000 + Math.floor(Math.random() * 20000);
  const r = await new Deno.Command("bash", { args: [o.tinymux, "start", String(port)], env })
    .output();
  if (!r.success) throw new Error(`tinymux.sh: ${new TextDecoder().decode(r.stderr)}`);
  const pid = Number(new TextDecoder().decode(r.stdout).trim());
  const players: Player[] = [];
  let w: Player | null = null;
  const stop = async () => {
    for (const p of [...(w ? [w] : []), ...players]) await p.close();
    await new Deno.Command("bash", { args: [o.tinymux, "stop"], env }).output();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  };
  try {
    w = await Player.login(port, "wizard", "potrzebie", false);
    // The installer's advice for MUX: a queue that takes the whole paste.
    await w.run("@admin player_queue_limit=1000");
    const errors = await install(w, "#2", "#0", sgp);
    errors.forEach((e) => log(`sgp: TinyMUX install: ${e}`));
    log(`sgp: TinyMUX: SGP's functions ${await defineSgpFunctions(w, "#2", "#0")}`);
    await addPing(w, "#2");
    if (o.exprs) await installPieces(w, "#2", "#0", o.exprs);
    players.push(...await connectPlayers(port, o.players));
    await checkPing(players[0]);
    const sample = await sampleWho(players[0], o.players);
    return { name: "TinyMUX 2.12", port, pid, wizard: w, players, sample, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/**
 * Server CPU (ns) of `iters` rounds, the players taking turns: each round is `line` (if any)
 * then `think <marker>`, and ends when the marker and (for `+who`) the listing's end are in.
 */
async function rounds(
  t: Target,
  cpu: ServerCpu,
  iters: number,
  who: boolean,
  gapMs: number,
): Promise<number> {
  const last = new Map<Player, number>();
  cpu.refresh();
  const c0 = cpu.read();
  for (let i = 0; i < iters; i++) {
    const p = t.players[i % t.players.length];
    // Typed commands have a budget of 10 a second a player: keep each player well under it.
    const wait = (last.get(p) ?? 0) + gapMs - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    last.set(p, performance.now());
    const m = `mk${i}-${crypto.randomUUID().slice(0, 6)}`;
    // Each round reads only its own answer; dropping the rest keeps memory flat.
    p.text = "";
    await p.t.send(who ? `+who\r\nthink ${m}` : `think ${m}`);
    await p.waitFor(() => {
      const s = p.text;
      return s.includes(m) && (!who || /players connected[^\n]*\n[^\n]*\n/.test(s));
    }, 30_000);
  }
  return cpuDelta(c0, cpu.read());
}

/** `+who` by rounds (the module comment), `o.runs` runs alternating the servers. */
async function measureRounds(
  o: SgpOptions,
  targets: Target[],
  log: (l: string) => void,
): Promise<void> {
  const perWho = targets.map(() => [] as number[]);
  const cpus = targets.map((t) => new ServerCpu(t.pid));
  try {
    for (let run = 1; run <= o.runs; run++) {
      const order = run % 2 ? targets : [...targets].reverse();
      for (const t of order) {
        const cpu = cpus[targets.indexOf(t)];
        const base = await rounds(t, cpu, o.iters, false, o.gapMs);
        const who = await rounds(t, cpu, o.iters, true, o.gapMs);
        const us = (who - base) / o.iters / 1000;
        perWho[targets.indexOf(t)].push(us);
        log(
          `sgp: run ${run}: ${t.name}: think ${(base / o.iters / 1000).toFixed(1)} µs, ` +
            `+who+think ${(who / o.iters / 1000).toFixed(1)} µs, +who ${us.toFixed(1)} µs`,
        );
      }
    }
  } finally {
    for (const c of cpus) c.close();
  }
  const [e, m] = perWho.map(median);
  log(
    `sgp: median +who: engine ${e.toFixed(1)} µs, TinyMUX ${m.toFixed(1)} µs, ratio ${
      (e / m).toFixed(2)
    }; per run ${perWho[0].map((x, i) => (x / perWho[1][i]).toFixed(2)).join(", ")}`,
  );
}

/** The cases of the paired measure: the check, then issue 38 item 10's two commands. */
const PAIR_CASES = [PLAIN_PAIR, "+ping", "+who"] as const;

/** Line `i` of a pair on `t`: a plain `think <marker>`, or (kind 1) the case's line. */
async function pairLine(
  t: Target,
  c: string,
  i: number,
  kind: 0 | 1,
  tag: string,
  piece = -1,
): Promise<void> {
  const p = t.players[i % t.players.length];
  const m = `pc${i}x${tag}`;
  p.text = "";
  if (kind === 1 && piece >= 0) {
    // A $-command is queued on TinyMUX, so the think can answer first: wait for both.
    const end = `bpend${piece}`;
    await p.t.send(`+bp${piece}\r\nthink ${m}`);
    await p.waitFor(() => p.text.includes(m) && p.text.includes(end), 30_000);
    return;
  }
  if (kind === 0 || c !== "+who") {
    await p.t.roundTrip(`${kind === 1 && c === "+ping" ? "+ping" : "think"} ${m}`, m);
    return;
  }
  await p.t.send(`+who\r\nthink ${m}`);
  await p.waitFor(() => {
    const s = p.text;
    return s.includes(m) && /players connected[^\n]*\n[^\n]*\n/.test(s);
  }, 30_000);
}

/** The paired measure, `o.runs` runs alternating the servers: each case's runs per server. */
async function measurePairs(
  o: SgpOptions,
  targets: Target[],
  log: (l: string) => void,
): Promise<Map<string, PairRun[]>[]> {
  const out = targets.map(() => new Map<string, PairRun[]>());
  const cpus = targets.map((t) => new ServerCpu(t.pid));
  const tag = crypto.randomUUID().slice(0, 6);
  try {
    targets.forEach((t, n) => log(`sgp: ${t.name}: CPU of processes ${cpus[n].pids}`));
    for (let run = 1; run <= o.runs; run++) {
      for (const c of PAIR_CASES) {
        const order = run % 2 ? targets : [...targets].reverse();
        for (const t of order) {
          const n = targets.indexOf(t);
          cpus[n].refresh();
          const p = await runPairs(
            cpus[n],
            { pairs: o.pairs, warmup: 30, gapMs: 10, sideLines: o.sideLines },
            (i, kind) => pairLine(t, c, i, kind, tag),
          );
          const r = pairRun(p);
          out[n].set(c, [...(out[n].get(c) ?? []), r]);
          log(
            `sgp: pairs run ${run}: ${t.name}: ${c}: ${describePairs(r)}`,
          );
        }
      }
    }
  } finally {
    for (const c of cpus) c.close();
  }
  for (const c of PAIR_CASES) {
    const med = out.map((m) => median(m.get(c)!.map((r) => r.full.mean)));
    const rtt = out.map((m) => median(m.get(c)!.map((r) => r.testMs / r.plainMs)));
    log(
      `sgp: pairs median ${c}: ${
        targets.map((t, n) => `${t.name} ${med[n].toFixed(1)} µs`).join(", ")
      }; ratio ${(med[0] / med[1]).toFixed(2)}; round trip ÷ think's ${
        rtt.map((x) => x.toFixed(2)).join(" / ")
      }`,
    );
  }
  return out;
}

/**
 * The interleaved measure (bench/line_cpu.ts `runInterleaved`): the paired cases in short blocks
 * alternating between the servers, both warm, the figure over matched blocks.
 */
async function measureInterleaved(
  o: SgpOptions,
  targets: Target[],
  log: (l: string) => void,
): Promise<InterleavedCase[]> {
  const cpus = targets.map((t) => new ServerCpu(t.pid));
  const tag = crypto.randomUUID().slice(0, 6);
  const names: string[] = o.exprs ? [PLAIN_PAIR, ...o.exprs] : [...PAIR_CASES];
  // The piece number of case c (its `$+bpN`), or -1 for a line typed as it is.
  const piece = (c: number) => o.exprs && c > 0 && !isCommandCase(names[c]) ? c - 1 : -1;
  try {
    if (o.exprs) await checkPieces(targets, o.exprs, log);
    const io = {
      cases: names.length,
      rounds: o.blocks,
      blockPairs: o.blockPairs,
      warmup: o.warmup,
      gapMs: 10,
      sideLines: o.sideLines,
    };
    log(
      `sgp: interleaved: ${io.rounds} rounds of ${io.blockPairs} pairs a block, ${io.warmup} ` +
        `warm-up pairs a case and server; ${targets.map((t) => t.name).join(" / ")}`,
    );
    const server = (n: number) => ({
      cpu: cpus[n],
      line: (c: number, i: number, k: 0 | 1) =>
        pairLine(targets[n], names[c], i, k, `${tag}s${n}`, piece(c)),
    });
    const blocks = await runInterleaved([server(0), server(1)], io, (c, r, n, b) => {
      const l = blockLine(b);
      log(
        `sgp: block ${r + 1} ${targets[n].name} ${names[c]}: ${l.meanUs} µs (plain line ` +
          `${l.plainUs} µs) at ${l.at} s`,
      );
    });
    return interleavedCases(names, blocks);
  } finally {
    for (const c of cpus) c.close();
  }
}

/**
 * Runs each piece once on each server and logs what it gives, so a piece that fails on one side
 * (a permission, an undefined function) is seen before its figures are read.
 */
async function checkPieces(
  targets: Target[],
  exprs: readonly string[],
  log: (l: string) => void,
): Promise<void> {
  for (const [n, e] of exprs.entries()) {
    if (isCommandCase(e)) continue;
    for (const t of targets) {
      const out = await t.players[0].run(`+bp${n}`);
      // TinyMUX queues the $-command, so the earlier line's sync mark can come before it.
      const text = out.slice(0, out.indexOf(`bpend${n}`)).replace(/sync-\d+-\w+/g, "")
        .replace(/\s+/g, " ").trim();
      log(`sgp: piece ${n} on ${t.name}: ${text.slice(0, 160)}${text.length > 160 ? "…" : ""}`);
    }
  }
}

/** `+ping` by the item's method: the shared driver's `+ping` and `think` runs on each server. */
async function measurePingByDriver(
  o: SgpOptions,
  targets: Target[],
  log: (l: string) => void,
): Promise<void> {
  const run = { driver: o.driver, driverCpus: "", iters: o.driverIters };
  const ratios = targets.map(() => [] as number[]);
  const cpus = targets.map(() => [] as number[]);
  for (let r = 1; r <= o.runs; r++) {
    const order = r % 2 ? targets : [...targets].reverse();
    for (const t of order) {
      const think = await driverPass(run, t.port, t.pid, "think {text}");
      const ping = await driverPass(run, t.port, t.pid, "+ping {text}");
      const n = targets.indexOf(t);
      ratios[n].push(ping.p50Ms / think.p50Ms);
      cpus[n].push((ping.serverCpuS - think.serverCpuS) * 1e6 / o.driverIters);
      log(
        `sgp: driver run ${r}: ${t.name}: think p50 ${think.p50Ms} ms, +ping p50 ${ping.p50Ms} ms ` +
          `(${(ping.p50Ms / think.p50Ms).toFixed(2)}x); server CPU ${
            (think.serverCpuS * 1e6 / o.driverIters).toFixed(1)
          } / ${(ping.serverCpuS * 1e6 / o.driverIters).toFixed(1)} µs a round trip`,
      );
    }
  }
  log(
    `sgp: driver median +ping ÷ think round trip: ${
      targets.map((t, n) => `${t.name} ${median(ratios[n]).toFixed(2)}x`).join(", ")
    }; +ping's CPU beyond think ${
      targets.map((t, n) => `${t.name} ${median(cpus[n]).toFixed(1)} µs`).join(", ")
    }`,
  );
}

/** The benchmark's options (the module comment says what each does). */
export interface SgpOptions {
  sgp: string;
  iters: number;
  runs: number;
  players: number;
  gapMs: number;
  serverCpus: string;
  tinymux: string;
  engineV8Flags: string;
  /** Which measures: `rounds` (+who's rounds and +ping's driver runs), `pairs`, or both. */
  methods: string[];
  pairs: number;
  /** Lines a side of a pair (bench/line_cpu.ts). */
  sideLines: number;
  /** `interleaved`: block pairs a case, pairs a block, warm-up pairs a case and server. */
  blocks: number;
  blockPairs: number;
  warmup: number;
  /** `interleaved` against a second engine instead of TinyMUX (the check: ratios of 1.0). */
  selfCheck: boolean;
  driver: string;
  driverIters: number;
  /** `--exprs`: the interleaved cases instead of the default ones, or null. */
  exprs: string[] | null;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** The command line's options (each takes a value). */
export const OPTIONS = [
  "sgp",
  "iters",
  "runs",
  "players",
  "gap-ms",
  "server-cpus",
  "tinymux",
  "engine-v8-flags",
  "method",
  "pairs",
  "side-lines",
  "blocks",
  "block-pairs",
  "warmup",
  "self-check",
  "json",
  "driver",
  "driver-iters",
  "exprs",
];

/** The options' defaults (the module comment's). */
export function sgpOptions(
  a: Record<string, string | undefined>,
  exprs: string[] | null = null,
): SgpOptions {
  const o: SgpOptions = {
    sgp: a.sgp ?? "tests/fixtures/softcode-packages/SGP-Installer.txt",
    iters: Number(a.iters ?? 500),
    runs: Number(a.runs ?? 3),
    players: Number(a.players ?? 30),
    gapMs: Number(a["gap-ms"] ?? 300),
    serverCpus: a["server-cpus"] ?? "0",
    tinymux: a.tinymux ?? join(SHARED_BENCH, "tinymux.sh"),
    engineV8Flags: a["engine-v8-flags"] ?? "",
    methods: (a.method ?? "rounds").split(","),
    pairs: Number(a.pairs ?? 500),
    sideLines: Number(a["side-lines"] ?? 1),
    blocks: Math.max(1, Number(a.blocks ?? 20)),
    blockPairs: Math.max(1, Number(a["block-pairs"] ?? 30)),
    warmup: Math.max(0, Number(a.warmup ?? 1000)),
    selfCheck: a["self-check"] === "1",
    driver: a.driver ?? join(dirname(a.tinymux ?? join(SHARED_BENCH, "x")), "telnet_bench.ts"),
    driverIters: Number(a["driver-iters"] ?? 1000),
    exprs,
  };
  if (!o.methods.every((m) => m === "rounds" || m === "pairs" || m === "interleaved")) {
    throw new Error("--method takes rounds, pairs or interleaved (comma-separated)");
  }
  return o;
}

/** The `--exprs` file's cases: one a line, blank lines and lines starting `#` left out. */
export async function readExprs(file: string): Promise<string[]> {
  const lines = (await Deno.readTextFile(file)).split(/\r?\n/).map((l) => l.trim());
  const out = lines.filter((l) => l !== "" && !l.startsWith("#"));
  if (out.length === 0) throw new Error(`${file} holds no expression`);
  return out;
}

/** What a run of the benchmark gives back (the rounds and pairs methods only log theirs). */
export interface SgpResult {
  /** `interleaved`: each case's comparison over matched blocks, and every block. */
  interleaved: InterleavedCase[] | null;
  /** The second slot's name: TinyMUX 2.12, or the engine itself for the check. */
  second: string;
}

/** Starts both servers, runs the chosen measures, stops the servers. */
export async function runSgpWho(o: SgpOptions, log: (l: string) => void): Promise<SgpResult> {
  const sgp = await Deno.readTextFile(o.sgp);
  const targets = [await startEngine(o, sgp, log)];
  try {
    if (!o.selfCheck) targets.push(await startTinyMux(o, sgp, log));
    for (const t of targets) log(`sgp: ${t.name} +who as sgp0 sees it:\n${t.sample}`);
    // The check puts the engine in both slots of the interleaved measure.
    const pair = o.selfCheck ? [targets[0], targets[0]] : targets;
    if (o.methods.includes("rounds")) {
      await measureRounds(o, pair, log);
      if (o.driverIters > 0) await measurePingByDriver(o, pair, log);
    }
    if (o.methods.includes("pairs")) await measurePairs(o, pair, log);
    const interleaved = o.methods.includes("interleaved")
      ? await measureInterleaved(o, pair, log)
      : null;
    return { interleaved, second: o.selfCheck ? "engine (again)" : "TinyMUX" };
  } finally {
    for (const t of targets) await t.stop().catch(() => {});
  }
}

/** The interleaved figures' report: the table of cases, then every block. */
export function sgpReport(r: SgpResult): string {
  if (!r.interleaved) return "";
  return table(interleavedRows(r.interleaved, "engine", r.second)) +
    "\n\nblocks, in the order run:\n" + table(blockRows(r.interleaved, "engine", r.second));
}

/** Runs the benchmark and prints each run and the medians. */
async function main(): Promise<void> {
  const a = await toolOptions(import.meta.url, OPTIONS);
  if (!a) return;
  const o = sgpOptions(a, a.exprs ? await readExprs(a.exprs) : null);
  const log = (l: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${l}`);
  const r = await runSgpWho(o, log);
  if (r.interleaved) {
    console.log("\n" + sgpReport(r) + "\n");
    if (a.json) await Deno.writeTextFile(a.json, JSON.stringify(r, null, 2) + "\n");
  }
}

if (import.meta.main) await main();
