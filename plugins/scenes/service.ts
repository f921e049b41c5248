/**
 * Scene rules, one place for REST, in-game commands and automatic logging: create, change,
 * pose (broadcast to the room, hooks fired after the commit), edit poses, join, invite,
 * export, and the lists. Every refusal is a typed error thrown before anything is written.
 */
import {
  ConflictError,
  type DbObject,
  type Delivery,
  ForbiddenError,
  isStaff,
  lockOf,
  NotFoundError,
  oneLine,
  ownerOf,
  type Page,
  type PlayerLookup,
  type PluginAtomic,
  type PluginBus,
  type PluginQuota,
  type PluginWorld,
  sanitizeText,
  stripColour,
  typeOf,
  utf8Length,
  ValidationError,
} from "../../src/plugins/mod.ts";
import { mayEditPose, mayInvite, mayJoin, mayManage, mayPost, mayView } from "./access.ts";
import { jsonPieces, markdownPieces, poseLine } from "./format.ts";
import type { SceneStore } from "./store.ts";
import {
  MAX_DESC,
  MAX_MEMBERS,
  MAX_NAME,
  MAX_POSE,
  type Pose,
  type PoseType,
  type SceneEvents,
  type SceneRecord,
  type SceneStatus,
  type SceneType,
  type SceneView,
} from "./types.ts";

/** The data type of a pose message to the room (web clients get it; GMCP maps it). */
export const POSE_DATA = "scene.pose";
/** Most rooms `/scenes/locations` reads. */
const MAX_ROOMS = 5000;
/** Default of `plugins.scenes.maxPoses`: poses one scene holds. */
export const DEFAULT_MAX_POSES = 20_000;
/** Default of `plugins.scenes.detailPoses`: poses a scene's detail carries. */
export const DEFAULT_DETAIL_POSES = 1000;
/** Default of `plugins.scenes.maxScenes`: scenes one player owns. */
export const DEFAULT_MAX_SCENES = 1000;

/** Default of `plugins.scenes.maxSceneBytes`: UTF-8 bytes of pose text one scene holds. */
export const DEFAULT_MAX_SCENE_BYTES = 4 * 1024 * 1024;
/** Default of `plugins.scenes.maxPoseBytes`: UTF-8 bytes of pose text one player stores. */
export const DEFAULT_MAX_POSE_BYTES = 64 * 1024 * 1024;

/** The plugin's limits, read from the live configuration at each use. */
export interface SceneLimits {
  /** Poses one scene holds (`plugins.scenes.maxPoses`). */
  maxPoses(): number;
  /** Bytes of pose text one scene holds (`plugins.scenes.maxSceneBytes`; 0: no limit). */
  sceneBytes(): number;
  /**
   * Bytes of pose text a player stores across every scene, their puppets' poses included
   * (`plugins.scenes.maxPoseBytes`; staff are not held to it).
   */
  poseBytes: PluginQuota;
  /** Poses the detail carries before it is cut to the newest (`plugins.scenes.detailPoses`). */
  detailPoses(): number;
  /** Scenes a player owns (`plugins.scenes.maxScenes`; staff are not held to it). */
  owned: PluginQuota;
}

/** What the service needs of the engine. */
export interface SceneDeps {
  store: SceneStore;
  world: Pick<PluginWorld, "get" | "getMany" | "idsWithFlag" | "owningPlayer" | "passes">;
  players: Pick<PlayerLookup, "find" | "displayName">;
  deliver: Pick<Delivery, "toRoom" | "toPlayer">;
  hooks: Pick<PluginBus<SceneEvents>, "emit">;
  limits: SceneLimits;
  /** The engine clock (ms). */
  now(): number;
}

/** Where a page of poses starts: below a pose number, or above one. */
export type PoseCursor = { before: number } | { after: number };

/** Fields of a new scene, already checked. */
export interface NewScene {
  name: string;
  location: string;
  desc?: string;
  sceneType?: SceneType;
  private?: boolean;
}

/** Fields a PATCH may change, already checked (`endTime` null clears it). */
export interface SceneChanges {
  name?: string;
  desc?: string;
  status?: SceneStatus;
  sceneType?: SceneType;
  endTime?: number | null;
  private?: boolean;
  /** Shares the scene with visitors (or stops sharing it). */
  shared?: boolean;
}

