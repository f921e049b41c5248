/**
 * Scenes in the plugin's KV space: the small scene record, its poses as their own keys, and the
 * indexes (all, by player, by room and status, by status, open) kept in step with the record in
 * the same atomic commit. Lists read a page of an index and then only that page's records.
 */
import {
  ConflictError,
  type Page,
  type PluginAtomic,
  type PluginKv,
} from "../../src/plugins/mod.ts";
import { sceneKeys } from "./keys.ts";
import type { Pose, SceneRecord } from "./types.ts";

/** Attempts of a checked update before giving up (only under heavy contention). */
const ATTEMPTS = 20;
/** Poses read per KV round trip when a scene's poses are listed or streamed. */
const POSE_BATCH = 100;
/** Rooms remembered as having no active scene (beyond this the memory starts again). */
const MAX_QUIET_ROOMS = 50_000;

/** The number in a scene id, or null when the id cannot name a scene. */
export function sceneNumber(id: string): number | null {
  return /^[1-9][0-9]{0,14}$/.test(id) ? Number(id) : null;
}

/** Every index key a scene occupies. */
export function indexKeys(s: SceneRecord): Deno.KvKey[] {
  const n = Number(s.id);
  const players = new Set([s.owner, ...s.participants, ...s.allowed]);
  const out: Deno.KvKey[] = [
    sceneKeys.all(n),
    sceneKeys.byRoom(s.location, s.status, n),
    sceneKeys.byStatus(s.status, n),
    ...[...players].map((p) => sceneKeys.byPlayer(p, n)),
  ];
  if (s.status === "active" && !s.private) out.push(sceneKeys.open(n));
  if (isPublic(s)) {
    out.push(sceneKeys.shared(n));
    for (const p of new Set([s.owner, ...s.participants])) out.push(sceneKeys.sharedWith(p, n));
  }
  return out;
}

/** True when visitors may read a scene: its owner shared it and it is not private. */
export function isPublic(s: SceneRecord): boolean {
  return s.shared === true && !s.private;
}

/** What an update decides: the new record (null: write nothing) and extra writes. */
export interface Change<T> {
  next: SceneRecord | null;
  result: T;
  /** Further writes and checks committed with the record (a pose, its quota); may refuse. */
  with?: (op: PluginAtomic) => void | Promise<void>;
}

/** Persistent scenes and poses. */
export class SceneStore {
  /**
   * Rooms read as having no active scene and written to since by no scene (null: not kept, the
   * database has other writers). Every line said in a room asks for its active scenes; most
   * rooms have none, and this answers them without a read.
   */
  readonly #quiet: Set<string> | null;
  /** Bumped by every scene write, so a read that raced one is not remembered. */
  #writes = 0;

  /** With `soleWriter`, rooms without an active scene are remembered (see `activeIn`). */
  constructor(private readonly kv: PluginKv, opts: { soleWriter?: boolean } = {}) {
    this.#quiet = opts.soleWriter ? new Set() : null;
  }

  /**
   * Creates a scene; its id is the next number of the plugin's counter. `reserve` adds to the
   * same commit (the owner's scene count), and may refuse by throwing.
   */
  async create(
    make: (id: string) => SceneRecord,
    reserve?: (op: PluginAtomic) => Promise<void>,
  ): Promise<SceneRecord> {
    let made: SceneRecord | null = null;
    await this.kv.next(sceneKeys.counter, async (n, op) => {
      await reserve?.(op);
      made = make(String(n));
      const key = this.kv.key(...sceneKeys.scene(n));
      op.check({ key, versionstamp: null }).set(key, made);
      for (const k of indexKeys(made)) op.set(this.kv.key(...k), sceneKeys.scene(n));
    });
    this.#wrote(made!);
    return made!;
  }

  /** One scene, or null (also for ids that cannot name one). */
  get(id: string): Promise<SceneRecord | null> {
    const n = sceneNumber(id);
    return n === null ? Promise.resolve(null) : this.kv.get<SceneRecord>(sceneKeys.scene(n));
  }

