/**
 * The world in memory (src/world/live_world.ts, src/world/attributes/store.ts): how long an
 * engine takes to start on a game of N objects with M attributes each, and what holding them
 * costs. A database is seeded (objects through the object store, attributes written in batches
 * as the store writes them), then the real engine is started on it twice: once before the
 * attributes are added and once after, each with `--inspect` so the heap is read after forced
 * full collections. Start-up time is from spawning the process to `/health` answering (what a
 * restart costs players), and the engine's own log line says how long reading the world took.
 */
import { join } from "node:path";
import { freePort, startServer, type TestServer } from "../tests/harness.ts";
import { Inspector } from "./inspector.ts";
import { round, rssKiB, sleep } from "./stats.ts";
import { openStore } from "../src/storage/kv.ts";
import { keys } from "../src/storage/keys.ts";
import { LAYOUT_VERSION } from "../src/storage/layout.ts";
import { ObjectStore } from "../src/world/objects.ts";

/** What to seed. */
export interface WorldBenchOptions {
  /** Objects in all (rooms, players and things; about 1% each rooms and players). */
  objects: number;
  /** Attributes on every object. */
  attributes: number;
  /** Characters of each attribute's value. */
  valueChars: number;
}

/** One engine start on the seeded database. */
export interface WorldStart {
  /** From spawning the engine to `/health` answering. */
  startMs: number;
  /** What the engine logged about reading the world into memory. */
  loadLine: string;
  rssKiB: number;
  heapKiB: number;
}

/** What the world benchmark measured. */
export interface WorldBenchResult {
  options: WorldBenchOptions;
  seedSeconds: number;
  objectsOnly: WorldStart;
  withAttributes: WorldStart;
  /** Heap per attribute held (bytes), from the difference of the two starts. */
  heapBytesPerAttribute: number;
  /** RSS per attribute held (bytes). */
  rssBytesPerAttribute: number;
}

/** Attribute names as games use them: a handful shared by every object, and some of its own. */
function attrName(objectIndex: number, i: number): string {
  return i < 10
    ? [
      "DESC_SHORT",
      "FINGER",
      "NOTE",
      "SEXED",
      "POSITION",
      "FULLNAME",
      "AGE",
      "SPECIES",
      "CMD_LOOK",
      "FN_FORMAT",
    ][i]
    : `DATA_${i}_${objectIndex % 7}`;
}

async function seedObjects(dir: string, o: WorldBenchOptions): Promise<string[]> {
  const kv = await openStore(join(dir, "ursamu.db"));
  try {
    await kv.set(keys.layout(), LAYOUT_VERSION);
    const store = new ObjectStore(kv);
    const rooms: string[] = [];
    const players: string[] = [];
    const ids: string[] = [];
    const nRooms = Math.max(1, Math.round(o.objects / 100));
    const nPlayers = Math.max(1, Math.round(o.objects / 100));
    for (let i = 0; i < nRooms; i++) {
      rooms.push((await store.create({ name: `Room ${i}`, type: "room" })).id);
    }
    for (let i = 0; i < nPlayers; i++) {
      const p = await store.create({
        name: `Player${i}`,
        type: "player",
        location: rooms[i % rooms.length],
      });
      players.push(p.id);
    }
    ids.push(...rooms, ...players);
    for (let i = ids.length; i < o.objects; i++) {
      const t = await store.create({
        name: `Thing ${i}`,
        type: "thing",
        location: rooms[i % rooms.length],
        owner: players[i % players.length],
        data: { description: `Thing number ${i}.` },
      });
      ids.push(t.id);
    }
    return ids;
  } finally {
    kv.close();
  }
}

async function seedAttributes(dir: string, ids: string[], o: WorldBenchOptions): Promise<void> {
  const kv = await openStore(join(dir, "ursamu.db"));
  try {
    for (const [n, id] of ids.entries()) {
      const owner = (await kv.get<{ owner: string }>(keys.object(id))).value?.owner || id;
      const op = kv.atomic();
      let bytes = 0;
      for (let i = 0; i < o.attributes; i++) {
        const name = attrName(n, i);
        const value = `${n}/${i} `.padEnd(o.valueChars, "abcdefghij");
        op.set(keys.attribute(id, name), { value, owner });
        bytes += name.length + value.length;
      }
      op.sum(keys.attributeBytes(owner), BigInt(bytes));
      await op.commit();
    }
  } finally {
    kv.close();
  }
}

async function start(dir: string, log: (l: string) => void): Promise<WorldStart> {
  const port = freePort();
  const t0 = performance.now();
  let srv: TestServer | null = null;
  srv = await startServer({
    dir,
    denoArgs: [`--inspect=127.0.0.1:${port}`],
    config: { softcode: { attributeQuotaBytes: 0 } },
  });
  const startMs = performance.now() - t0;
  try {
    const loadLine = /world: [^\n]*/.exec(srv.output())?.[0] ?? "(no load line)";
    log(`  ${loadLine}; /health after ${Math.round(startMs)} ms`);
    await sleep(1000);
    const inspector = await Inspector.connect(port);
    try {
      const heap = await inspector.collect();
      return {
        startMs: Math.round(startMs),
        loadLine,
        rssKiB: await rssKiB(srv.child.pid) ?? NaN,
        heapKiB: Math.round(heap.usedSize / 1024),
      };
    } finally {
      inspector.close();
    }
  } finally {
    await srv.stop({ keepDir: true });
  }
}

/** Seeds a world, starts the engine on it before and after its attributes, and reports. */
export async function runWorldBench(
  o: WorldBenchOptions,
  log: (line: string) => void,
): Promise<WorldBenchResult> {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-bench-world-" });
  try {
    const t0 = performance.now();
    log(`seeding ${o.objects} objects`);
    const ids = await seedObjects(dir, o);
    log("engine on the objects alone");
    const objectsOnly = await start(dir, log);
    log(`seeding ${o.attributes} attributes of ${o.valueChars} characters on each`);
    await seedAttributes(dir, ids, o);
    const seedSeconds = round((performance.now() - t0 - objectsOnly.startMs) / 1000, 1);
    log("engine on the objects and their attributes");
    const withAttributes = await start(dir, log);
    const n = ids.length * o.attributes;
    return {
      options: o,
      seedSeconds,
      objectsOnly,
      withAttributes,
      heapBytesPerAttribute: round((withAttributes.heapKiB - objectsOnly.heapKiB) * 1024 / n, 1),
      rssBytesPerAttribute: round((withAttributes.rssKiB - objectsOnly.rssKiB) * 1024 / n, 1),
    };
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** Table rows for the world benchmark. */
export function worldRows(r: WorldBenchResult): string[][] {
  const row = (what: string, s: WorldStart) => [
    what,
    `${s.startMs} ms`,
    `${round(s.rssKiB / 1024, 1)} MiB`,
    `${round(s.heapKiB / 1024, 1)} MiB`,
  ];
  return [
    ["world", "start to /health", "RSS", "JS heap"],
    row(`${r.options.objects} objects`, r.objectsOnly),
    row(`+ ${r.options.attributes} attributes each`, r.withAttributes),
    [
      "per attribute",
      "",
      `${r.rssBytesPerAttribute} B`,
      `${r.heapBytesPerAttribute} B`,
    ],
  ];
}