/** How a pose is posted: broadcast to the room (REST, `+scene/set`) or already heard (speech). */
export interface PoseOptions {
  broadcast: boolean;
  /** The time it was said (speech is stamped when heard, before the queue). */
  at?: number;
}

/** A scene as the API shows it: dbrefs with `#`, internal fields left out. */
export function sceneView(s: SceneRecord, poses?: Pose[]): SceneView {
  const ref = (id: string) => `#${id}`;
  const v: SceneView = {
    id: s.id,
    name: s.name,
    location: ref(s.location),
    desc: s.desc,
    owner: ref(s.owner),
    participants: s.participants.map(ref),
    allowed: s.allowed.map(ref),
    private: s.private,
    shared: s.shared === true,
    ...(poses ? { poses } : {}),
    startTime: s.startTime,
    ...(s.endTime !== undefined ? { endTime: s.endTime } : {}),
    status: s.status,
    sceneType: s.sceneType,
    poseCount: s.poseCount,
    lastActivity: s.lastActivity,
  };
  return v;
}

/** A bounded title: trimmed, not empty. */
export function checkName(v: unknown, field = "name"): string {
  // The engine leaves a REST body's `name` keys as sent (for the player name rules), so a
  // title is cleaned here: one line, no escapes, controls or bidi overrides.
  const name = typeof v === "string" ? sanitizeText(oneLine(v)).trim() : "";
  if (!name) throw new ValidationError(`${field} is required`);
  if (name.length > MAX_NAME) {
    throw new ValidationError(`${field} must be ${MAX_NAME} characters or fewer`);
  }
  return name;
}

/** A bounded description. */
export function checkDesc(v: unknown): string {
  if (typeof v !== "string") throw new ValidationError("desc must be a string");
  if (v.length > MAX_DESC) {
    throw new ValidationError(`desc must be ${MAX_DESC} characters or fewer`);
  }
  return v.trim();
}

/** `v` if it is one of `allowed`; else a 400 naming the allowed values. */
export function checkEnum<T extends string>(v: unknown, allowed: readonly T[], field: string): T {
  if (typeof v === "string" && (allowed as readonly string[]).includes(v)) return v as T;
  throw new ValidationError(`${field} must be one of: ${allowed.join(", ")}`);
}

/** Pose text: a string of at most MAX_POSE characters (code points). */
export function checkPoseText(v: unknown): string {
  if (typeof v !== "string") throw new ValidationError("msg must be a string");
  if ([...v].length > MAX_POSE) {
    throw new ValidationError(`msg must be ${MAX_POSE} characters or fewer`);
  }
  return v;
}

/** The scene rules. */
export class SceneService {
  constructor(private readonly d: SceneDeps) {}

  /** The clock the plugin stamps with. */
  now(): number {
    return this.d.now();
  }

  /** A room by reference (`#12` or `12`); a 400 unless it is a room. */
  async room(ref: string): Promise<DbObject> {
    const id = /^#?[0-9]{1,15}$/.test(ref.trim())
      ? String(Number(ref.trim().replace("#", "")))
      : "";
    const obj = id ? await this.d.world.get(id) : null;
    if (!obj || typeOf(obj) !== "room") throw new ValidationError("location must be a room dbref");
    return obj;
  }