  /**
   * Reads a scene, lets `decide` compute its next state, and commits the record, its index
   * changes and any extra writes together, checked against the version read (retried when
   * another write came between). `decide` may throw to refuse; then nothing is written.
   */
  async update<T>(
    id: string,
    decide: (s: SceneRecord) => Change<T> | Promise<Change<T>>,
  ): Promise<{ scene: SceneRecord; result: T } | null> {
    const n = sceneNumber(id);
    if (n === null) return null;
    for (let i = 0; i < ATTEMPTS; i++) {
      const entry = await this.kv.getEntry<SceneRecord>(sceneKeys.scene(n));
      if (!entry.value) return null;
      const before = entry.value;
      const change = await decide(structuredClone(before));
      if (!change.next) return { scene: before, result: change.result };
      const after = change.next;
      const op = this.kv.atomic().check(entry).set(entry.key, after);
      const old = new Set(indexKeys(before).map((k) => JSON.stringify(k)));
      const now = new Set(indexKeys(after).map((k) => JSON.stringify(k)));
      for (const k of old) if (!now.has(k)) op.delete(this.kv.key(...JSON.parse(k)));
      for (const k of now) {
        if (!old.has(k)) op.set(this.kv.key(...JSON.parse(k)), sceneKeys.scene(n));
      }
      await change.with?.(op);
      if ((await op.commit()).ok) {
        this.#wrote(before, after);
        return { scene: after, result: change.result };
      }
    }
    throw new ConflictError("The scene is busy; try again.");
  }

  /** Writes a pose's key for a scene (the caller commits it with the scene's pose count). */
  poseWrite(sceneId: string, pose: Pose): (op: PluginAtomic) => void {
    const key = this.kv.key(...sceneKeys.pose(Number(sceneId), Number(pose.id)));
    return (op) => void op.check({ key, versionstamp: null }).set(key, pose);
  }

  /** One pose with its versionstamp (for a checked edit). */
  poseEntry(sceneId: string, poseId: string): Promise<Deno.KvEntryMaybe<Pose>> | null {
    const n = sceneNumber(sceneId), seq = sceneNumber(poseId);
    if (n === null || seq === null) return null;
    return this.kv.getEntry<Pose>(sceneKeys.pose(n, seq));
  }

  /** Replaces a pose in the scene's commit, if it is unchanged since it was read. */
  poseReplace(entry: Deno.KvEntryMaybe<Pose>, pose: Pose): (op: PluginAtomic) => void {
    return (op) => void op.check(entry).set(entry.key, pose);
  }

  /** A scene's poses in order, read in batches (bounded by the scene's pose cap). */
  async poses(sceneId: string): Promise<Pose[]> {
    const out: Pose[] = [];
    for await (const p of this.eachPose(sceneId)) out.push(p);
    return out;
  }

  /** A scene's poses in order, one batch read at a time as they are consumed (exports). */
  async *eachPose(sceneId: string): AsyncGenerator<Pose> {
    const iter = this.kv.list<Pose>(sceneKeys.poses(Number(sceneId)), { batchSize: POSE_BATCH });
    for await (const e of iter) if (e.value && typeof e.value === "object") yield e.value;
  }

  /**
   * Up to `limit` poses numbered below `before` (the newest of them), or above `after` (the
   * oldest of them), oldest first: a range of keys, so any page costs its own poses only.
   */
  async posesAround(
    sceneId: string,
    at: { before: number } | { after: number },
    limit: number,
  ): Promise<Pose[]> {
    const n = Number(sceneId);
    const reverse = "before" in at;
    const [from, to] = reverse ? [0, at.before] : [at.after + 1, Number.MAX_SAFE_INTEGER];
    const out: Pose[] = [];
    const iter = this.kv.range<Pose>(sceneKeys.pose(n, from), sceneKeys.pose(n, to), {
      limit,
      reverse,
      batchSize: Math.min(limit, POSE_BATCH),
    });
    for await (const e of iter) if (e.value && typeof e.value === "object") out.push(e.value);
    return reverse ? out.reverse() : out;
  }

