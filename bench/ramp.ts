/**
 * The login ramp of the telnet bench: `n` new characters made one after another over telnet
 * (`create <name> <password>`, ten in flight as one address may have, bcrypt at the engine's own
 * cost), each walking on from the starting room to one of a hundred rooms once it is in, as new
 * players of a game do, and staying connected. Every new character joins the default channels
 * (Public), so this is where a login's cost would grow with the number online: reported per
 * thousand, as logins a second and the server's CPU a login. docs/bench.md has the figures.
 */
import { join } from "node:path";
import { startServer, type TestServer, waitHealthy } from "../tests/harness.ts";
import { openStore } from "../src/storage/kv.ts";
import { ObjectStore } from "../src/world/objects.ts";
import { ensureStartingRoom } from "../src/world/start.ts";
import { LeanTelnet } from "./telnet_client.ts";
import { round, table } from "./stats.ts";
import { treeRss } from "./telnet.ts";

/** Rooms the new characters spread over (a crowd of thousands in one room has no game). */
export const RAMP_ROOMS = 100;

/** Name of the room new characters arrive in. */
export const RAMP_GATE = "Ramp Gate";

/** One thousand of the ramp. */
export interface RampStep {
  /** Players online when this thousand began (of the ramp's own). */
  from: number;
  to: number;
  seconds: number;
  loginsPerSecond: number;
  /** Server CPU (every process of the game) per login, in ms. */
  cpuMsPerLogin: number;
}

/** What the ramp measured. */
export interface RampResult {
  target: number;
  ok: number;
  failed: number;
  steps: RampStep[];
  /** Logins a second in the last thousand over the first (1: a login takes as long). */
  lastOverFirst: number;
  /**
   * Server CPU a login in the last thousand over the first (1: a login costs the same): the
   * figure to read on a shared machine, where logins a second move with everyone else's load.
   */
  cpuLastOverFirst: number;
  /** Resident memory of the game's processes with every ramp player on (KiB). */
  rssKiB?: number;
}

/**
 * Writes the ramp's gate room (with an exit `ramp<k>` to each of the rooms) into `<dir>/ursamu.db`
 * and returns its id, for `game.playerStart`.
 */
export async function seedRampRooms(dir: string): Promise<string> {
  const kv = await openStore(join(dir, "ursamu.db"));
  try {
    const objects = new ObjectStore(kv);
    await ensureStartingRoom(objects);
    const gate = await objects.create({ name: RAMP_GATE, type: "room" });
    for (let k = 0; k < RAMP_ROOMS; k++) {
      const room = await objects.create({ name: `Ramp Room ${k}`, type: "room" });
      await objects.create({
        name: `ramp${k}`,
        type: "exit",
        location: gate.id,
        data: { destination: room.id },
      });
    }
    return gate.id;
  } finally {
    kv.close();
  }
}

/** CPU seconds (user and system) of a process and its descendants, from /proc. */
async function treeCpu(pid: number): Promise<number> {
  const tick = 100; // USER_HZ on Linux
  let total = 0;
  const seen = [pid];
  for (let i = 0; i < seen.length; i++) {
    try {
      const stat = await Deno.readTextFile(`/proc/${seen[i]}/stat`);
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      total += (Number(f[11]) + Number(f[12])) / tick;
      for await (const t of Deno.readDir(`/proc/${seen[i]}/task`)) {
        const kids = await Deno.readTextFile(`/proc/${seen[i]}/task/${t.name}/children`);
        for (const k of kids.trim().split(/\s+/)) if (k) seen.push(Number(k));
      }
    } catch { /* gone */ }
  }
  return total;
}

/** Makes one character and walks it on; resolves with its connection. */
async function createOne(port: number, name: string, password: string, k: number) {
  const c = await LeanTelnet.connect(port);
  try {
    await c.until("connect <name>", 60_000);
    const gate = c.until(RAMP_GATE, 120_000);
    await c.send(`create ${name} ${password}`);
    await gate;
    const room = c.until(`Ramp Room ${k}`, 60_000);
    await c.send(`ramp${k}`);
    await room;
    return c;
  } catch (e) {
    await c.close();
    throw new Error(`${name}: ${(e as Error).message}`);
  }
}

