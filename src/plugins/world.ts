/**
 * The world as a plugin sees it: objects to read and change through the engine's one
 * object store (so indexes, the exit cache, the hub's room index and world events all
 * follow), the starting room, and what `look` shows. Nothing else of the engine.
 */
import type { DbObject, NewObject, ObjectType } from "../world/types.ts";
import type { Outbound } from "../hub/types.ts";
import type { Config } from "../config/load.ts";
import { startingRoom } from "../world/start.ts";
import { checkQuota, quotaGate } from "../world/building.ts";
import { lookAt, lookIn, type LookPorts } from "../commands/looking.ts";
import { checkLock, type LockSubject } from "../world/locks.ts";
import { type ControlWorld, ownerOf } from "../world/control.ts";
import { settableLock } from "../commands/lock_names.ts";
import { findTarget, type TargetDeps } from "../commands/target.ts";

/** Objects, rooms and exits, for plugins. */
export interface PluginWorld {
  /** One object by id (`12`, not `#12`), or null. */
  get(id: string): Promise<DbObject | null>;
  /** Several objects; missing ones are left out. */
  getMany(ids: readonly string[]): Promise<DbObject[]>;
  /**
   * The player owning `o` (`o` itself when it is one; MUX's Owner()), or null when it has none:
   * whose limits a thing's mail, posts, requests, scenes and channel lines count against.
   */
  owningPlayer(o: DbObject): Promise<DbObject | null>;
  /** Objects whose name is `name` (case-insensitive), at most `limit`. */
  byName(name: string, limit?: number): Promise<DbObject[]>;
  /** Everything located in `location`, at most `limit`. */
  contents(location: string, limit?: number): Promise<DbObject[]>;
  /**
   * Everything in `location` as the database holds it, at most `limit`: after `destroy`, what
   * moved in before the delete committed (no move commits into a destroyed object after it).
   */
  storedContents(location: string, limit: number): Promise<DbObject[]>;
  /** Objects of one type located in `location`, at most `limit`. */
  contentsOfType(location: string, type: ObjectType, limit?: number): Promise<DbObject[]>;
  /** Ids of objects carrying `flag` (from the flag index), at most `limit`. */
  idsWithFlag(flag: string, limit?: number): Promise<string[]>;
  /** Which of `ids` carry `flag` (from the flag index; unreadable records count). */
  flagged(ids: readonly string[], flag: string): Promise<Set<string>>;
  /** Exits that lead to room `dest`, at most `limit`. */
  exitsTo(dest: string, limit?: number): Promise<DbObject[]>;
  /**
   * Exits the database holds as leading to `dest`, at most `limit`: after `destroy`, what was
   * linked to it before the delete committed (no link to a destroyed object commits after it).
   */
  storedExitsTo(dest: string, limit: number): Promise<DbObject[]>;
  /**
   * Throws (ForbiddenError, with MUX's message) when `actor` may make no more objects: it owns
   * `game.objectQuota` of them already (staff have no quota).
   */
  checkQuota(actor: DbObject): Promise<void>;
  /** Creates an object with the next dbref. */
  create(input: NewObject): Promise<DbObject>;
  /**
   * Creates an object for `actor` within its quota: the check and the create run together, one
   * such create after another, so requests made at once cannot all pass the check before any of
   * them is made (thirty REST rooms at once made thirty under a quota of five).
   */
  createOwned(actor: DbObject, input: NewObject): Promise<DbObject>;
  /** Changes an object in one checked write (retried on a concurrent change). */
  update(id: string, change: (obj: DbObject) => void): Promise<DbObject>;
  /** Removes an object and its index entries. */
  destroy(id: string): Promise<void>;
  /** The room new players start in. */
  startingRoom(): Promise<string>;
  /**
   * What `look` shows `viewer` of a room or object, wrapped to `width` columns: the viewer looks
   * (descriptions are evaluated and the object's `@odesc`, `@osucc`... reach the others there;
   * no `@adesc` or `@asucc` action is queued).
   */
  look(viewer: DbObject, target: DbObject, width?: number): Promise<Outbound>;
  /**
   * True when `subject` passes a lock expression in the engine's one lock language (carrying,
   * owners, attributes and evaluation keys read the world), as the lock of object `on` when
   * given. An empty lock passes; a broken one does not.
   */
  passes(lock: string, subject: LockSubject, on?: string): boolean;
  /**
   * A lock as `actor` types it, ready to store: the in-game `@lock`'s parser, names (`me`,
   * `here`, `*player`, what the actor carries or sees where it stands) turned into dbrefs, so a
   * REST body or a plugin command takes the same keys as `@lock`. "" for an empty lock; throws
   * ValidationError (400, or the message in game) for a bad key or a name that matches nothing.
   */
  settableLock(actor: DbObject, expr: string): Promise<string>;
  /**
   * MUX's Hearer(): whether `obj` hears where it is (a connected player, a puppet, an object
   * with a `@listen` or a monitor's `^-listens`). Ask it before a move: one that hears is heard
   * arriving (announceArrival), and leaving a dark place.
   */
  hears(obj: DbObject): boolean;
  /**
   * What control reads of the world (the engine's lock world): pass it to `controls(actor,
   * target, world.locks)`, the engine's one control check, and to the visibility rules.
   */
  readonly locks: ControlWorld;
}

