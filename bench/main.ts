/**
 * `deno task bench`: starts the real engine as a child process on free loopback
 * ports, drives it with many real WebSocket clients and REST requests, prints a
 * table and writes bench/results/<timestamp>.json. See docs/bench.md.
 *
 * Options: --clients N (default 1000), --samples N (round trips per phase, default 1000),
 * --poses N (paced fan-out poses, default 40), --rest-seconds N (default 3),
 * --reboot-sessions N (telnet players in the reboot benchmark of bench/reboot.ts, default 50;
 * 0 skips it), --reboots N (default 3), --scenes N (scenes stored for the list latency of
 * bench/scenes.ts, default 100000; 0 skips it), --scene-poses N (poses of the exported scene,
 * default 10000), --script-samples N (round trips per pair in the system-script comparison of
 * bench/scripts.ts, default 500; 0 skips it), --script-rounds N (alternating WebSocket and telnet
 * rounds of it, medians reported, default 3), --script-warm N (round trips of each kind before the
 * timed ones, default 100: each round's engine is fresh, so a longer warm-up measures one whose
 * code V8 has optimized), --script-cpus LIST (run that comparison's servers
 * pinned to these CPUs, as `taskset -c LIST`), --bloat-poses N (4,000-character poses of the
 * bloated scene of bench/bloat.ts, default 12000; 0 skips it), --bloat-readers LIST (concurrent
 * readers of its phases, default 6,20), --only
 * engine|reboot|scenes|bloat|scripts|telnet|world|softcode (run one part alone; --scripts-only is
 * --only scripts). The telnet part (bench/telnet.ts):
 * --telnet-players N (default 1000; 0 skips the part), --telnet-samples N (default --samples),
 * --telnet-poses N (default --poses), --telnet-storm N (bcrypt-10 logins, default 200; 0 skips),
 * --telnet-reboots N (default 3; 0 skips), --telnet-hold N (players held at once, default 10000;
 * 0 skips), --telnet-settle-ms N (pause before each memory reading, default 10000). The world
 * part (bench/world.ts): --world-objects N (default 10000; 0 skips it), --world-attributes N
 * (per object, default 50), --world-value N (characters per value, default 100). The ramp
 * (bench/ramp.ts): --ramp N (new characters made over telnet one after another, each staying on,
 * default 10000; 0 skips), with its login rate per thousand; --only ramp runs it alone. The
 * softcode part (bench/softcode.ts): --softcode-iters N (round trips per expression and run,
 * default 1000; 0 skips it), --softcode-runs N (default 3), --softcode-mux (TinyMUX 2.12 side by
 * side, through ../shared/bench/tinymux.sh), --softcode-driver DIR (where telnet_bench.ts and
 * tinymux.sh are, default ../shared/bench), --softcode-cpus LIST and --softcode-driver-cpus LIST
 * (taskset, default 0 and 1), --softcode-only WORDS (only the expressions whose names hold one of
 * the comma-separated words, e.g. `arith,sort`), --softcode-method driver|pairs|driver,pairs
 * (`driver`, the default: the shared driver's server CPU over each run, less a plain think's run;
 * `pairs`: the low-noise paired measure of bench/line_cpu.ts, --softcode-iters then counting pairs
 * of a plain and an expression line, each line's server CPU read at ns resolution, a run's figure
 * the mean of the pairs' differences (the median over the runs reported), with a
 * plain-against-plain pair first as its check;
 * docs/bench.md, "A paired per-line CPU measure"; both: one after the other on the same servers;
 * `interleaved`: the pairs in short blocks alternating between the two servers, both up and warm
 * for the whole sitting, the figure per expression the ratio of the servers' means over all blocks
 * with a bootstrap interval over block pairs: the project's way to take these figures,
 * docs/bench.md, "An interleaved per-line CPU measure"), --softcode-side-lines N (lines of one
 * kind as a side of a pair, default 1), --softcode-blocks N (interleaved: block pairs a case,
 * default 24), --softcode-block-pairs N (pairs a block, default 40), --softcode-warmup N (pairs of
 * each case on each server before the first block, default 300), --softcode-self-check (the
 * engine against itself in the second slot instead of TinyMUX: every ratio should read 1.0).
 * --help prints this text.
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { freePort, ROOT, startServer, type TestServer } from "../tests/harness.ts";
import { Inspector } from "./inspector.ts";
import { seedPlayers } from "./seed.ts";
import { type BenchClient, openMany } from "./client.ts";
import { restLoad } from "./rest.ts";
import { rebootRows, runRebootBench } from "./reboot.ts";
import { runScenesBench, sceneRows } from "./scenes.ts";
import { bloatRows, runBloatBench } from "./bloat.ts";
import { runScriptBench, scriptRows } from "./scripts.ts";
import { runTelnetBench, type TelnetPhase, telnetRows } from "./telnet.ts";
import { rampRows, runRampBench } from "./ramp.ts";
import { loginStorm } from "./storm.ts";
import { runWorldBench, worldRows } from "./world.ts";
import { runSoftcodeBench, SHARED_BENCH, type SoftcodeMethod, softcodeReport } from "./softcode.ts";
import { round, rssKiB, sleep, summarize, type Summary, table } from "./stats.ts";
import { moduleUsage } from "./usage.ts";

const { values: opt } = parseArgs({
  args: Deno.args,
  options: {
    clients: { type: "string", default: "1000" },
    samples: { type: "string", default: "1000" },
    poses: { type: "string", default: "40" },
    "rest-seconds": { type: "string", default: "3" },
    "reboot-sessions": { type: "string", default: "50" },
    reboots: { type: "string", default: "3" },
    scenes: { type: "string", default: "100000" },
    "scene-poses": { type: "string", default: "10000" },
    "bloat-poses": { type: "string", default: "12000" },
    "bloat-readers": { type: "string", default: "6,20" },
    only: { type: "string" },
    "script-samples": { type: "string", default: "500" },
    "script-rounds": { type: "string", default: "3" },
    "script-warm": { type: "string", default: "100" },
    "scripts-only": { type: "boolean", default: false },
    "telnet-players": { type: "string", default: "1000" },
    "telnet-samples": { type: "string" },
    "telnet-poses": { type: "string" },
    "telnet-storm": { type: "string", default: "200" },
    "telnet-reboots": { type: "string", default: "3" },
    "telnet-hold": { type: "string", default: "10000" },
    "telnet-settle-ms": { type: "string", default: "10000" },
    ramp: { type: "string", default: "10000" },
    "script-cpus": { type: "string" },
    "world-objects": { type: "string", default: "10000" },
    "world-attributes": { type: "string", default: "50" },
    "world-value": { type: "string", default: "100" },
    "softcode-iters": { type: "string", default: "1000" },
    "softcode-runs": { type: "string", default: "3" },
    "softcode-mux": { type: "boolean", default: false },
    "softcode-driver": { type: "string" },
    "softcode-cpus": { type: "string", default: "0" },
    "softcode-driver-cpus": { type: "string", default: "1" },
    "softcode-only": { type: "string", default: "" },
    "softcode-method": { type: "string", default: "driver" },
    "softcode-side-lines": { type: "string", default: "1" },
    "softcode-blocks": { type: "string" },
    "softcode-block-pairs": { type: "string" },
    "softcode-warmup": { type: "string" },
    "softcode-self-check": { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
});
if (opt.help) {
  console.log(await moduleUsage(import.meta.url));
  Deno.exit(0);
}
/** How the softcode part measures (bench/softcode.ts). */
const SOFTCODE_METHODS = opt["softcode-method"].split(",") as SoftcodeMethod[];
if (!SOFTCODE_METHODS.every((m) => m === "driver" || m === "pairs" || m === "interleaved")) {
  throw new Error("--softcode-method takes driver, pairs or interleaved (comma-separated)");
}
/** Round trips per built-in/script pair (0 skips the comparison). */
const SCRIPT_SAMPLES = Math.max(0, Number(opt["script-samples"]));
const CLIENTS = Math.max(50, Number(opt.clients));
const SAMPLES = Math.max(50, Number(opt.samples));
const POSES = Math.max(5, Number(opt.poses));
const REST_SECONDS = Math.max(1, Number(opt["rest-seconds"]));
/** Telnet players in the reboot benchmark (0 skips it). */
const REBOOT_SESSIONS = Math.max(0, Number(opt["reboot-sessions"]));
const REBOOTS = Math.max(1, Number(opt.reboots));
/** Scenes stored for the scenes benchmark's list latency (0 skips it). */
const SCENES = Math.max(0, Number(opt.scenes));
const SCENE_POSES = Math.max(1, Number(opt["scene-poses"]));
/** Telnet players of the telnet part (0 skips it). */
const TELNET_PLAYERS = Math.max(0, Number(opt["telnet-players"]));
/**
 * Extra phases of the telnet part, run on its stack after the fan-out (bench/telnet.ts,
 * `TelnetPhase`): the place for connect/disconnect cycles measuring memory given back.
 */
