/**
 * The engine's CPU a typed telnet line costs, in process (docs/bench.md, issue 34): the real
 * engine (world, hub, plugins, scripts) serves telnet players on sockets handed over exactly as
 * in the server: a real loopback TCP listener here accepts each connection and gives its
 * descriptor to the sidecar's keeper (src/telnet/handoff/keeper.ts), which hands it over the
 * Unix channel to the engine's host (engine_host.ts), whose telnet client and the hub's telnet
 * carrier serve it. Only the supervisor and the sidecar's own process are missing. A driver runs
 * as a child process (so its reads are not this process's CPU), logs `--players` players in,
 * spread over rooms of `--room-size`, and sends `think`, `say` and `pose` lines one at a time,
 * each after the answer to the last, first with `--gap-ms` between them (a paced line, as players
 * type: what counts, since a paced line runs on cold caches) and then back to back. For each it
 * prints this process's CPU a line (user + system, `process.cpuUsage` over the measured lines,
 * so the kernel's TCP, the runtime's and V8's threads are in it, as in a server's process), the
 * same less the idle engine's CPU over as long, and the driver's round trip p50.
 *
 *   DENO_NO_PACKAGE_JSON=1 taskset -c 0 deno run --unstable-kv -A bench/telnet_line_cpu.ts \
 *     [--players 200] [--room-size 20] [--lines 2000] [--warmup 500] [--gap-ms 5]
 *     [--kinds think,say,pose] [--modes paced,b2b] [--driver-cpus 1] [--idle-s 3]
 *     [--profile] [--profile-out DIR] [--alloc]
 *
 * `--profile`: a V8 CPU profile (50 µs sampling) of each paced run, summed by function and by
 * file in µs a line (`(garbage collector)` is V8's collection); `--profile-out DIR` also writes
 * each as a `.cpuprofile`. `--alloc`: V8's sampling heap profiler over each paced run, objects
 * since collected included (every 256 bytes): bytes allocated a line and the largest sites.
 * The command rate (10 lines a second a player) holds back to back at most 10 × `--players`
 * lines a second, so its figure is of lines about 1/(10 × players) s apart.
 */
import { parseArgs } from "node:util";
import net from "node:net";
import process from "node:process";
import { Session } from "node:inspector";
import { fileURLToPath } from "node:url";
import { createEngine, type Engine } from "../src/engine.ts";
import { EngineHost } from "../src/telnet/handoff/engine_host.ts";
import { TelnetKeeper } from "../src/telnet/handoff/keeper.ts";
import { handoffUnavailable } from "../src/telnet/handoff/support.ts";
import { type CpuProfile, type HeapNode, heapSites, topSelf } from "./inspector.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PASSWORD = "benchpass1";

const { values: opt } = parseArgs({
  args: Deno.args,
  options: {
    players: { type: "string", default: "200" },
    "room-size": { type: "string", default: "20" },
    lines: { type: "string", default: "2000" },
    warmup: { type: "string", default: "500" },
    "gap-ms": { type: "string", default: "5" },
    kinds: { type: "string", default: "think,say,pose" },
    modes: { type: "string", default: "paced,b2b" },
    "driver-cpus": { type: "string" },
    "idle-s": { type: "string", default: "3" },
    profile: { type: "boolean", default: false },
    "profile-out": { type: "string" },
    alloc: { type: "boolean", default: false },
    // The child's side (set by this file when it starts the driver).
    driver: { type: "boolean", default: false },
    port: { type: "string" },
  },
});

/** One measured run, as the driver asks for it. */
interface Phase {
  kind: string;
  mode: "paced" | "b2b" | "idle";
}

/** What the driver says to this process, one JSON line each. */
type DriverMessage =
  | { t: "begin"; phase: Phase }
  | { t: "end"; phase: Phase; lines: number; p50: number; p99: number }
  | { t: "ready"; players: number }
  | { t: "done" }
  | { t: "error"; message: string };

// ------------------------------------------------------------------------------ the driver

