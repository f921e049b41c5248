/**
 * A bloated scene under concurrent reads (docs/bench.md "A bloated scene"): one scene of many
 * 4,000-character poses (issue 31 measured 12,000: a 145 MB detail), read over and over by
 * several clients at once (its detail, its JSON and Markdown exports), while another player in
 * the game times `think` round trips over WebSocket. Reported: that player's round trip (p50,
 * p90, p99, max, unanswered within the bound) with no readers and with each number of readers,
 * the bytes each read answered, and the engine's resident memory.
 *
 * Run alone: `deno task bench --only bloat [--bloat-poses 12000] [--bloat-readers 6,20]`.
 */
import { join } from "node:path";
import { openStore } from "../src/storage/kv.ts";
import { PluginKv } from "../src/plugins/kv.ts";
import { startServer, type TestServer } from "../tests/harness.ts";
import { seedPlayers } from "./seed.ts";
import { BenchClient } from "./client.ts";
import { quantile, round, rssKiB, sleep } from "./stats.ts";
import { sceneKeys } from "../plugins/scenes/keys.ts";
import { indexKeys } from "../plugins/scenes/store.ts";
import type { Pose, SceneRecord } from "../plugins/scenes/types.ts";

/** Options of the bloated-scene benchmark. */
export interface BloatOptions {
  /** Poses of the bloated scene (default 12,000, each of 4,000 characters). */
  poses?: number;
  /** Concurrent readers of each measured phase (default 6 and 20). */
  readers?: number[];
  /** Round trips timed per phase (default 200). */
  samples?: number;
  log?: (line: string) => void;
}

/** Another player's round trip in one phase (ms), and what the readers got meanwhile. */
export interface BloatPhase {
  readers: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Round trips that got no answer within ROUND_TRIP_BOUND_MS. */
  unanswered: number;
  /** Reads the readers completed during the phase, and the bytes of each kind. */
  reads: number;
  detailBytes: number;
  exportBytes: number;
  /** The engine's highest resident memory seen during the phase (MiB). */
  rssMiB: number;
}

/** What the benchmark measured. */
export interface BloatResult {
  poses: number;
  phases: BloatPhase[];
}

/** Poses per atomic write while seeding (4,000 characters each, inside KV's 800 KiB a commit). */
const POSE_BATCH = 100;
/** How long a round trip may take before it counts as unanswered. */
const ROUND_TRIP_BOUND_MS = 5000;
/** Pause between round trips: a person typing, well inside the 10 commands a second. */
const PACE_MS = 150;

/** Writes scene 1 with `count` poses of 4,000 characters, owned by `owner`, in room #1. */
async function seedBloated(kv: PluginKv, count: number, owner: string, t0: number) {
  const s: SceneRecord = {
    id: "1",
    name: "A bloated scene",
    location: "1",
    desc: "Written by the benchmark.",
    owner,
    participants: [owner],
    allowed: [owner],
    private: false,
    startTime: t0,
    status: "active",
    sceneType: "social",
    poseCount: count,
    lastActivity: t0 + count,
    lastPosed: {},
  };
  const op = kv.atomic().set(kv.key(...sceneKeys.scene(1)), s);
  for (const k of indexKeys(s)) op.set(kv.key(...k), sceneKeys.scene(1));
  if (!(await op.commit()).ok) throw new Error("bench: seeding the scene failed");
  await kv.set(["counter", sceneKeys.counter], 1);
  const msg = "x".repeat(3990);
  for (let n = 1; n <= count; n += POSE_BATCH) {
    const batch = kv.atomic();
    for (let i = n; i <= Math.min(count, n + POSE_BATCH - 1); i++) {
      const pose: Pose = {
        id: String(i),
        charId: `#${owner}`,
        charName: "Bench0",
        moniker: "Bench0",
        msg: `${msg} ${String(i).padStart(8, "0")}`,
        type: "pose",
        timestamp: t0 + i,
      };
      batch.set(kv.key(...sceneKeys.pose(1, i)), pose);
    }
    if (!(await batch.commit()).ok) throw new Error("bench: seeding poses failed");
  }
}

/** Reads `path` over and over until `stop`; counts reads and keeps the last size. */
async function reader(
  base: string,
  token: string,
  path: string,
  stop: { done: boolean },
  tally: { reads: number; bytes: Record<string, number> },
) {
  while (!stop.done) {
    const res = await fetch(base + path, { headers: { authorization: `Bearer ${token}` } });
    let bytes = 0;
    for await (const chunk of res.body ?? []) bytes += chunk.byteLength;
    tally.reads++;
    tally.bytes[path] = bytes;
  }
}

