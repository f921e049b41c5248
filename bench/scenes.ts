/**
 * The scenes benchmark (docs/bench.md "Scenes"): the export of one scene of many poses, and
 * list latency with few and with very many scenes stored. Scenes and poses are written straight
 * into the database in the plugin's own key layout (plugins/scenes/keys.ts and its index keys)
 * before the engine starts; the timings are of real REST calls to the real engine.
 *
 * Run alone: `deno task bench --only scenes [--scenes 100000] [--scene-poses 10000]`.
 */
import { join } from "node:path";
import { openStore } from "../src/storage/kv.ts";
import { PluginKv } from "../src/plugins/kv.ts";
import { startServer, type TestServer } from "../tests/harness.ts";
import { seedPlayers } from "./seed.ts";
import { round, summarize, type Summary } from "./stats.ts";
import { sceneKeys } from "../plugins/scenes/keys.ts";
import { indexKeys } from "../plugins/scenes/store.ts";
import type { Pose, SceneRecord } from "../plugins/scenes/types.ts";

/** Options of the scenes benchmark. */
export interface SceneBenchOptions {
  /** Scenes stored for the second list measurement (default 100,000). */
  scenes?: number;
  /** Poses of the exported scene (default 10,000). */
  poses?: number;
  /** List calls timed per measurement (default 200). */
  samples?: number;
  log?: (line: string) => void;
}

/** What the scenes benchmark measured (ms). */
export interface SceneBenchResult {
  scenes: number;
  poses: number;
  seedSeconds: number;
  exportMarkdown: Summary;
  exportJson: Summary;
  exportBytes: number;
  listFew: { scenes: number; mine: Summary; open: Summary };
  listMany: { scenes: number; mine: Summary; open: Summary };
}

/** Scenes in the "few" measurement. */
const FEW = 100;
/** Scenes per atomic write while seeding (each holds about six keys). */
const SCENE_BATCH = 100;
/** Poses per atomic write while seeding. */
const POSE_BATCH = 400;
/** Export calls timed. */
const EXPORTS = 5;

/** Scene records numbered `from`..`to`, owned by `owner` in room #1, written with their indexes. */
async function seedScenes(kv: PluginKv, from: number, to: number, owner: string, t0: number) {
  for (let n = from; n <= to; n += SCENE_BATCH) {
    const op = kv.atomic();
    for (let i = n; i <= Math.min(to, n + SCENE_BATCH - 1); i++) {
      const s: SceneRecord = {
        id: String(i),
        name: `Bench scene ${i}`,
        location: "1",
        desc: "A scene written by the benchmark.",
        owner,
        participants: [owner],
        allowed: [owner],
        private: false,
        startTime: t0 + i,
        status: "active",
        sceneType: "social",
        poseCount: 0,
        lastActivity: t0 + i,
        lastPosed: {},
      };
      op.set(kv.key(...sceneKeys.scene(i)), s);
      for (const k of indexKeys(s)) op.set(kv.key(...k), sceneKeys.scene(i));
    }
    if (!(await op.commit()).ok) throw new Error("bench: seeding scenes failed");
  }
  await kv.set(["counter", sceneKeys.counter], to);
}

/** `count` poses in scene 1 (about 200 characters each, an OOC one in ten). */
async function seedPoses(kv: PluginKv, count: number, owner: string, t0: number) {
  const text = "steps into the lamplight, shaking rain from a long coat, and looks about the " +
    "room for a familiar face before settling at the bar with a tired sigh and a nod to the keeper.";
  for (let n = 1; n <= count; n += POSE_BATCH) {
    const op = kv.atomic();
    for (let i = n; i <= Math.min(count, n + POSE_BATCH - 1); i++) {
      const pose: Pose = {
        id: String(i),
        charId: `#${owner}`,
        charName: "Bench0",
        moniker: "Bench0",
        msg: `${text} (${i})`,
        type: i % 10 === 0 ? "ooc" : "pose",
        timestamp: t0 + i,
      };
      op.set(kv.key(...sceneKeys.pose(1, i)), pose);
    }
    if (!(await op.commit()).ok) throw new Error("bench: seeding poses failed");
  }
  const scene = await kv.get<SceneRecord>(sceneKeys.scene(1));
  await kv.set(sceneKeys.scene(1), { ...scene!, poseCount: count });
}

