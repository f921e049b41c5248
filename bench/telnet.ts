/**
 * The telnet part of `deno task bench` (`--only telnet`): the whole stack under the supervisor
 * (sidecar, one mux link, engine), driven through telnet by lean clients (bench/telnet_client.ts).
 * On one supervisor run it measures, in order: the `think` round trip with 40 players taking turns
 * (5 ms apart, as the shared side-by-side driver does), memory per telnet player (VmRSS of the
 * supervisor, sidecar and engine summed, after settling), the round trip with every player on,
 * pose fan-out to all of them (delivery p50/p99, deliveries lost), password logins per second
 * over telnet at full bcrypt cost and a player's round trip during that storm, `@reboot` with
 * every player on (each session back within how long of /health answering), and the hold: as
 * many players as `hold` connected at once, with an active player's round trip, the memory, and
 * one more reboot at that size.
 *
 * Players are written straight into the database first (bench/telnet_seed.ts): the storm's with
 * bcrypt cost 10, the rest with a cheap hash of the same scheme so that the hold does not spend
 * minutes in bcrypt. Run alone: `deno run --unstable-kv -A bench/telnet.ts [--players N] ...`.
 */
import { parseArgs } from "node:util";
import { startServer, type TestServer, waitHealthy } from "../tests/harness.ts";
import { LeanTelnet, loginMany, telnetLogin } from "./telnet_client.ts";
import { roundTrips, roundTripsApart } from "./telnet_rtt.ts";
import { seedTelnetPlayers, TELNET_PASSWORD } from "./telnet_seed.ts";
import { round, rssKiB, sleep, summarize, type Summary, table } from "./stats.ts";
import { healthy } from "./health.ts";

/** The superuser that sends `@reboot` (created by the supervisor's first-run setup). */
const ADMIN = { name: "BenchAdmin", password: "bench-admin-password" };
/** What every telnet player sees once per resumed session. */
const RESUMED = "Your session continues";
/** What a telnet player sees when the resume failed (a new login is needed). */
const RESUME_FAILED = "could not be resumed";
/** Players that take turns sending, so none exceeds 10 commands a second. */
const PROBES = 40;
/** Logins in flight at once (the engine refuses an 11th from one address). */
const IN_FLIGHT = 10;
/** Players per room for the storm and hold players. */
const PER_ROOM = 100;
/** bcrypt cost of the hold's players (bench only; the engine's own is 10). */
const CHEAP_COST = 4;
/** Text of room #1 and of the seeded rooms, waited for after a login. */
const LIMBO = "Limbo";
const BENCH_ROOM = "Bench Room";

/** Settings of the telnet part. */
export interface TelnetBenchOptions {
  /** Telnet players in room #1: round trip, memory, fan-out and reboot size (default 1000). */
  players?: number;
  /** Round trips per phase (default 1000). */
  samples?: number;
  /** Paced fan-out poses (default 40). */
  poses?: number;
  /** Full-cost password logins in the storm (default 200; 0 skips it). */
  storm?: number;
  /** Reboots with every player on (default 3; 0 skips them). */
  reboots?: number;
  /** Telnet players held at once at the end (default 10000; 0 or ≤ players skips it). */
  hold?: number;
  /** Pause before each memory reading (default 10000 ms: V8's memory reducer has had its turn). */
  settleMs?: number;
  /**
   * Pause before each `@reboot` (default 5500 ms): an engine run shorter than 5 s doubles the
   * supervisor's restart delay (SPEC §7), so shorter gaps time a slower restart.
   */
  rebootGapMs?: number;
  /** Extra phases run on the same stack after the fan-out (e.g. connect/disconnect cycles). */
  phases?: TelnetPhase[];
  log?: (line: string) => void;
}

/** What an extra phase gets: the running stack and a reading of its memory. */
export interface TelnetStack {
  /** The sidecar's telnet port on 127.0.0.1. */
  port: number;
  /** Base URL of the engine's HTTP server. */
  base: string;
  /** VmRSS (KiB) of the supervisor, sidecar and engine, each and summed. */
  rss(): Promise<ProcessRss>;
  log(line: string): void;
}

/** A phase added to the telnet part by another module; its result goes in `extra[name]`. */
export interface TelnetPhase {
  name: string;
  run(stack: TelnetStack): Promise<Record<string, unknown>>;
  /** Table rows (no header) for the printed summary. */
  rows?(result: Record<string, unknown>): string[][];
}

/** VmRSS of the process tree in KiB: every process by pid and the sum. */
export interface ProcessRss {
  total: number;
  byPid: Record<string, number>;
}