const TELNET_PHASES: TelnetPhase[] = [];
/** 4,000-character poses of the bloated scene read at once by several clients (0 skips it). */
const BLOAT_POSES = Math.max(0, Number(opt["bloat-poses"]));
/** Concurrent readers of each phase of the bloated-scene benchmark. */
const BLOAT_READERS = String(opt["bloat-readers"]).split(",").map(Number)
  .filter((n) => Number.isInteger(n) && n > 0);
/** One part alone: `engine`, `reboot`, `scenes`, `bloat`, `scripts`, `telnet` or `world`. */
const ONLY = opt["scripts-only"] ? "scripts" : opt.only;
const PARTS = [
  "engine",
  "reboot",
  "scenes",
  "bloat",
  "scripts",
  "telnet",
  "world",
  "ramp",
  "softcode",
];
/** A count option's value (at least `min`), or undefined when not given. */
function count(v: string | undefined, min = 1): number | undefined {
  return v === undefined ? undefined : Math.max(min, Math.floor(Number(v)));
}
/** Round trips per expression and run of the softcode benchmark (bench/softcode.ts; 0 skips it). */
const SOFTCODE_ITERS = Math.max(0, Number(opt["softcode-iters"]));
/** Objects of the world benchmark (bench/world.ts; 0 skips it). */
const WORLD_OBJECTS = Math.max(0, Number(opt["world-objects"]));
if (ONLY !== undefined && !PARTS.includes(ONLY)) {
  throw new Error(`--only takes ${PARTS.join(", ")}`);
}
/** Connections that take turns sending, so no player exceeds 10 commands a second. */
const PROBES = 40;
/** Gap between paced round trips: each probe player sends every PROBES × 5 ms = 200 ms. */
const PACE_MS = 5;
/** Senders of the burst that measures fan-out throughput. */
const BURST = 10;
/** Connections closed and logged in again (full login) to time logins. */
const LOGINS = 100;
/** Password logins in the storm phase, and how many at once (the per-IP in-flight limit). */
const STORM = 200;
const STORM_IN_FLIGHT = 10;