  /** Creates a scene in a room (rule 1); fires `scene:created`. */
  async create(actor: DbObject, input: NewScene): Promise<SceneRecord> {
    const room = await this.room(input.location);
    // A scene's poses are heard in its room: only where the actor is, or may enter (the rooms
    // GET /locations offers), or anywhere for staff.
    if (
      room.id !== actor.location && !isStaff(actor.flags) &&
      !this.d.world.passes(lockOf(room, "enter"), lockSubject(actor), room.id)
    ) {
      throw new ForbiddenError("You may not start a scene in a room you cannot enter.");
    }
    // What a thing or puppet starts is its owning player's, as what it builds is (MUX's
    // Owner()): counted on that player's quota, and free of it only when that player is staff.
    // Owned by the thing itself, each thing had a quota of its own.
    const owner = await this.d.world.owningPlayer(actor);
    if (!owner) throw new ForbiddenError("Only an object with an owner may start a scene.");
    const now = this.d.now();
    const owned = this.d.limits.owned;
    const s = await this.d.store.create((id) => ({
      id,
      name: input.name,
      location: room.id,
      desc: input.desc ?? "",
      owner: owner.id,
      participants: [actor.id],
      allowed: [actor.id],
      private: input.private ?? false,
      startTime: now,
      status: "active",
      sceneType: input.sceneType ?? "social",
      poseCount: 0,
      lastActivity: now,
      lastPosed: {},
    }), (op) => owned.take(op, owner.id, { exempt: isStaff(owner.flags) }));
    void this.d.hooks.emit("scene:created", {
      sceneId: s.id,
      sceneName: s.name,
      roomId: `#${s.location}`,
      actorId: `#${actor.id}`,
      actorName: actor.name,
      sceneType: s.sceneType,
    });
    return s;
  }

  /** A scene the actor may see: 404 when there is none, 403 when it is private to others. */
  async visible(actor: DbObject, id: string): Promise<SceneRecord> {
    const s = await this.d.store.get(id);
    if (!s) throw new NotFoundError("Scene not found");
    if (!mayView(s, actor)) throw new ForbiddenError("This scene is private.");
    return s;
  }

  /**
   * The scene with its poses: all of them up to `plugins.scenes.detailPoses`, else the newest
   * that many, with `olderPoses` saying how many come before (page back with `posePage`).
   */
  async detail(actor: DbObject, id: string): Promise<SceneView> {
    const s = await this.visible(actor, id);
    const max = this.d.limits.detailPoses();
    if (s.poseCount <= max) return sceneView(s, await this.d.store.poses(s.id));
    const poses = await this.d.store.posesAround(s.id, { before: s.poseCount + 1 }, max);
    const older = poses.length ? Number(poses[0].id) - 1 : 0;
    return { ...sceneView(s, poses), olderPoses: older };
  }

  /** A page of a visible scene's poses, oldest first, at most `plugins.scenes.detailPoses`. */
  async posePage(actor: DbObject, id: string, at: PoseCursor, limit?: number): Promise<Pose[]> {
    const s = await this.visible(actor, id);
    const max = this.d.limits.detailPoses();
    return await this.d.store.posesAround(s.id, at, Math.min(limit ?? max, max));
  }

  /**
   * True when a scene holds `plugins.scenes.maxPoses` poses, or `plugins.scenes.maxSceneBytes`
   * of text, and takes no more.
   */
  isFull(s: SceneRecord): boolean {
    const bytes = this.d.limits.sceneBytes();
    return s.poseCount >= this.d.limits.maxPoses() || (bytes > 0 && (s.poseBytes ?? 0) >= bytes);
  }

  /** Scenes the actor may see in the list: staff see all, others those they are part of. */
  list(actor: DbObject, page: Page): Promise<SceneRecord[]> {
    return isStaff(actor.flags) ? this.d.store.all(page) : this.d.store.ofPlayer(actor.id, page);
  }

  /** Active public scenes anywhere, newest first. */
  open(page: Page): Promise<SceneRecord[]> {
    return this.d.store.open(page);
  }