/** One reboot figure set. */
export interface RebootFigures {
  sessions: number;
  reboots: number;
  /** From `@reboot` to /health answering 200 from the new engine (ms). */
  downtime: Summary;
  /** From /health answering to the last telnet session resumed (ms). */
  backAfterHealth: Summary;
  /** Sessions resumed without a new login, over sessions × reboots (1 = none lost). */
  preservedShare: number;
  /** Sessions told their resume failed (they must log in again), over all the reboots. */
  resumesFailed: number;
}

/** Everything the telnet part measured. */
export interface TelnetResult {
  players: number;
  startupMs: number;
  roundTripMs: {
    quiet: Summary & { connections: number };
    loaded: Summary & { connections: number };
    duringLoginStorm: (Summary & { connections: number }) | null;
  };
  memory: {
    baseline: ProcessRss;
    withPlayers: ProcessRss;
    perPlayerKiB: number;
    settleMs: number;
  };
  fanout: {
    recipients: number;
    poses: number;
    delivery: Summary;
    lost: number;
  };
  logins: {
    total: number;
    ok: number;
    failed: number;
    seconds: number;
    perSecond: number;
    bcryptCost: number;
  } | null;
  reboot: RebootFigures | null;
  hold: {
    target: number;
    connected: number;
    loginSeconds: number;
    loginsPerSecond: number;
    bcryptCost: number;
    roundTrip: Summary;
    memory: ProcessRss;
    perPlayerKiB: number;
    reboot: RebootFigures;
  } | null;
  extra: Record<string, Record<string, unknown>>;
  targets: {
    roundTripP99During10kBelow5ms: boolean | null;
    roundTripP99DuringStormBelow5ms: boolean | null;
    perPlayerBelow30KiB: boolean;
    rebootBackWithin1s: boolean | null;
    noDeliveriesLost: boolean;
  };
}

/** Pids of `pid` and every descendant (from /proc/<pid>/task/<tid>/children). */
async function tree(pid: number): Promise<number[]> {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    try {
      for await (const t of Deno.readDir(`/proc/${out[i]}/task`)) {
        const kids = await Deno.readTextFile(`/proc/${out[i]}/task/${t.name}/children`);
        for (const k of kids.trim().split(/\s+/)) if (k) out.push(Number(k));
      }
    } catch { /* gone */ }
  }
  return out;
}

/** VmRSS of a process tree, each and summed. */
export async function treeRss(pid: number): Promise<ProcessRss> {
  const byPid: Record<string, number> = {};
  let total = 0;
  for (const p of await tree(pid)) {
    const kib = await rssKiB(p);
    if (kib === null) continue;
    byPid[p] = kib;
    total += kib;
  }
  return { total, byPid };
}

/** Poses one at a time from the probes, each waiting for its deliveries to every client. */
async function fanout(clients: LeanTelnet[], senders: LeanTelnet[], poses: number) {
  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  let delivered = 0;
  let wake: (() => void) | null = null;
  let target = 0;
  const re = /fo(\d+)z/g;
  for (const c of clients) {
    c.sink = (text, at) => {
      if (!text.includes("fo")) return;
      for (const m of text.matchAll(re)) {
        const sent = sentAt.get(Number(m[1]));
        if (sent === undefined) continue;
        latencies.push(at - sent);
        if (++delivered >= target && wake) {
          wake();
          wake = null;
        }
      }
    };
  }
  let lost = 0;
  try {
    for (let s = 0; s < poses; s++) {
      target = delivered + clients.length;
      const all = new Promise<boolean>((r) => {
        const t = setTimeout(() => r(false), 10_000);
        wake = () => {
          clearTimeout(t);
          r(true);
        };
      });
      sentAt.set(s, performance.now());
      await senders[s % senders.length].send(`pose fo${s}z`);
      if (!await all) lost += target - delivered;
      await sleep(50);
    }
  } finally {
    for (const c of clients) c.sink = null;
  }
  return { recipients: clients.length, poses, delivery: summarize(latencies), lost };
}