function log(line: string): void {
  console.log(`bench: ${line}`);
}

/** One round-trip probe: the line to send and a string its reply (and no earlier frame) holds. */
type Probe = (i: number) => { line: string; needle: string };

/** `think <tag><i>x`, answered to the actor alone with the text echoed. */
const think = (tag: string): Probe => (i) => ({ line: `think ${tag}${i}x`, needle: `${tag}${i}x` });

/** Sequential round trips, rotating through `clients`, after a short warm-up. */
async function roundTrips(
  clients: BenchClient[],
  n: number,
  probe: Probe,
  warm = 100,
): Promise<Summary> {
  const samples: number[] = [];
  for (let i = 0; i < n + warm; i++) {
    const started = performance.now();
    const { line, needle } = probe(i);
    const rt = await clients[i % clients.length].roundTrip(line, needle);
    if (i >= warm) samples.push(rt);
    const wait = PACE_MS - (performance.now() - started);
    if (wait > 0) await sleep(wait);
  }
  return summarize(samples);
}

/** Counts pose deliveries (frames holding `fo<seq>z`) on every client, with their latency. */
class FanoutRecorder {
  readonly latencies: number[] = [];
  readonly sentAt = new Map<number, number>();
  delivered = 0;
  lastArrival = 0;
  #target = 0;
  #done: (() => void) | null = null;