/** A driver's telnet client: one socket, the text it received lately, one awaited marker. */
class DriverClient {
  #tail = "";
  #want: { marker: string; done: (t: number) => void } | null = null;
  constructor(readonly conn: Deno.TcpConn) {
    void this.#read();
  }
  async #read(): Promise<void> {
    const buf = new Uint8Array(65536);
    const dec = new TextDecoder("latin1");
    try {
      for (;;) {
        const n = await this.conn.read(buf);
        if (n === null) break;
        const got = performance.now();
        this.#tail = (this.#tail + dec.decode(buf.subarray(0, n))).slice(-4096);
        const w = this.#want;
        if (w && this.#tail.includes(w.marker)) {
          this.#want = null;
          w.done(got);
        }
      }
    } catch { /* closed */ }
  }
  /** Sends a line and resolves with the time its marker came back. */
  ask(line: string, marker: string): Promise<number> {
    const p = new Promise<number>((done) => this.#want = { marker, done });
    this.#tail = "";
    void this.conn.write(new TextEncoder().encode(line + "\r\n"));
    return p;
  }
}

/** The child process: logs the players in and runs the phases the parent measures. */
async function runDriver(): Promise<void> {
  const out = (m: DriverMessage) => console.log(JSON.stringify(m));
  const lines = Number(opt.lines), warmup = Number(opt.warmup), gap = Number(opt["gap-ms"]);
  const players = Number(opt.players);
  const acks = (async function* () {
    const dec = new TextDecoder();
    let buf = "";
    for await (const chunk of Deno.stdin.readable) {
      buf += dec.decode(chunk);
      let at;
      while ((at = buf.indexOf("\n")) >= 0) {
        yield buf.slice(0, at);
        buf = buf.slice(at + 1);
      }
    }
  })();
  const ack = async () => {
    if ((await acks.next()).done) throw new Error("the engine's side went away");
  };
  const clients: DriverClient[] = [];
  let seq = 0;
  const tag = () => `m${++seq}q`;
  let next = 0;
  const login = async (i: number) => {
    const c = new DriverClient(
      await Deno.connect({ hostname: "127.0.0.1", port: Number(opt.port) }),
    );
    const m = tag();
    const answered = c.ask(`connect tlc${i} ${PASSWORD}\r\nthink ${m}`, m);
    await Promise.race([
      answered,
      new Promise((_, no) => setTimeout(() => no(new Error(`login of tlc${i} timed out`)), 60_000)),
    ]);
    clients[i] = c;
  };
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next < players) await login(next++);
  }));
  out({ t: "ready", players: clients.length });
  await ack();
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  await sleep(Number(opt["idle-s"]) * 1000);
  for (const kind of opt.kinds!.split(",")) {
    for (const mode of opt.modes!.split(",") as ("paced" | "b2b")[]) {
      const wait = mode === "paced" ? gap : 0;
      let turn = 0;
      const one = async () => {
        const m = tag();
        const c = clients[turn++ % clients.length];
        const t0 = performance.now();
        const t1 = await c.ask(`${kind} ${m}`, m);
        if (wait > 0) await sleep(wait);
        return t1 - t0;
      };
      for (let i = 0; i < warmup; i++) await one();
      const phase: Phase = { kind, mode };
      // The idle engine's CPU over as long as the paced run, for the net figure.
      if (mode === "paced" && Number(opt["idle-s"]) > 0) {
        out({ t: "begin", phase: { kind, mode: "idle" } });
        await ack();
        await sleep(Number(opt["idle-s"]) * 1000);
        out({ t: "end", phase: { kind, mode: "idle" }, lines: 0, p50: 0, p99: 0 });
        await ack();
      }
      out({ t: "begin", phase });
      await ack();
      const rtt = new Float64Array(lines);
      for (let i = 0; i < lines; i++) rtt[i] = await one();
      rtt.sort();
      out({ t: "end", phase, lines, p50: rtt[lines >> 1], p99: rtt[Math.floor(lines * 0.99)] });
      await ack();
    }
  }
  out({ t: "done" });
  for (const c of clients) c.conn.close();
}

// -------------------------------------------------------------------------- the engine's side