  /** Changes a scene (rule 4); fires `scene:title` and `scene:clear` as the spec says. */
  async patch(actor: DbObject, id: string, ch: SceneChanges): Promise<SceneRecord> {
    let old: SceneRecord | null = null;
    const r = await this.d.store.update(id, (s) => {
      if (!mayManage(s, actor)) {
        throw new ForbiddenError("Only the scene's owner, an admin or a wizard may change it.");
      }
      old = structuredClone(s);
      if (ch.name !== undefined) s.name = ch.name;
      if (ch.desc !== undefined) s.desc = ch.desc;
      if (ch.sceneType !== undefined) s.sceneType = ch.sceneType;
      if (ch.private !== undefined) s.private = ch.private;
      if (ch.shared === true && s.private) {
        // Those in a private scene posed for each other: it is never shown to visitors.
        throw new ValidationError(
          "A private scene can't be shared. Make it public first (+scene/privacy).",
        );
      }
      if (ch.shared !== undefined) s.shared = ch.shared;
      // A shared scene made private stops being shared: making it public again shares nothing.
      else if (ch.private === true) s.shared = false;
      if (ch.status !== undefined) s.status = ch.status;
      if (ch.endTime === null) delete s.endTime;
      else if (ch.endTime !== undefined) s.endTime = ch.endTime;
      else if (ch.status === "closed" && s.endTime === undefined) s.endTime = this.d.now();
      else if (ch.status && ch.status !== "closed" && old.status === "closed") delete s.endTime;
      s.lastActivity = this.d.now();
      return { next: s, result: null };
    });
    if (!r) throw new NotFoundError("Scene not found");
    const before = old as SceneRecord | null;
    const s = r.scene;
    if (before && before.name !== s.name) {
      void this.d.hooks.emit("scene:title", {
        sceneId: s.id,
        oldName: before.name,
        newName: s.name,
        actorId: `#${actor.id}`,
        actorName: actor.name,
      });
    }
    if (before && before.status !== "closed" && s.status === "closed") {
      void this.d.hooks.emit("scene:clear", {
        sceneId: s.id,
        sceneName: s.name,
        actorId: `#${actor.id}`,
        actorName: actor.name,
        status: s.status,
      });
    }
    return s;
  }

  /**
   * Posts a pose (rule 2): the poster joins `participants`; the pose is its own key, committed
   * with the scene's count; then the room hears it (unless it already did) and the hooks fire.
   */
  async pose(
    actor: DbObject,
    id: string,
    input: { msg?: string; type: PoseType },
    opts: PoseOptions,
  ): Promise<{ scene: SceneRecord; pose: Pose }> {
    // A puppet's poses count against its owning player, as its scenes do.
    const payer = await this.#payer(actor.id);
    const r = await this.d.store.update(id, (s) => {
      if (!mayPost(s, actor)) throw new ForbiddenError("This scene is private.");
      if (s.status === "closed") throw new ValidationError("This scene is closed.");
      const max = this.d.limits.maxPoses();
      if (s.poseCount >= max) {
        throw new ConflictError(
          `Scene ${s.id} is full: a scene holds at most ${max} poses. Start a new scene to go on.`,
        );
      }
      let msg = input.msg ?? "";
      if (input.type === "set" && !msg.trim()) msg = s.desc;
      if (!msg.trim()) throw new ValidationError("msg is required");
      const bytes = utf8Length(msg);
      this.#checkSceneBytes(s, bytes);
      if (!s.participants.includes(actor.id)) {
        if (s.participants.length >= MAX_MEMBERS) {
          throw new ValidationError(`A scene holds at most ${MAX_MEMBERS} participants.`);
        }
        s.participants.push(actor.id);
      }
      const at = Math.max(opts.at ?? this.d.now(), 0);
      s.poseCount += 1;
      const pose: Pose = {
        id: String(s.poseCount),
        charId: `#${actor.id}`,
        charName: actor.name,
        moniker: this.d.players.displayName(actor),
        msg,
        type: input.type,
        timestamp: at,
      };
      s.lastActivity = Math.max(s.lastActivity, at);
      s.lastPosed[actor.id] = at;
      s.poseBytes = (s.poseBytes ?? 0) + bytes;
      const write = this.d.store.poseWrite(s.id, pose);
      return {
        next: s,
        result: pose,
        with: async (op) => {
          write(op);
          await this.#charge(op, payer, bytes);
        },
      };
    });
    if (!r) throw new NotFoundError("Scene not found");
    const { scene: s, result: pose } = r;
    if (opts.broadcast) {
      this.d.deliver.toRoom(s.location, {
        msg: poseLine(pose),
        data: { type: POSE_DATA, sceneId: s.id, sceneName: s.name, pose },
      });
    }
    const base = {
      sceneId: s.id,
      sceneName: s.name,
      roomId: `#${s.location}`,
      actorId: pose.charId,
      actorName: actor.name,
    };
    void this.d.hooks.emit("scene:pose", { ...base, msg: pose.msg, type: pose.type });
    if (pose.type === "set") {
      void this.d.hooks.emit("scene:set", { ...base, description: pose.msg });
    }
    return { scene: s, pose };
  }