/** `reboots` × `@reboot`, timing /health and every session's "session continues". */
async function rebootRun(
  srv: TestServer,
  admin: LeanTelnet,
  players: LeanTelnet[],
  reboots: number,
  gapMs: number,
  log: (l: string) => void,
): Promise<RebootFigures> {
  const downtimes: number[] = [];
  const back: number[] = [];
  let preserved = 0;
  const base = players.map((c) => c.count(RESUMED));
  const failedBefore = players.reduce((n, c) => n + c.count(RESUME_FAILED), 0);
  for (let r = 1; r <= reboots; r++) {
    await sleep(gapMs);
    log(`telnet: @reboot ${r}/${reboots} with ${players.length} players`);
    const t0 = performance.now();
    await admin.send("@reboot");
    while (await healthy(srv.base)) await sleep(10);
    while (!(await healthy(srv.base))) await sleep(10);
    const up = performance.now();
    downtimes.push(up - t0);
    const missing = () => players.some((c, i) => !c.closed && c.count(RESUMED) - base[i] < r);
    const end = performance.now() + 60_000;
    while (performance.now() < end && missing()) await sleep(5);
    back.push(performance.now() - up);
    preserved += players.filter((c, i) => !c.closed && c.count(RESUMED) - base[i] >= r).length;
  }
  return {
    sessions: players.length,
    reboots,
    downtime: summarize(downtimes),
    backAfterHealth: summarize(back),
    preservedShare: round(preserved / (players.length * reboots), 4),
    resumesFailed: players.reduce((n, c) => n + c.count(RESUME_FAILED), 0) - failedBefore,
  };
}