/** Times `samples` paced `think` round trips of `client`; an unanswered one counts as such. */
async function roundTrips(client: BenchClient, samples: number) {
  const times: number[] = [];
  let unanswered = 0;
  for (let i = 0; i < samples; i++) {
    const marker = `rt-${i}-${crypto.randomUUID().slice(0, 8)}`;
    const t = await Promise.race([
      client.roundTrip(JSON.stringify({ msg: `think ${marker}` }), marker),
      sleep(ROUND_TRIP_BOUND_MS).then(() => -1),
    ]);
    if (t < 0) unanswered++;
    else times.push(t);
    await sleep(PACE_MS);
  }
  return { times: times.sort((a, b) => a - b), unanswered };
}

/** Runs the bloated-scene benchmark on an engine of its own. */
export async function runBloatBench(opts: BloatOptions = {}): Promise<BloatResult> {
  const poses = Math.max(1, opts.poses ?? 12_000);
  const readerCounts = opts.readers ?? [6, 20];
  const samples = Math.max(20, opts.samples ?? 200);
  const log = opts.log ?? (() => {});
  const dir = await Deno.makeTempDir({ prefix: "ursamu-bench-bloat-" });
  const secret = `bench-${crypto.randomUUID()}`;
  let srv: TestServer | null = null;
  try {
    const [owner, other] = await seedPlayers(dir, 2, secret);
    log(`bloat: writing a scene of ${poses} poses of 4,000 characters`);
    const kv = await openStore(join(dir, "ursamu.db"));
    await seedBloated(new PluginKv(kv, "scenes"), poses, owner.id, Date.UTC(2026, 0, 1));
    kv.close();
    srv = await startServer({ dir, env: { JWT_SECRET: secret } });
    const pid = srv.child.pid;
    const client = await BenchClient.open(`ws://127.0.0.1:${srv.ws}/`, other.token);
    const phases: BloatPhase[] = [];
    for (const readers of [0, ...readerCounts]) {
      log(`bloat: another player's round trip with ${readers} readers of the scene`);
      const stop = { done: false };
      const tally = { reads: 0, bytes: {} as Record<string, number> };
      const paths = ["/api/v1/scenes/1", "/api/v1/scenes/1/export?format=json"];
      const running = Array.from(
        { length: readers },
        (_, i) => reader(srv!.base, owner.token, paths[i % paths.length], stop, tally),
      );
      let rss = 0;
      const watch = setInterval(async () => {
        rss = Math.max(rss, (await rssKiB(pid)) ?? 0);
      }, 200);
      // Readers under way before the first round trip.
      if (readers) await sleep(1000);
      const { times, unanswered } = await roundTrips(client, samples);
      stop.done = true;
      await Promise.allSettled(running);
      clearInterval(watch);
      rss = Math.max(rss, (await rssKiB(pid)) ?? 0);
      phases.push({
        readers,
        p50: round(quantile(times, 0.5)),
        p90: round(quantile(times, 0.9)),
        p99: round(quantile(times, 0.99)),
        max: round(times[times.length - 1] ?? NaN),
        unanswered,
        reads: tally.reads,
        detailBytes: tally.bytes[paths[0]] ?? 0,
        exportBytes: tally.bytes[paths[1]] ?? 0,
        rssMiB: round(rss / 1024, 1),
      });
    }
    await client.close();
    return { poses, phases };
  } finally {
    if (srv) await srv.stop({ keepDir: true });
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** Table rows of a result. */
export function bloatRows(r: BloatResult): string[][] {
  return [
    [
      `bloated scene (${r.poses} poses): readers`,
      "p50",
      "p90",
      "p99",
      "max",
      "unanswered",
      "reads",
      "detail KiB",
      "export KiB",
      "RSS MiB",
    ],
    ...r.phases.map((p) => [
      String(p.readers),
      String(p.p50),
      String(p.p90),
      String(p.p99),
      String(p.max),
      String(p.unanswered),
      String(p.reads),
      String(Math.round(p.detailBytes / 1024)),
      String(Math.round(p.exportBytes / 1024)),
      String(p.rssMiB),
    ]),
  ];
}