  /**
   * Edits a pose's text (rule 3): author or owner; type and timestamp stay. What the text grows
   * or shrinks by moves the scene's bytes and its author's (their owning player's), checked as a
   * new pose is, in the same commit.
   */
  async editPose(actor: DbObject, id: string, poseId: string, msg: string): Promise<Pose> {
    const s0 = await this.visible(actor, id);
    const r = await this.d.store.update(s0.id, async (s) => {
      const entry = await this.d.store.poseEntry(s.id, poseId);
      if (!entry?.value) throw new NotFoundError("Pose not found");
      const pose = entry.value;
      if (!mayEditPose(s, pose, actor)) {
        throw new ForbiddenError("Only the pose's author or the scene's owner may edit it.");
      }
      if (pose.type !== "set" && !msg.trim()) throw new ValidationError("msg is required");
      const next = { ...pose, msg };
      const delta = utf8Length(msg) - utf8Length(pose.msg);
      if (delta > 0) this.#checkSceneBytes(s, delta);
      s.poseBytes = Math.max(0, (s.poseBytes ?? 0) + delta);
      const payer = await this.#payer(pose.charId.replace("#", ""));
      const write = this.d.store.poseReplace(entry, next);
      return {
        next: s,
        result: next,
        with: async (op) => {
          write(op);
          if (!payer) return;
          if (delta > 0) await this.#charge(op, payer, delta);
          else if (delta < 0) await this.d.limits.poseBytes.give(op, payer.id, "", -delta);
        },
      };
    });
    if (!r) throw new NotFoundError("Scene not found");
    return r.result;
  }