  constructor(clients: BenchClient[]) {
    const re = /fo(\d+)z/;
    for (const c of clients) {
      c.sink = (data, at) => {
        if (!data.includes("fo")) return;
        const m = re.exec(data);
        const sent = m ? this.sentAt.get(Number(m[1])) : undefined;
        if (sent === undefined) return;
        this.latencies.push(at - sent);
        this.delivered++;
        this.lastArrival = at;
        if (this.#done && this.delivered >= this.#target) {
          this.#done();
          this.#done = null;
        }
      };
    }
  }

  /** Resolves once `count` deliveries in total have arrived, or after `ms`. */
  async waitFor(count: number, ms: number): Promise<boolean> {
    if (this.delivered >= count) return true;
    this.#target = count;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ok = await Promise.race([
      new Promise<boolean>((r) => this.#done = () => r(true)),
      new Promise<boolean>((r) => timer = setTimeout(() => r(false), ms)),
    ]);
    clearTimeout(timer);
    this.#done = null;
    return ok;
  }
}

async function fanout(clients: BenchClient[], senders: BenchClient[]) {
  const rec = new FanoutRecorder(clients);
  let seq = 0;
  let lost = 0;
  // Paced poses: one at a time, each waiting for all deliveries; senders rotate (rate limit).
  for (let i = 0; i < POSES; i++) {
    const s = seq++;
    const expected = rec.delivered + clients.length;
    rec.sentAt.set(s, performance.now());
    senders[i % senders.length].send(`pose fo${s}z`);
    if (!await rec.waitFor(expected, 10_000)) lost += expected - rec.delivered;
    await sleep(50);
  }
  const paced = summarize(rec.latencies);
  // Burst: BURST senders pose at once; throughput is deliveries over the time to the last one.
  await sleep(1100);
  rec.latencies.length = 0;
  const before = rec.delivered;
  const t0 = performance.now();
  for (let j = 0; j < BURST; j++) {
    const s = seq++;
    rec.sentAt.set(s, t0);
    senders[j].send(`pose fo${s}z`);
  }
  const burstTotal = BURST * clients.length;
  if (!await rec.waitFor(before + burstTotal, 20_000)) {
    lost += before + burstTotal - rec.delivered;
  }
  const burstDelivered = rec.delivered - before;
  const burstSeconds = (rec.lastArrival - t0) / 1000;
  for (const c of clients) c.sink = null;
  return {
    recipients: clients.length,
    paced,
    burst: {
      poses: BURST,
      deliveries: burstDelivered,
      seconds: round(burstSeconds),
      deliveriesPerSecond: Math.round(burstDelivered / burstSeconds),
      latency: summarize(rec.latencies),
    },
    lost,
  };
}

