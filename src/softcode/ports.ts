/**
 * What the evaluator needs of the engine, and nothing more: the world as it stands in memory
 * (objects, contents, attributes), who is connected, permission rules, delivery, and the
 * clock. All reads are synchronous: evaluation never waits. The composition root
 * (src/engine.ts) builds these once, over the world store and the hub.
 */
import type { DbObject } from "../world/types.ts";
import type { Attribute } from "../world/attributes/types.ts";
import type { ActionQueue, QueueChain } from "../queue/types.ts";
import type { ObjectCounts } from "../world/stats.ts";

/** An attribute as softcode sees it: the world's own (src/world/attributes). */
export type SoftAttr = Attribute;

/** The objects of the world, from memory. */
export interface WorldView {
  /** One object by id (no `#`), or null. */
  object(id: string): DbObject | null;
  /** Ids of everything located in `id` (exits included), in a stable order. */
  contents(id: string): readonly string[];
  /** Ids of the players whose name or alias is `name` (any case); at most one. */
  playerByName(name: string): string | null;
  /** Ids of objects with this exact name (any case), at most `limit`. */
  byName(name: string, limit: number): readonly string[];
  /** Ids of objects owned by `owner`, at most `limit`. */
  ownedBy(owner: string, limit: number): readonly string[];
  /** Ids of objects with this flag (type flags included), at most `limit`. */
  withFlag(flag: string, limit: number): readonly string[];
  /**
   * Ids of objects whose parent is `id`, at most `limit`; ascending among ids of one length
   * (the index's code-unit order, or dbref order), as for `zoned`.
   */
  children(id: string, limit: number): readonly string[];
  /** Ids of objects in the zone of `id` (`@chzone`), at most `limit`; ordered as `children`. */
  zoned(id: string, limit: number): readonly string[];
  /** Ids of the exits that lead to `id`, at most `limit`; ordered as `children`. */
  exitsTo(id: string, limit: number): readonly string[];
  /** Ids of the players and things whose home is `id`, at most `limit`; ordered as `children`. */
  homedAt(id: string, limit: number): readonly string[];
  /** How many objects `owner` owns (a player owns itself). */
  ownedCount(owner: string): number;
}

/** Attributes of objects, from memory; writes persist behind, in order. */
export interface AttributeView {
  /** An object's own attribute (no parent lookup), or null. */
  get(id: string, name: string): SoftAttr | null;
  /** Names of an object's own attributes, upper-case, in a stable order. */
  names(id: string): readonly string[];
  /**
   * Sets (a non-empty value) or clears (empty) an attribute as `actor`, under the same rules
   * as the `&` command. Returns null on success, else the reason it was refused.
   */
  set(actorId: string, id: string, name: string, value: string): string | null;
  /**
   * `@wipe` as `actor`: clears the attributes of `id` it may see that match the wildcard
   * `pattern`, under `@wipe`'s rules (it must control the object). Answers what `@wipe` tells it.
   */
  wipe(actorId: string, id: string, pattern: string): string;
}

/**
 * One logged-in connection as softcode sees it: MUX's descriptor, whose port number is the hub's
 * connection number (connection `c12` is port 12).
 */
export interface SoftSession {
  port: number;
  /** The player logged in on it. */
  player: string;
  /** The client's address. */
  host: string;
  /** What carries it: a telnet client, the web client, or a plain WebSocket. */
  kind: "telnet" | "web" | "plain";
  width: number;
  height: number;
  /** The terminal type a telnet client named; "" when none. */
  terminal: string;
  /** Colour bits it is shown with, as MUX's colordepth(): 0, 4 (16 colours), 8 (256) or 24. */
  colourDepth: number;
  /** Command lines it has run. */
  commands: number;
  /** When it connected and last typed (ms since the epoch). */
  connectedAt: number;
  lastInput: number;
}

/** Who is connected, from the hub's memory. */
export interface PresenceView {
  /** Connected players, in order of login. */
  online(): readonly string[];
  isOnline(id: string): boolean;
  /** Seconds since the player's last command (least of its connections), or -1 offline. */
  idleSeconds(id: string): number;
  /** Seconds since the player connected (longest of its connections), or -1 offline. */
  connectedSeconds(id: string): number;
  /** The player's screen width in columns (78 when unknown). */
  width(id: string): number;
  /** The player's logged-in connections, the newest first. */
  sessions(id: string): readonly SoftSession[];
  /** The logged-in connection with this port number, or null. */
  session(port: number): SoftSession | null;
  /** The most connections logged in at once since the database was made (MUX's record). */
  record(): number;
  /** The header of `who`'s doing column (`@doing/header`, MUX's poll). */
  poll(): string;
}

/** Permission rules, the engine's own. */
export interface AccessRules {
  /** `actor` may change `target` (MUX's controls()). */
  controls(actor: DbObject, target: DbObject): boolean;
  /** `viewer` sees `target` as its controller does: staff, or it controls it (MUX's Examinable). */
  examines(viewer: DbObject, target: DbObject): boolean;
  /** `viewer` may see `target` (the world's rule: src/world/visibility.ts). */
  canSee(viewer: DbObject, target: DbObject): boolean;
  /** The location `viewer` may be shown of `target`: its container's id, or "" when hidden. */
  shownLocation(viewer: DbObject, target: DbObject): string;
  /** What of `container`'s contents `viewer` may see listed. */
  visibleContents(viewer: DbObject, container: DbObject, contents: readonly DbObject[]): DbObject[];
  /** `target` is hidden from `viewer` wherever objects are listed (a dark one). */
  hiddenFrom(viewer: DbObject, target: DbObject): boolean;
  /** `viewer` may read attribute `attr` of `obj` (visual, hidden, wizard, owner rules). */
  canSeeAttr(viewer: DbObject, obj: DbObject, attr: SoftAttr): boolean;
  /** Staff (admin, wizard, superuser). */
  isStaff(obj: DbObject): boolean;
  /**
   * `subject` passes a lock expression (the engine's lock language; "" passes everyone), as the
   * lock of object `on` when given (evaluation keys read its attributes).
   */
  passesLock(lock: string, subject: DbObject, on?: string): boolean;
}