  /** The player whose byte quota a character's poses count against (null: none left). */
  async #payer(charId: string): Promise<DbObject | null> {
    const char = await this.d.world.get(charId);
    if (!char) return null;
    const id = ownerOf(char);
    return id === char.id ? char : await this.d.world.get(id);
  }

  /** Refuses (409) text that would carry a scene past `plugins.scenes.maxSceneBytes`. */
  #checkSceneBytes(s: SceneRecord, bytes: number): void {
    const max = this.d.limits.sceneBytes();
    if (max > 0 && (s.poseBytes ?? 0) + bytes > max) {
      throw new ConflictError(
        `Scene ${s.id} is full: a scene holds at most ${byteSize(max)} of poses. ` +
          "Start a new scene to go on.",
      );
    }
  }

  /** Adds `bytes` to the payer's byte quota in `op` (refused past it unless staff). */
  async #charge(op: PluginAtomic, payer: DbObject | null, bytes: number): Promise<void> {
    if (!payer) return;
    await this.d.limits.poseBytes.take(op, payer.id, {
      amount: bytes,
      exempt: isStaff(payer.flags),
    });
  }

  /** Joins a scene (private: only from the allowed list). */
  async join(actor: DbObject, id: string): Promise<SceneRecord> {
    const r = await this.d.store.update(id, (s) => {
      if (!mayJoin(s, actor)) {
        throw new ForbiddenError("This scene is private: you are not invited.");
      }
      if (s.status === "closed") throw new ValidationError("This scene is closed.");
      if (s.participants.includes(actor.id)) return { next: null, result: null };
      if (s.participants.length >= MAX_MEMBERS) {
        throw new ValidationError(`A scene holds at most ${MAX_MEMBERS} participants.`);
      }
      s.participants.push(actor.id);
      return { next: s, result: null };
    });
    if (!r) throw new NotFoundError("Scene not found");
    return r.scene;
  }

  /** Adds a player (name or dbref) to `allowed`; tells the player when connected. */
  async invite(actor: DbObject, id: string, ref: string): Promise<SceneRecord> {
    const s0 = await this.d.store.get(id);
    if (!s0) throw new NotFoundError("Scene not found");
    if (!mayInvite(s0, actor)) {
      throw new ForbiddenError("Only the owner, invited players and staff may invite.");
    }
    const target = ref.trim() ? await this.d.players.find(ref.trim(), actor) : null;
    if (!target) throw new NotFoundError("No such player.");
    const r = await this.d.store.update(id, (s) => {
      if (s.allowed.includes(target.id)) return { next: null, result: null };
      if (s.allowed.length >= MAX_MEMBERS) {
        throw new ValidationError(`A scene allows at most ${MAX_MEMBERS} players.`);
      }
      s.allowed.push(target.id);
      return { next: s, result: null };
    });
    if (!r) throw new NotFoundError("Scene not found");
    if (target.id !== actor.id) {
      this.d.deliver.toPlayer(target.id, {
        msg: `${this.d.players.displayName(actor)} invites you to scene ${r.scene.id}: ` +
          `${r.scene.name}%cn. Type +scene/join ${r.scene.id} to join.`,
      });
    }
    return r.scene;
  }

  /**
   * The Markdown log of a scene (rule 6) as pieces read as they are consumed (the export
   * streams it):
   * the access check and the names come first, so a refusal is still a plain error.
   */
  async markdownStream(actor: DbObject, id: string): Promise<AsyncGenerator<string>> {
    const s = await this.visible(actor, id);
    return markdownPieces(s, this.d.store.eachPose(s.id), await this.#names(s));
  }

  /** The JSON export (the scene with every pose) as pieces read as they are consumed. */
  async jsonStream(actor: DbObject, id: string): Promise<AsyncGenerator<string>> {
    const s = await this.visible(actor, id);
    return jsonPieces(sceneView(s), this.d.store.eachPose(s.id));
  }

  /** The names an export shows: the room's and the participants'. */
  async #names(s: SceneRecord) {
    const [people, room] = await Promise.all([
      this.d.world.getMany(s.participants),
      this.d.world.get(s.location),
    ]);
    const byId = new Map(people.map((p) => [p.id, p.name]));
    return {
      room: room?.name ?? null,
      participants: s.participants.map((p) => byId.get(p) ?? `#${p}`),
      exportedAt: this.d.now(),
    };
  }

  /** Rooms the actor may enter, sorted by name; `private` when the room has an enter lock. */
  async locations(actor: DbObject): Promise<{ id: string; name: string; type: string }[]> {
    const ids = await this.d.world.idsWithFlag("room", MAX_ROOMS);
    const rooms = await this.d.world.getMany(ids);
    const subject = lockSubject(actor);
    return rooms
      .filter((r) => typeOf(r) === "room" && this.d.world.passes(lockOf(r, "enter"), subject, r.id))
      .map((r) => ({
        id: `#${r.id}`,
        name: r.name,
        type: (r.data.locks?.enter ?? "").trim() ? "private" : "public",
      }))
      .sort((a, b) => {
        const x = stripColour(a.name).toLowerCase(), y = stripColour(b.name).toLowerCase();
        return x < y ? -1 : x > y ? 1 : Number(a.id.slice(1)) - Number(b.id.slice(1));
      });
  }

  /** Active scenes of a room (speech logging reads only these), newest first. */
  activeIn(room: string): Promise<SceneRecord[]> {
    return this.d.store.activeIn(room);
  }

  /** True when the room is known to have no active scene (no read needed to say so). */
  knownQuiet(room: string): boolean {
    return this.d.store.knownQuiet(room);
  }

  /** Active and paused scenes of a room (for commands), newest first. */
  async liveIn(room: string): Promise<SceneRecord[]> {
    const page = { limit: 50, offset: 0 };
    const [active, paused] = await Promise.all([
      this.d.store.inRoom(room, "active", page),
      this.d.store.inRoom(room, "paused", page),
    ]);
    return [...active, ...paused];
  }
}

/** The actor as an enter lock sees them (connected: they are acting). */
function lockSubject(actor: DbObject) {
  return { id: `#${actor.id}`, flags: actor.flags, connected: true };
}

/** A byte count as players read it: `4 MiB`, `1.5 MiB`, `800 KiB`, `512 bytes`. */
export function byteSize(n: number): string {
  const unit = (size: number, name: string) => `${Number((n / size).toFixed(1))} ${name}`;
  if (n >= 1024 * 1024) return unit(1024 * 1024, "MiB");
  if (n >= 1024) return unit(1024, "KiB");
  return `${n} bytes`;
}