/** The engine part: one engine, many WebSocket clients, REST load. Prints its table. */
async function engineBench(): Promise<Record<string, unknown>> {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-bench-" });
  const secret = `bench-${crypto.randomUUID()}`;
  log(`seeding ${CLIENTS} players`);
  const players = await seedPlayers(dir, CLIENTS, secret);
  const tokens = players.map((p) => p.token);

  log("starting the engine");
  const t0 = performance.now();
  let srv: TestServer | null = null;
  const clients: BenchClient[] = [];
  try {
    srv = await startEngine(dir, secret);
    const startupMs = round(performance.now() - t0, 1);
    const pid = srv.child.pid;
    const url = `ws://127.0.0.1:${srv.ws}/`;
    await sleep(1000);
    const rssIdle = await rssKiB(pid);

    log(`round trips with ${PROBES} connections`);
    const probes = await openMany(url, tokens.slice(0, PROBES));
    clients.push(...probes);
    const quiet = await roundTrips(probes, SAMPLES, think("q"));

    log(`round trips while ${STORM} password logins run (${STORM_IN_FLIGHT} at a time)`);
    const stormNames = players.slice(PROBES, PROBES + STORM).map((p) => p.name);
    const stormRun = loginStorm(srv.base, stormNames, "benchpassword", STORM, STORM_IN_FLIGHT);
    let stormDone = false;
    void stormRun.then(() => stormDone = true);
    const stormSamples: number[] = [];
    for (let i = 0; !stormDone; i++) {
      const started = performance.now();
      stormSamples.push(await probes[i % PROBES].roundTrip(`think s${i}x`, `s${i}x`));
      const wait = PACE_MS - (performance.now() - started);
      if (wait > 0) await sleep(wait);
    }
    const storm = { ...await stormRun, roundTrip: summarize(stormSamples) };
    await sleep(1000);
    const rssBase = await rssKiB(pid);

    // Silent resumes: logged in, online and in the room, without 960 `look`s whose transient
    // garbage would swamp what the connections themselves hold (see docs/bench.md).
    log(`connecting ${CLIENTS - PROBES} more clients (token + resume)`);
    const tResume = performance.now();
    clients.push(...await openMany(url, tokens.slice(PROBES), { resume: true }));
    const resumesPerSecond = Math.round(
      (CLIENTS - PROBES) / ((performance.now() - tResume) / 1000),
    );
    await sleep(2000);
    const rssAll = await rssKiB(pid);

    log(`round trips with ${CLIENTS} connections`);
    const loaded = await roundTrips(probes, SAMPLES, think("l"));

    // Commands whose output lists the players present or online: what a crowd costs them.
    log(`look and who with ${CLIENTS} players in the room`);
    const crowdSamples = Math.max(50, Math.floor(SAMPLES / 5));
    const look = await roundTrips(
      probes,
      crowdSamples,
      () => ({ line: "look", needle: '"type":"room"' }),
      20,
    );
    const who = await roundTrips(
      probes,
      crowdSamples,
      () => ({ line: "who", needle: '"type":"who"' }),
      20,
    );

    log(`pose fan-out to ${CLIENTS} clients in one room`);
    const fan = await fanout(clients, probes);

    log("REST throughput");
    const health = await restLoad(srv.base, "/health", REST_SECONDS, 32);
    const me = await restLoad(srv.base, "/api/v1/me", REST_SECONDS, 32, tokens[0]);

    log("full logins (motd, welcome, look) into the crowded room");
    const relog = clients.splice(PROBES, LOGINS);
    await Promise.all(relog.map((c) => c.close()));
    await sleep(500);
    const tLogin = performance.now();
    clients.push(...await openMany(url, tokens.slice(PROBES, PROBES + LOGINS)));
    const loginsPerSecond = Math.round(LOGINS / ((performance.now() - tLogin) / 1000));
    const rssEnd = await rssKiB(pid);

    await Promise.all(clients.splice(0).map((c) => c.close()));
    await srv.stop({ keepDir: true });
    srv = null;

    log("memory per connection (a second engine, read after forced garbage collections)");
    const mem = await memoryBench(dir, secret, tokens);
    const perConn = mem.perConnection;
    const result = {
      timestamp: new Date().toISOString(),
      environment: {
        deno: Deno.version.deno,
        v8: Deno.version.v8,
        os: Deno.build.os,
        arch: Deno.build.arch,
        cpus: navigator.hardwareConcurrency,
        loadavg: Deno.loadavg(),
      },
      clients: CLIENTS,
      startupMs,
      rssKiB: {
        idle: rssIdle,
        withProbes: rssBase,
        withAllClients: rssAll,
        atEnd: rssEnd,
        collected: mem,
        perConnection: perConn,
      },
      resumesPerSecond,
      loginsPerSecond,
      roundTripMs: {
        quiet: { connections: PROBES, ...quiet },
        duringLoginStorm: { connections: PROBES, ...storm.roundTrip },
        loaded: { connections: CLIENTS, ...loaded },
        look: { connections: CLIENTS, ...look },
        who: { connections: CLIENTS, ...who },
      },
      loginStorm: storm,
      fanout: fan,
      rest: { health, me },
      targets: {
        roundTripP50Below1ms: quiet.p50 < 1,
        fanoutP99Below50ms: fan.paced.p99 < 50,
        perConnectionBelow30KiB: perConn !== null && perConn < 30,
      },
    };

    const ms = (s: Summary) => `${s.p50} / ${s.p99} ms`;
    const ok = (b: boolean) => (b ? "met" : "MISSED");
    console.log(
      "\n" + table([
        ["Measure", "Value", "Target"],
        ["Start-up to healthy /health", `${startupMs} ms`, ""],
        ["Engine RSS idle", `${rssIdle} KiB`, ""],
        [`Engine RSS with ${PROBES} / ${CLIENTS} connections`, `${rssBase} / ${rssAll} KiB`, ""],
        [
          `Same after full GCs (idle / ${PROBES} / ${CLIENTS})`,
          `${mem.rss.idle} / ${mem.rss.withProbes} / ${mem.rss.withAllClients} KiB`,
          "",
        ],
        [
          "Memory per idle connection",
          `${perConn} KiB (JS heap ${mem.heapPerConnection})`,
          `< 30 KiB: ${ok(result.targets.perConnectionBelow30KiB)}`,
        ],
        [
          `Round trip p50 / p99 (${PROBES} connected)`,
          ms(quiet),
          `p50 < 1 ms: ${ok(result.targets.roundTripP50Below1ms)}`,
        ],
        [`Round trip p50 / p99 during ${STORM} password logins`, ms(storm.roundTrip), "p99 < 5 ms"],
        [
          "Password logins (REST, 10 at a time)",
          `${storm.perSecond} /s (${storm.ok} ok, ${storm.busy} busy, ${storm.failed} failed)`,
          "",
        ],
        [`Round trip p50 / p99 (${CLIENTS} connected)`, ms(loaded), ""],
        [`look in a ${CLIENTS}-player room, p50 / p99`, ms(look), ""],
        [`who with ${CLIENTS} online, p50 / p99`, ms(who), ""],
        [
          `Pose fan-out to ${CLIENTS}, p50 / p99 delivery`,
          ms(fan.paced),
          `p99 < 50 ms: ${ok(result.targets.fanoutP99Below50ms)}`,
        ],
        [
          `Fan-out burst (${BURST} poses at once)`,
          `${fan.burst.deliveriesPerSecond} deliveries/s, p99 ${fan.burst.latency.p99} ms`,
          "",
        ],
        ["Deliveries lost", String(fan.lost), "0"],
        ["Silent resumes (token)", `${resumesPerSecond} /s`, ""],
        [`Full logins in a ${CLIENTS}-player room`, `${loginsPerSecond} /s`, ""],
        ["Engine RSS at the end", `${rssEnd} KiB`, ""],
        ["REST GET /health", `${health.rps} req/s (${health.errors} errors)`, ""],
        ["REST GET /api/v1/me", `${me.rps} req/s (${me.errors} errors)`, ""],
      ]) + "\n",
    );

    return result;
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    if (srv) await srv.stop({ keepDir: true });
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** The bench engine on the seeded database (no caps: every client comes from 127.0.0.1). */
function startEngine(dir: string, secret: string, denoArgs: string[] = []): Promise<TestServer> {
  return startServer({
    dir,
    denoArgs,
    env: { JWT_SECRET: secret },
    config: {
      server: { maxConnections: 0, maxConnectionsPerIp: 0 },
      game: { idleTimeout: 0, maxPlayers: 0, registrationsPerHour: 0 },
    },
  });
}

/**
 * Memory per idle connection, measured on an engine of its own started with `--inspect`
 * (which slows it, so no timing runs there): RSS and JS heap after forced full collections
 * with the probes logged in, then with every client (the rest by silent resume).
 */
async function memoryBench(dir: string, secret: string, tokens: string[]) {
  const port = freePort();
  const srv = await startEngine(dir, secret, [`--inspect=127.0.0.1:${port}`]);
  const clients: BenchClient[] = [];
  try {
    const url = `ws://127.0.0.1:${srv.ws}/`;
    const read = async () => {
      const inspector = await Inspector.connect(port);
      try {
        const heap = await inspector.collect();
        return { rss: await rssKiB(srv.child.pid) ?? NaN, heap: heap.usedSize / 1024 };
      } finally {
        inspector.close();
      }
    };
    await sleep(500);
    const idle = await read();
    clients.push(...await openMany(url, tokens.slice(0, PROBES)));
    const probes = await read();
    clients.push(...await openMany(url, tokens.slice(PROBES), { resume: true }));
    await sleep(1000);
    const all = await read();
    const n = tokens.length - PROBES;
    return {
      rss: { idle: idle.rss, withProbes: probes.rss, withAllClients: all.rss },
      heapKiB: {
        idle: Math.round(idle.heap),
        withProbes: Math.round(probes.heap),
        withAllClients: Math.round(all.heap),
      },
      perConnection: round((all.rss - probes.rss) / n, 2),
      heapPerConnection: round((all.heap - probes.heap) / n, 2),
    };
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await srv.stop({ keepDir: true });
  }
}

async function main(): Promise<void> {
  const benchStart = performance.now();
  const result: Record<string, unknown> = !ONLY || ONLY === "engine"
    ? await engineBench()
    : { timestamp: new Date().toISOString(), loadavg: Deno.loadavg() };
  if (SCRIPT_SAMPLES > 0 && (!ONLY || ONLY === "scripts")) {
    log("system scripts against the same built-in commands (bench/scripts.ts)");
    const scripts = await runScriptBench(SCRIPT_SAMPLES, log, {
      cpus: opt["script-cpus"],
      rounds: Math.max(1, Number(opt["script-rounds"])),
      warm: Number(opt["script-warm"]),
    });
    console.log("\n" + table(scriptRows(scripts)) + "\n");
    result.scripts = scripts;
  }
  if (TELNET_PLAYERS > 0 && (!ONLY || ONLY === "telnet")) {
    log(`telnet: ${TELNET_PLAYERS} telnet players through the supervisor (bench/telnet.ts)`);
    const telnet = await runTelnetBench({
      players: TELNET_PLAYERS,
      samples: Number(opt["telnet-samples"] ?? SAMPLES),
      poses: Number(opt["telnet-poses"] ?? POSES),
      storm: Math.max(0, Number(opt["telnet-storm"])),
      reboots: Math.max(0, Number(opt["telnet-reboots"])),
      hold: Math.max(0, Number(opt["telnet-hold"])),
      settleMs: Math.max(0, Number(opt["telnet-settle-ms"])),
      phases: TELNET_PHASES,
      log,
    });
    console.log("\n" + table(telnetRows(telnet, TELNET_PHASES)) + "\n");
    result.telnet = telnet;
  }
  const ramp = Math.max(0, Number(opt.ramp));
  if (ramp > 0 && (!ONLY || ONLY === "ramp")) {
    log(`ramp: ${ramp} telnet logins one after another (bench/ramp.ts)`);
    const r = await runRampBench({ players: ramp, log });
    console.log("\n" + table(rampRows(r)) + "\n");
    result.ramp = r;
  }
  if (REBOOT_SESSIONS > 0 && (!ONLY || ONLY === "reboot")) {
    log(`reboots under the supervisor with ${REBOOT_SESSIONS} telnet players (bench/reboot.ts)`);
    const reboot = await runRebootBench({ sessions: REBOOT_SESSIONS, reboots: REBOOTS, log });
    console.log("\n" + table(rebootRows(reboot)) + "\n");
    result.reboot = reboot;
  }
  if (SCENES > 0 && (!ONLY || ONLY === "scenes")) {
    log(`scenes: ${SCENE_POSES}-pose export, lists with ${SCENES} scenes (bench/scenes.ts)`);
    const scenes = await runScenesBench({ scenes: SCENES, poses: SCENE_POSES, log });
    console.log("\n" + table(sceneRows(scenes)) + "\n");
    result.scenes = scenes;
  }
  if (WORLD_OBJECTS > 0 && (!ONLY || ONLY === "world")) {
    log(`world: ${WORLD_OBJECTS} objects in memory, with their attributes (bench/world.ts)`);
    const world = await runWorldBench({
      objects: WORLD_OBJECTS,
      attributes: Math.max(0, Number(opt["world-attributes"])),
      valueChars: Math.max(1, Number(opt["world-value"])),
    }, log);
    console.log("\n" + table(worldRows(world)) + "\n");
    result.world = world;
  }
  if (SOFTCODE_ITERS > 0 && (!ONLY || ONLY === "softcode")) {
    const shared = opt["softcode-driver"] ?? SHARED_BENCH;
    log(
      `softcode: expressions' server CPU${
        opt["softcode-mux"] ? " side by side with TinyMUX 2.12" : ""
      } (bench/softcode.ts)`,
    );
    const softcode = await runSoftcodeBench({
      iters: SOFTCODE_ITERS,
      runs: Math.max(1, Number(opt["softcode-runs"])),
      driver: join(shared, "telnet_bench.ts"),
      tinymux: opt["softcode-mux"] ? join(shared, "tinymux.sh") : null,
      serverCpus: opt["softcode-cpus"],
      driverCpus: opt["softcode-driver-cpus"],
      only: opt["softcode-only"].toLowerCase().split(",").filter(Boolean),
      methods: SOFTCODE_METHODS,
      sideLines: Math.max(1, Number(opt["softcode-side-lines"])),
      blocks: count(opt["softcode-blocks"]),
      blockPairs: count(opt["softcode-block-pairs"]),
      warmup: count(opt["softcode-warmup"], 0),
      selfCheck: opt["softcode-self-check"],
    }, log);
    for (const r of softcode) {
      console.log(`\nsoftcode, measured by ${r.method}:\n` + softcodeReport(r) + "\n");
    }
    result.softcode = softcode.length === 1 ? softcode[0] : softcode;
  }
  if (BLOAT_POSES > 0 && (!ONLY || ONLY === "bloat")) {
    log(
      `bloat: another player's round trip while a ${BLOAT_POSES}-pose scene is read (bench/bloat.ts)`,
    );
    const bloat = await runBloatBench({ poses: BLOAT_POSES, readers: BLOAT_READERS, log });
    console.log("\n" + table(bloatRows(bloat)) + "\n");
    result.bloat = bloat;
  }
  result.benchSeconds = round((performance.now() - benchStart) / 1000, 1);
  const outDir = join(ROOT, "bench", "results");
  await Deno.mkdir(outDir, { recursive: true });
  const file = join(outDir, `${String(result.timestamp).replace(/[:.]/g, "-")}.json`);
  await Deno.writeTextFile(file, JSON.stringify(result, null, 2) + "\n");
  log(`wrote ${file} (${result.benchSeconds} s)`);
}

if (import.meta.main) {
  try {
    await main();
    Deno.exit(0);
  } catch (e) {
    console.error(`bench: failed: ${(e as Error)?.stack ?? e}`);
    Deno.exit(1);
  }
}