/** Times `n` sequential GETs of `path` (after a few warm-up calls); returns ms and the last body size. */
async function timed(base: string, path: string, token: string, n: number) {
  const samples: number[] = [];
  let bytes = 0;
  for (let i = 0; i < n + 3; i++) {
    const t = performance.now();
    const res = await fetch(base + path, { headers: { authorization: `Bearer ${token}` } });
    const body = await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`bench: ${path} answered ${res.status}`);
    if (i >= 3) samples.push(performance.now() - t);
    bytes = body.byteLength;
  }
  return { summary: summarize(samples), bytes };
}

async function lists(srv: TestServer, token: string, samples: number) {
  return {
    mine: (await timed(srv.base, "/api/v1/scenes?limit=50", token, samples)).summary,
    open: (await timed(srv.base, "/api/v1/scenes/open?limit=50", token, samples)).summary,
  };
}

/** Runs the scenes benchmark on an engine of its own. */
export async function runScenesBench(opts: SceneBenchOptions = {}): Promise<SceneBenchResult> {
  const total = Math.max(FEW + 1, opts.scenes ?? 100_000);
  const poses = Math.max(1, opts.poses ?? 10_000);
  const samples = Math.max(10, opts.samples ?? 200);
  const log = opts.log ?? (() => {});
  const dir = await Deno.makeTempDir({ prefix: "ursamu-bench-scenes-" });
  const secret = `bench-${crypto.randomUUID()}`;
  const start = () => startServer({ dir, env: { JWT_SECRET: secret } });
  let srv: TestServer | null = null;
  try {
    const [owner] = await seedPlayers(dir, 1, secret);
    const t0 = Date.UTC(2026, 0, 1);
    const seedStart = performance.now();
    let kv = await openStore(join(dir, "ursamu.db"));
    await seedScenes(new PluginKv(kv, "scenes"), 1, FEW, owner.id, t0);
    log(`scenes: writing a scene of ${poses} poses`);
    await seedPoses(new PluginKv(kv, "scenes"), poses, owner.id, t0);
    kv.close();
    let seedMs = performance.now() - seedStart;

    srv = await start();
    log(`scenes: export of ${poses} poses, list with ${FEW} scenes`);
    const md = await timed(srv.base, "/api/v1/scenes/1/export", owner.token, EXPORTS);
    const json = await timed(srv.base, "/api/v1/scenes/1/export?format=json", owner.token, EXPORTS);
    const few = await lists(srv, owner.token, samples);
    await srv.stop({ keepDir: true });
    srv = null;

    log(`scenes: storing ${total} scenes`);
    const more = performance.now();
    kv = await openStore(join(dir, "ursamu.db"));
    await seedScenes(new PluginKv(kv, "scenes"), FEW + 1, total, owner.id, t0);
    kv.close();
    seedMs += performance.now() - more;
    srv = await start();
    log(`scenes: list with ${total} scenes`);
    const many = await lists(srv, owner.token, samples);
    return {
      scenes: total,
      poses,
      seedSeconds: round(seedMs / 1000, 1),
      exportMarkdown: md.summary,
      exportJson: json.summary,
      exportBytes: md.bytes,
      listFew: { scenes: FEW, ...few },
      listMany: { scenes: total, ...many },
    };
  } finally {
    if (srv) await srv.stop({ keepDir: true });
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** Table rows of a result. */
export function sceneRows(r: SceneBenchResult): string[][] {
  const row = (what: string, s: Summary) => [what, String(s.p50), String(s.p99), String(s.max)];
  return [
    ["scenes (ms)", "p50", "p99", "max"],
    row(
      `export Markdown, ${r.poses} poses (${Math.round(r.exportBytes / 1024)} KiB)`,
      r.exportMarkdown,
    ),
    row(`export JSON, ${r.poses} poses`, r.exportJson),
    row(`GET /scenes, ${r.listFew.scenes} stored`, r.listFew.mine),
    row(`GET /scenes, ${r.listMany.scenes} stored`, r.listMany.mine),
    row(`GET /scenes/open, ${r.listFew.scenes} stored`, r.listFew.open),
    row(`GET /scenes/open, ${r.listMany.scenes} stored`, r.listMany.open),
  ];
}