/**
 * Runs the ramp against the game on `port` (its process tree under `pid`): `n` characters named
 * `<prefix><i>`. The connections are returned in `clients` to be closed by the caller.
 */
export async function runRamp(
  port: number,
  pid: number,
  n: number,
  clients: LeanTelnet[],
  log: (line: string) => void,
  opts: { prefix?: string; password?: string; inFlight?: number } = {},
): Promise<RampResult> {
  const prefix = opts.prefix ?? "Ramp";
  const password = opts.password ?? "rampPassword1";
  const inFlight = opts.inFlight ?? 10;
  const steps: RampStep[] = [];
  let ok = 0, failed = 0, next = 0;
  let stepStart = performance.now();
  let stepCpu = await treeCpu(pid);
  let stepFrom = 0;
  const closeStep = async (to: number) => {
    const now = performance.now();
    const cpu = await treeCpu(pid);
    const seconds = (now - stepStart) / 1000;
    const logins = to - stepFrom;
    steps.push({
      from: stepFrom,
      to,
      seconds: round(seconds, 1),
      loginsPerSecond: round(logins / seconds, 1),
      cpuMsPerLogin: round((cpu - stepCpu) * 1000 / logins, 1),
    });
    const s = steps.at(-1)!;
    log(`telnet: ramp ${to} online, ${s.loginsPerSecond} logins/s, ${s.cpuMsPerLogin} ms CPU each`);
    stepStart = now;
    stepCpu = cpu;
    stepFrom = to;
  };
  let closing: Promise<void> = Promise.resolve();
  const worker = async () => {
    while (next < n) {
      const i = next++;
      try {
        clients.push(await createOne(port, `${prefix}${i}`, password, i % RAMP_ROOMS));
        ok++;
      } catch {
        failed++;
      }
      const done = ok + failed;
      if (done % 1000 === 0 || done === n) closing = closing.then(() => closeStep(done));
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  await closing;
  const ratio = (f: (s: RampStep) => number) => {
    const first = steps.length ? f(steps[0]) : 0;
    return first ? round(f(steps.at(-1)!) / first, 2) : 0;
  };
  return {
    target: n,
    ok,
    failed,
    steps,
    lastOverFirst: ratio((s) => s.loginsPerSecond),
    cpuLastOverFirst: ratio((s) => s.cpuMsPerLogin),
  };
}

/** Runs the ramp on a game of its own under the supervisor (`deno task bench --only ramp`). */
export async function runRampBench(
  opts: { players: number; log: (line: string) => void },
): Promise<RampResult> {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-bench-ramp-" });
  const clients: LeanTelnet[] = [];
  let srv: TestServer | null = null;
  try {
    const gate = await seedRampRooms(dir);
    srv = await startServer({
      dir,
      entry: "src/supervisor/main.ts",
      config: {
        server: { maxConnections: 0, maxConnectionsPerIp: 0 },
        game: { idleTimeout: 0, maxPlayers: 0, registrationsPerHour: 0, playerStart: `#${gate}` },
      },
    });
    await waitHealthy(srv.base, () => false, () => srv!.output(), 60_000);
    await srv.waitFor(/telnet: listening on/, 30_000);
    opts.log(`ramp: ${opts.players} new characters over telnet, ten at a time`);
    const r = await runRamp(srv.telnet, srv.child.pid, opts.players, clients, opts.log);
    r.rssKiB = (await treeRss(srv.child.pid)).total;
    return r;
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    if (srv) await srv.stop({ keepDir: true });
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** Table rows (header first) for the ramp. */
export function rampRows(r: RampResult): string[][] {
  return [
    ["Ramp (new characters online)", "Logins/s", "Server CPU per login"],
    ...r.steps.map((s) => [
      `${s.from}-${s.to}`,
      String(s.loginsPerSecond),
      `${s.cpuMsPerLogin} ms`,
    ]),
    ["last thousand / first", String(r.lastOverFirst), String(r.cpuLastOverFirst)],
  ];
}

if (import.meta.main) {
  const players = Number(Deno.args[0] ?? 10_000);
  const r = await runRampBench({ players, log: (l) => console.log(`bench: ${l}`) });
  console.log(table(rampRows(r)));
  console.log(JSON.stringify(r));
}