/** Runs the telnet part and returns its figures. */
export async function runTelnetBench(opts: TelnetBenchOptions = {}): Promise<TelnetResult> {
  const players = Math.max(1, opts.players ?? 1000);
  const probeCount = Math.min(PROBES, players);
  const samples = Math.max(50, opts.samples ?? 1000);
  const poses = Math.max(1, opts.poses ?? 40);
  const storm = Math.max(0, opts.storm ?? 200);
  const reboots = Math.max(0, opts.reboots ?? 3);
  const hold = (opts.hold ?? 10_000) > players ? opts.hold ?? 10_000 : 0;
  const settleMs = Math.max(0, opts.settleMs ?? 10_000);
  const gapMs = Math.max(0, opts.rebootGapMs ?? 5_500);
  const log = opts.log ?? ((l: string) => console.log(`bench: ${l}`));

  const dir = await Deno.makeTempDir({ prefix: "ursamu-bench-telnet-" });
  log(`telnet: seeding ${players} + ${storm} (bcrypt 10) + ${Math.max(0, hold - players)} players`);
  const names = await seedTelnetPlayers(dir, "Tel", 0, players, CHEAP_COST);
  const stormNames = storm > 0 ? await seedTelnetPlayers(dir, "Storm", 0, storm, 10, storm) : [];
  const holdNames = hold > 0
    ? await seedTelnetPlayers(dir, "Tel", players, hold, CHEAP_COST, PER_ROOM)
    : [];

  const clients: LeanTelnet[] = [];
  let srv: TestServer | null = null;
  try {
    const t0 = performance.now();
    srv = await startServer({
      dir,
      entry: "src/supervisor/main.ts",
      env: { URSAMU_SUPERUSER_NAME: ADMIN.name, URSAMU_SUPERUSER_PASSWORD: ADMIN.password },
      config: {
        server: { maxConnections: 0, maxConnectionsPerIp: 0 },
        game: { idleTimeout: 0, maxPlayers: 0, registrationsPerHour: 0 },
      },
    });
    await waitHealthy(srv.base, () => false, () => srv!.output(), 60_000);
    await srv.waitFor(/telnet: listening on/, 30_000);
    const startupMs = round(performance.now() - t0, 1);
    const port = srv.telnet;
    const pid = srv.child.pid;
    const stack: TelnetStack = { port, base: srv.base, rss: () => treeRss(pid), log };

    const admin = await telnetLogin(port, ADMIN.name, ADMIN.password, LIMBO);
    clients.push(admin);
    await sleep(settleMs);
    const baseline = await treeRss(pid);

    log(`telnet: round trips with ${probeCount} players taking turns`);
    const probes = await loginMany(port, names.slice(0, probeCount), TELNET_PASSWORD, LIMBO);
    clients.push(...probes);
    const quiet = await roundTrips(probes, "q", samples);

    log(`telnet: logging in ${players - probeCount} more players`);
    const rest = await loginMany(port, names.slice(probeCount), TELNET_PASSWORD, LIMBO);
    clients.push(...rest);
    const room = [...probes, ...rest];
    await sleep(settleMs);
    const withPlayers = await treeRss(pid);
    const perPlayerKiB = round((withPlayers.total - baseline.total) / players, 2);

    log(`telnet: round trips with ${players} players on`);
    const loaded = await roundTrips(probes, "l", samples);

    log(`telnet: pose fan-out to ${players} players`);
    const fan = await fanout(room, probes, poses);

    const extra: Record<string, Record<string, unknown>> = {};
    for (const phase of opts.phases ?? []) {
      log(`telnet: ${phase.name}`);
      extra[phase.name] = await phase.run(stack);
    }

    let logins: TelnetResult["logins"] = null;
    let stormRt: Summary | null = null;
    if (storm > 0) {
      log(`telnet: ${storm} password logins (bcrypt 10, ${IN_FLIGHT} at a time) with round trips`);
      let ok = 0, failed = 0;
      const stormClients: LeanTelnet[] = [];
      let tStorm = performance.now();
      let next = 0;
      const worker = async () => {
        while (next < stormNames.length) {
          const name = stormNames[next++];
          try {
            stormClients.push(await telnetLogin(port, name, TELNET_PASSWORD, BENCH_ROOM));
            ok++;
          } catch {
            failed++;
          }
        }
      };
      // The probes time from a process of their own (as the hold's), from when they are in until
      // the last login has answered.
      stormRt = await roundTripsApart(
        port,
        names.slice(0, probeCount),
        LIMBO,
        0,
        "s",
        async (probesIn) => {
          await probesIn;
          tStorm = performance.now();
          await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
        },
      );
      const seconds = (performance.now() - tStorm) / 1000;
      logins = {
        total: storm,
        ok,
        failed,
        seconds: round(seconds, 2),
        perSecond: round(ok / seconds, 1),
        bcryptCost: 10,
      };
      // The reboot is timed with the room's players alone.
      await Promise.all(stormClients.map((c) => c.close()));
    }

    for (const c of room) {
      c.watch(RESUMED);
      c.watch(RESUME_FAILED);
    }
    let reboot: RebootFigures | null = null;
    if (reboots > 0) reboot = await rebootRun(srv, admin, room, reboots, gapMs, log);

    let held: TelnetResult["hold"] = null;
    if (hold > 0) {
      log(
        `telnet: holding ${hold} players (${holdNames.length} more logins, bcrypt ${CHEAP_COST})`,
      );
      const tHold = performance.now();
      const more = await loginMany(port, holdNames, TELNET_PASSWORD, BENCH_ROOM);
      const loginSeconds = (performance.now() - tHold) / 1000;
      clients.push(...more);
      for (const c of more) {
        c.watch(RESUMED);
        c.watch(RESUME_FAILED);
      }
      await sleep(settleMs);
      const everyone = [...room, ...more];
      const connected = everyone.filter((c) => !c.closed).length;
      const memory = await treeRss(pid);
      log(`telnet: round trips with ${connected} players connected`);
      // From a process of its own: this one now holds 10,000 sockets, and its own collections
      // (13 to 15 ms) would be timed as the server's.
      const rt = await roundTripsApart(port, names.slice(0, probeCount), LIMBO, samples, "h");
      const holdReboot = await rebootRun(srv, admin, everyone, 1, gapMs, log);
      held = {
        target: hold,
        connected,
        loginSeconds: round(loginSeconds, 1),
        loginsPerSecond: round(holdNames.length / loginSeconds, 1),
        bcryptCost: CHEAP_COST,
        roundTrip: rt,
        memory,
        perPlayerKiB: round((memory.total - baseline.total) / connected, 2),
        reboot: holdReboot,
      };
    }

    return {
      players,
      startupMs,
      roundTripMs: {
        quiet: { connections: probeCount, ...quiet },
        loaded: { connections: players, ...loaded },
        duringLoginStorm: stormRt ? { connections: players, ...stormRt } : null,
      },
      memory: { baseline, withPlayers, perPlayerKiB, settleMs },
      fanout: fan,
      logins,
      reboot,
      hold: held,
      extra,
      targets: {
        roundTripP99During10kBelow5ms: held ? held.roundTrip.p99 < 5 : null,
        roundTripP99DuringStormBelow5ms: stormRt ? stormRt.p99 < 5 : null,
        perPlayerBelow30KiB: perPlayerKiB < 30,
        rebootBackWithin1s: reboot ? reboot.backAfterHealth.max < 1000 : null,
        noDeliveriesLost: fan.lost === 0,
      },
    };
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    if (srv) await srv.stop({ keepDir: true });
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** Table rows (header first) for the telnet part's summary. */
export function telnetRows(r: TelnetResult, phases: TelnetPhase[] = []): string[][] {
  const ms = (s: Summary) => `${s.p50} / ${s.p99} ms`;
  const ok = (b: boolean | null) => (b === null ? "" : b ? "met" : "MISSED");
  const rows: string[][] = [
    ["Telnet (supervisor + sidecar + engine)", "Value", "Target"],
    ["Start-up to /health and telnet listening", `${r.startupMs} ms`, ""],
    [
      `think round trip p50 / p99 (${r.roundTripMs.quiet.connections} taking turns)`,
      ms(r.roundTripMs.quiet),
      "",
    ],
    [`think round trip p50 / p99 (${r.players} connected)`, ms(r.roundTripMs.loaded), ""],
    [
      `Memory per telnet player at ${r.players} (all processes, VmRSS)`,
      `${r.memory.perPlayerKiB} KiB (${r.memory.baseline.total} → ${r.memory.withPlayers.total} KiB)`,
      `< 30 KiB: ${ok(r.targets.perPlayerBelow30KiB)}`,
    ],
    [
      `Pose fan-out to ${r.fanout.recipients}, delivery p50 / p99`,
      ms(r.fanout.delivery),
      "",
    ],
    ["Fan-out deliveries lost", String(r.fanout.lost), `0: ${ok(r.targets.noDeliveriesLost)}`],
  ];
  if (r.logins && r.roundTripMs.duringLoginStorm) {
    rows.push(
      [
        `Password logins over telnet (bcrypt 10, ${IN_FLIGHT} at a time)`,
        `${r.logins.perSecond} /s (${r.logins.ok} ok, ${r.logins.failed} failed)`,
        "",
      ],
      [
        `think round trip p50 / p99 during ${r.logins.total} logins`,
        ms(r.roundTripMs.duringLoginStorm),
        `p99 < 5 ms: ${ok(r.targets.roundTripP99DuringStormBelow5ms)}`,
      ],
    );
  }
  if (r.reboot) {
    rows.push(
      [
        `@reboot → /health, p50 / max (${r.reboot.reboots} reboots)`,
        `${round(r.reboot.downtime.p50, 0)} / ${round(r.reboot.downtime.max, 0)} ms`,
        "",
      ],
      [
        `/health → all ${r.reboot.sessions} telnet sessions back, p50 / max`,
        `${round(r.reboot.backAfterHealth.p50, 0)} / ${round(r.reboot.backAfterHealth.max, 0)} ms`,
        `< 1 s: ${ok(r.targets.rebootBackWithin1s)}`,
      ],
      [
        "Sessions preserved over the reboots",
        `${round(r.reboot.preservedShare * 100, 2)}% (${r.reboot.resumesFailed} resumes failed)`,
        "",
      ],
    );
  }
  if (r.hold) {
    const h = r.hold;
    rows.push(
      [
        `Hold: telnet players connected at once`,
        `${h.connected} of ${h.target}`,
        `${h.target}: ${ok(h.connected === h.target)}`,
      ],
      [
        `Hold: logins (bcrypt ${h.bcryptCost}, bench shortcut)`,
        `${h.loginsPerSecond} /s (${h.loginSeconds} s)`,
        "",
      ],
      [
        `Hold: think round trip p50 / p99 with ${h.connected} on`,
        ms(h.roundTrip),
        `p99 < 5 ms: ${ok(r.targets.roundTripP99During10kBelow5ms)}`,
      ],
      [
        `Hold: memory, all processes (per player)`,
        `${h.memory.total} KiB (${h.perPlayerKiB} KiB)`,
        "",
      ],
      [
        `Hold: @reboot → /health, then all ${h.reboot.sessions} back`,
        `${round(h.reboot.downtime.max, 0)} ms, then ${
          round(h.reboot.backAfterHealth.max, 0)
        } ms (${round(h.reboot.preservedShare * 100, 2)}% kept, ${h.reboot.resumesFailed} failed)`,
        "",
      ],
    );
  }
  for (const p of phases) {
    const res = r.extra[p.name];
    if (res && p.rows) rows.push(...p.rows(res));
  }
  return rows;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      players: { type: "string" },
      samples: { type: "string" },
      poses: { type: "string" },
      storm: { type: "string" },
      reboots: { type: "string" },
      hold: { type: "string" },
      "settle-ms": { type: "string" },
    },
  });
  const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  const result = await runTelnetBench({
    players: num(values.players),
    samples: num(values.samples),
    poses: num(values.poses),
    storm: num(values.storm),
    reboots: num(values.reboots),
    hold: num(values.hold),
    settleMs: num(values["settle-ms"]),
  });
  console.log("\n" + table(telnetRows(result)));
  console.log(JSON.stringify(result, null, 2));
}