/** CPU µs (user + system) of this process now. */
function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/** The inspector of this process, for the profiles. */
class Inspect {
  readonly #s = new Session();
  constructor() {
    this.#s.connect();
  }
  post(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    return new Promise((res, rej) => this.#s.post(method, params, (e, r) => e ? rej(e) : res(r)));
  }
}

/** Builds the engine and the telnet path, runs the driver and prints its measurements. */
async function runEngineSide(): Promise<void> {
  const why = handoffUnavailable();
  if (why !== null) throw new Error(`the telnet handoff is not available here: ${why}`);
  const tmp = await Deno.makeTempDir({ prefix: "ursamu-telnet-cpu-" });
  await Deno.writeTextFile(
    `${tmp}/config.json`,
    JSON.stringify({
      server: { maxConnections: 0, maxConnectionsPerIp: 0, wikiDir: `${tmp}/wiki` },
      game: { idleTimeout: 0, registrationsPerHour: 0, loginsPerMinute: 0 },
      database: { backupDir: `${tmp}/backups` },
      web: { avatarDir: `${tmp}/avatars` },
    }),
  );
  // Its own environment: nothing of the caller's URSAMU_* reaches it.
  const engine: Engine = await createEngine({
    root: ROOT,
    env: {
      URSAMU_SERVER_DB: `${tmp}/ursamu.db`,
      URSAMU_CONFIG: `${tmp}/config.json`,
      URSAMU_LOGGING_DIR: `${tmp}/logs`,
      JWT_SECRET: "telnet-line-cpu",
      NO_COLOR: "1",
    },
  });
  const secret = `telnet-line-cpu-${crypto.randomUUID()}`;
  const keeper = new TelnetKeeper({ secret, startedAt: Date.now(), log: () => {} });
  keeper.listen();
  const carrier = engine.telnet;
  const host = new EngineHost({
    secret,
    hub: (events, token) => carrier.open(events, token),
    gameName: "bench",
    port: 0,
    online: () => engine.services.presence.onlinePlayers().length,
    log: () => {},
    retryMs: 20,
  });
  host.start();
  const server = net.createServer({ pauseOnConnect: true, noDelay: true });
  server.on("connection", (socket: net.Socket) => {
    // deno-lint-ignore no-explicit-any
    const fd: number = (socket as any)._handle.fdForIpc();
    socket.destroy();
    keeper.add(fd, "127.0.0.1");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as net.AddressInfo).port;
  try {
    for (let i = 0; i < 200 && !host.connected; i++) await new Promise((r) => setTimeout(r, 10));
    if (!host.connected) throw new Error("the engine's host did not reach the keeper");
    const players = Number(opt.players), roomSize = Math.max(1, Number(opt["room-size"]));
    const { objects, accounts } = engine.services;
    let room = "1";
    for (let i = 0; i < players; i++) {
      if (i % roomSize === 0) {
        room = (await objects.create({ name: `Bench ${i}`, type: "room" })).id;
      }
      await accounts.register(`tlc${i}`, PASSWORD, { location: room });
    }
    await measure(port, engine);
  } finally {
    server.close();
    await host.stop(false, 500);
    await keeper.shutdown();
    await engine.close();
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}

/** Starts the driver and measures each phase it announces. */
async function measure(port: number, engine: Engine): Promise<void> {
  const self = fileURLToPath(import.meta.url);
  const childArgs = [
    "run",
    "-A",
    self,
    "--driver",
    "--port",
    String(port),
    ...["players", "lines", "warmup", "gap-ms", "kinds", "modes", "idle-s"]
      .flatMap((k) => [`--${k}`, String(opt[k as keyof typeof opt])]),
  ];
  const cpus = opt["driver-cpus"];
  const child = new Deno.Command(cpus ? "taskset" : Deno.execPath(), {
    args: cpus ? ["-c", cpus, Deno.execPath(), ...childArgs] : childArgs,
    stdin: "piped",
    stdout: "piped",
    env: { DENO_NO_PACKAGE_JSON: "1" },
  }).spawn();
  const writer = child.stdin.getWriter();
  const go = () => writer.write(new TextEncoder().encode("go\n"));
  const inspect = opt.profile || opt.alloc ? new Inspect() : null;
  if (inspect && opt.profile) {
    await inspect.post("Profiler.enable");
    await inspect.post("Profiler.setSamplingInterval", { interval: 50 });
  }
  let cpu0 = 0, t0 = 0;
  const idle = new Map<string, number>();
  const dec = new TextDecoder();
  let buf = "";
  const rows: string[] = [];
  console.log(
    `engine pid ${Deno.pid}; ${opt.players} players in rooms of ${opt["room-size"]}; ` +
      `gap ${opt["gap-ms"]} ms; ${opt.lines} lines a run after ${opt.warmup}`,
  );
  for await (const chunk of child.stdout) {
    buf += dec.decode(chunk);
    let at;
    while ((at = buf.indexOf("\n")) >= 0) {
      const m = JSON.parse(buf.slice(0, at)) as DriverMessage;
      buf = buf.slice(at + 1);
      if (m.t === "ready") {
        console.log(`${m.players} players logged in`);
        await go();
      } else if (m.t === "begin") {
        const paced = m.phase.mode === "paced";
        if (inspect && paced && opt.profile) await inspect.post("Profiler.start");
        if (inspect && paced && opt.alloc) {
          await inspect.post("HeapProfiler.startSampling", {
            samplingInterval: 256,
            includeObjectsCollectedByMajorGC: true,
            includeObjectsCollectedByMinorGC: true,
          });
        }
        t0 = performance.now();
        cpu0 = cpuMicros();
        await go();
      } else if (m.t === "end") {
        const used = cpuMicros() - cpu0;
        const ms = performance.now() - t0;
        const name = `${m.phase.kind} ${m.phase.mode}`;
        if (m.phase.mode === "idle") {
          idle.set(m.phase.kind, used / ms);
          await go();
          continue;
        }
        const per = used / m.lines;
        const idlePerMs = m.phase.mode === "paced" ? idle.get(m.phase.kind) ?? 0 : 0;
        const net = (used - idlePerMs * ms) / m.lines;
        const row = `${name.padEnd(12)} ${per.toFixed(1).padStart(7)} µs a line  ` +
          `(less idle ${net.toFixed(1)}; idle ${idlePerMs.toFixed(2)} ms/s)  ` +
          `round trip p50 ${(m.p50 * 1000).toFixed(0)} µs, p99 ${(m.p99 * 1000).toFixed(0)} µs`;
        console.log(row);
        rows.push(row);
        if (inspect && m.phase.mode === "paced" && opt.alloc) {
          const { profile } = await inspect.post("HeapProfiler.stopSampling") as {
            profile: { head: HeapNode };
          };
          const { total, top } = heapSites(profile.head, m.lines);
          console.log(`  allocated (sampled): ${(total / m.lines).toFixed(0)} B a line; sites:`);
          console.log(top);
        }
        if (inspect && m.phase.mode === "paced" && opt.profile) {
          const { profile } = await inspect.post("Profiler.stop") as { profile: CpuProfile };
          console.log(`  profile of ${name}, by function (µs a line):`);
          console.log(topSelf(profile, 30, m.lines));
          console.log(`  by file:`);
          console.log(topSelf(profile, 30, m.lines, true));
          if (opt["profile-out"]) {
            const file = `${opt["profile-out"]}/${m.phase.kind}-paced.cpuprofile`;
            await Deno.writeTextFile(file, JSON.stringify(profile));
            console.log(`  written to ${file}`);
          }
        }
        await go();
      } else if (m.t === "done") {
        await writer.close();
      } else if (m.t === "error") throw new Error(m.message);
    }
  }
  const status = await child.status;
  if (!status.success) throw new Error(`the driver failed (${status.code})`);
  console.log(`engine: ${engine.telnet.sessions} telnet sessions at the end`);
}

if (import.meta.main) {
  if (opt.driver) await runDriver();
  else await runEngineSide();
}