/** Output to players, through the same delivery as every command (text in wire form). */
export interface SoftDelivery {
  /** To what an object hears (a player; a puppet's owner; other objects hear nothing). */
  toObject(id: string, msg: string): void;
  /**
   * What `from` tells an object (`@pemit`, `pemit()`: MUX's notify_with_cause): heard as with
   * `toObject`, and by a thing's listening, which passes it to what is inside the thing when its
   * `@listen` matched.
   */
  tell(id: string, msg: string, from: string): void;
  /** To everyone connected in a room, except the listed ids. */
  /** With `from` (the executor that showed it), the room's listening objects hear it too. */
  toRoom(roomId: string, msg: string, exclude?: readonly string[], from?: string): void;
}

/** The types of object `create()` makes. */
export type BuiltType = "thing" | "room" | "exit";

/** A change of the world refused: why, in words for the actor (MUX tells it the reason). */
export interface Refused {
  refused: string;
  /** The actor may not do it at all (not a builder; a guest for a teleport). */
  permission?: boolean;
}

/**
 * Changes to the world's objects, under the rules of the building commands (`@create`, `@dig`,
 * `@open`, `@teleport`: src/world/building.ts). Made in memory at once, so the rest of the
 * evaluation sees them, and persisted behind, in order.
 */
export interface WorldChanges {
  /**
   * Makes an object named `name` for `actorId`: a thing it carries, a room, or an exit in its
   * room (unlinked). Answers the new id, or why not.
   */
  create(actorId: string, name: string, type: BuiltType): string | Refused;
  /**
   * Moves `id` to `destId` under `@teleport`'s rules (src/world/building.ts, teleportRefusal), or
   * with `destId` HOME to its home under MUX's rule of going home (homeRefusal),
   * telling the rooms and showing a moved player its new room (`quiet`: the rooms are not told);
   * a place that refuses says its messages and queues its action in `chain`, as `@teleport`'s.
   * Answers what the actor is told ("" nothing), or a refusal with `permission` when the actor
   * may not teleport at all.
   */
  teleport(
    actorId: string,
    id: string,
    destId: string,
    quiet: boolean,
    chain: QueueChain | null | undefined,
  ): string | Refused;
  /**
   * Links `id` to `destId` under `@link`'s rules (src/world/building.ts, checkLink): an exit's
   * destination or a player's or thing's home. Answers what `@link` tells the actor, or a
   * refusal (`permission` when the actor may not use `@link` at all).
   */
  link(actorId: string, id: string, destId: string): string | Refused;
  /**
   * Sets `id`'s lock of `type` to the key `expr` (empty: removes the lock) under `@lock`'s rules:
   * the actor must control the object (else a `permission` refusal), and the key is read as
   * `@lock` reads it, each name in it found by `resolve` (an id, or null for none). Answers ""
   * when done, or why not.
   */
  lock(
    actorId: string,
    id: string,
    type: string,
    expr: string,
    resolve: (name: string) => string | null,
  ): string | Refused;
}

/** The destination of WorldChanges.teleport that is the object's own home (MUX's HOME). */
export const HOME = "home";

/**
 * The game's own state, as MUX's server functions read it (`motd()`, `config()`, `stats()`,
 * `restarts()`, `dumping()`), from what the engine and its supervisor know.
 */
export interface GameState {
  /** When the game first started: the first of the runs its supervisor restarted (ms). */
  firstStartedAt: number;
  /** Restarts (`@reboot`, `@update`) since then: 0 for an engine run on its own. */
  restarts: number;
  /** An automatic backup is being written (MUX's forked dump). */
  dumping(): boolean;
  /** The message each login is shown (`game.loginMessage`, MUX's `@motd`). */
  motd(): string;
  /** The MUX configuration parameters a reader may read (staff, or not), by name. */
  paramNames(staff: boolean): readonly string[];
  /**
   * One MUX configuration parameter as `config()` shows it; undefined when the game has no
   * such parameter, null when the reader may not read it.
   */
  param(name: string, staff: boolean): string | null | undefined;
  /** Objects by type: the whole world's (`owner` null), or what `owner` owns. */
  counts(owner: string | null): ObjectCounts;
  /** The starting room: where a home that is no longer a room leads (`home()`, `tel(me,home)`). */
  startingRoom(): string;
}

/** Everything the evaluator is given. */
export interface SoftcodePorts {
  world: WorldView;
  /**
   * The world's change count (src/world/version.ts), read as a field: an answer worked out from
   * objects and attributes alone holds while it is the same.
   */
  version: { readonly n: number };
  changes: WorldChanges;
  attributes: AttributeView;
  presence: PresenceView;
  access: AccessRules;
  delivery: SoftDelivery;
  /** Milliseconds since the epoch. */
  now(): number;
  /** When the engine started (ms since the epoch). */
  startedAt: number;
  /** The game's name (`mudname()`). */
  gameName(): string;
  /** Objects one non-staff player may own (`game.objectQuota`; 0: no limit). */
  objectQuota(): number;
  /** The command queue: `trigger()` queues an attribute's action list through it. */
  queue: ActionQueue;
  /** The game's state (server functions). */
  game: GameState;
}