  /**
   * One page of a scene's poses in order (`+scene/log`): poses are numbered 1, 2, ... and never
   * deleted, so the page is the range after `offset`, however deep it is.
   */
  posePage(sceneId: string, page: Page): Promise<Pose[]> {
    return this.posesAround(sceneId, { after: page.offset }, page.limit);
  }

  /** The last `count` poses, oldest first. */
  async lastPoses(sceneId: string, count: number): Promise<Pose[]> {
    return (await this.kv.values<Pose>(sceneKeys.poses(Number(sceneId)), count, true)).reverse();
  }

  /** How many scenes `player` owns: their index walked once, its records read in batches. */
  async countOwned(player: string): Promise<number> {
    let n = 0;
    let batch: Deno.KvKeyPart[][] = [];
    const flush = async () => {
      for (const s of await this.kv.getMany<SceneRecord>(batch)) if (s?.owner === player) n++;
      batch = [];
    };
    for await (const e of this.kv.list<Deno.KvKeyPart[]>(sceneKeys.ofPlayer(player))) {
      if (batch.push(e.value) >= 100) await flush();
    }
    await flush();
    return n;
  }

  /** Scenes a player owns, takes part in or is allowed into, newest first. */
  ofPlayer(player: string, page: Page): Promise<SceneRecord[]> {
    return this.#pageOf(sceneKeys.ofPlayer(player), page);
  }

  /** Every scene, newest first. */
  all(page: Page): Promise<SceneRecord[]> {
    return this.#pageOf(sceneKeys.allPrefix(), page);
  }

  /** Active public scenes, newest first. */
  open(page: Page): Promise<SceneRecord[]> {
    return this.#pageOf(sceneKeys.openPrefix(), page);
  }

  /** Scenes visitors may read (shared and public), newest first. */
  shared(page: Page): Promise<SceneRecord[]> {
    return this.#pageOf(sceneKeys.sharedPrefix(), page);
  }

  /** Scenes visitors may read that a player owns or took part in, newest first. */
  sharedWith(player: string, page: Page): Promise<SceneRecord[]> {
    return this.#pageOf(sceneKeys.ofSharedWith(player), page);
  }

  /** Scenes of one status, newest first. */
  withStatus(status: string, page: Page): Promise<SceneRecord[]> {
    return this.#pageOf(sceneKeys.ofStatus(status), page);
  }

  /**
   * The active scenes of a room, newest first (at most 50). With `soleWriter`, a room found
   * without one is not read again until a scene is created in it or changes there.
   */
  async activeIn(room: string): Promise<SceneRecord[]> {
    const quiet = this.#quiet;
    if (quiet?.has(room)) return [];
    const writes = this.#writes;
    const found = await this.inRoom(room, "active", { limit: 50, offset: 0 });
    // A scene written while the read ran may be missing from it: then nothing is remembered.
    if (quiet && found.length === 0 && writes === this.#writes) {
      if (quiet.size >= MAX_QUIET_ROOMS) quiet.clear();
      quiet.add(room);
    }
    return found;
  }

  /**
   * True when the room is known to have no active scene (`activeIn` found none, and no scene
   * was written there since): a line of speech there needs no read, nor anything else.
   */
  knownQuiet(room: string): boolean {
    return this.#quiet?.has(room) ?? false;
  }

  /** Scenes of one status in a room, newest first. */
  inRoom(room: string, status: string, page: Page): Promise<SceneRecord[]> {
    return this.#pageOf(sceneKeys.ofRoom(room, status), page);
  }

  /** After a committed write: the rooms the scene was and is in are read again. */
  #wrote(...versions: SceneRecord[]): void {
    this.#writes++;
    for (const s of versions) this.#quiet?.delete(s.location);
  }

  #pageOf(prefix: Deno.KvKeyPart[], page: Page): Promise<SceneRecord[]> {
    return this.kv.slicePage<SceneRecord>(prefix, page, { reverse: true });
  }
}