/** The plugin world over the engine's object store (and what looking uses, for `look`). */
export function pluginWorld(
  s: Omit<LookPorts, "queue" | "frame"> & {
    config: Config;
    players: TargetDeps["players"];
    hears: (obj: DbObject) => boolean;
  },
): PluginWorld {
  // A plugin's look says the object's messages but queues no action: the plugin's line has no
  // chain here to count a loop along.
  const looking: LookPorts = { ...s, queue: null };
  const o = s.objects;
  const quotaCheck = async (actor: DbObject): Promise<void> => {
    const quota = s.config.value.game.objectQuota;
    const owner = ownerOf(actor);
    checkQuota(actor, await o.countOwnedBy(owner, quota + 1), quota, await o.get(owner));
  };
  return {
    get: (id) => o.get(id),
    getMany: (ids) => o.getMany(ids),
    owningPlayer: (x) => {
      const id = ownerOf(x);
      return id === x.id ? Promise.resolve(x) : o.get(id);
    },
    byName: (name, limit) => o.byName(name, limit),
    contents: (location, limit) => o.contents(location, limit),
    storedContents: (location, limit) => o.storedContents(location, limit),
    contentsOfType: (location, type, limit) => o.contentsOfType(location, type, limit),
    idsWithFlag: (flag, limit) => o.idsWithFlag(flag, limit),
    flagged: (ids, flag) => o.flagged(ids, flag),
    exitsTo: (dest, limit) => o.exitsTo(dest, limit),
    storedExitsTo: (dest, limit) => o.storedExitsTo(dest, limit),
    checkQuota: quotaCheck,
    create: (input) => o.create(input),
    createOwned: async (actor, input) =>
      await o.createOwned(
        input,
        quotaGate(actor, s.config.value.game.objectQuota, await o.get(ownerOf(actor))),
      ),
    update: (id, change) => o.update(id, change),
    destroy: (id) => o.delete(id),
    startingRoom: () => startingRoom(s),
    look: (viewer, target, width = 78) =>
      target.flags.includes("room") || target.id === viewer.location
        ? lookIn(looking, viewer, target, width)
        : lookAt(looking, viewer, target, width),
    passes: (lock, subject, on) => checkLock(lock, subject, { world: s.locks, on }),
    hears: s.hears,
    locks: s.locks,
    settableLock: async (actor, expr) => {
      const here = actor.location ? await o.get(actor.location) : null;
      return await settableLock({ target: (ref) => findTarget(s, actor, here, ref) }, expr);
    },
  };
}
