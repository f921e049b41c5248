/**
 * The whole world in memory, while the engine is the database's only writer. Every object record
 * is read at start and every committed write of the object store is applied here after its
 * commit, so what this holds is what the database holds. A MUSH database is small (TinyMUX keeps
 * its whole structure in memory); holding it lets the softcode evaluator, which runs to its end
 * on the event loop and cannot wait, read any object and any index synchronously, and spares
 * every command the database round trip for its actor, room and exits.
 *
 * Each record carries the versionstamp of the commit it came from, so a notice that arrives late
 * (two writes of one object whose awaits resume out of order) never replaces a newer one; a delete
 * leaves a bounded tombstone for the same reason. Records are deep-frozen: the synchronous reads
 * hand them out without a copy.
 *
 * A write made in memory before its commit (softcode's create() and tel(), which cannot wait:
 * `ObjectStore.createNow`, `updateNow`) is shown over the committed record until every such write
 * of the object has settled: reads and indexes answer what is shown, while `held` keeps answering
 * the committed record and its versionstamp, which the store's checked writes build on.
 */
import { type DbObject, OBJECT_TYPES, type ObjectType } from "./types.ts";
import { deepFreeze } from "./freeze.ts";
import { parentOf } from "./parents.ts";
import { zoneOf } from "./zones.ts";
import { copyOf } from "./copy.ts";
import { WorldVersion } from "./version.ts";
import { RankMemo } from "./inherited_rank.ts";
import {
  type IndexKind,
  type Membership,
  membershipsOf,
  playerAliases,
  playerName,
} from "./indexes.ts";

/**
 * What the in-memory world answers synchronously: objects by id and the secondary indexes. Every
 * list is ids in the database's own order (by id as text, as Deno KV lists its index keys),
 * frozen and shared: callers must not change what they get, and get it without a copy.
 */
export interface WorldReader {
  /** Number of objects held. */
  readonly size: number;
  /** Counts every change of what is held, objects and attributes (src/world/version.ts). */
  readonly version: WorldVersion;
  /** The ranked copies of `inherit` objects, kept while they stand (withInheritedRank). */
  readonly ranks?: RankMemo;
  /** An object by id (`12`, not `#12`), frozen, or null when there is none. */
  object(id: string): DbObject | null;
  /**
   * Ids of everything located in `location` (a room's or a player's or a thing's contents). A
   * new list whenever one of them is written in any way, enters or leaves: a reader may keep
   * what it worked out from the objects listed while it gets the same list back.
   */
  contents(location: string): readonly string[];
  /** Ids of the objects of one type located in `location` (a room's exits: `"exit"`). */
  contentsOfType(location: string, type: ObjectType): readonly string[];
  /** The id of the player a word names, by name first and then by alias (case-insensitive). */
  playerByWord(word: string): string | null;
  /** Ids of the objects called exactly `name` (case-insensitive). */
  named(name: string): readonly string[];
  /** Ids of the objects `owner` owns (a player owns itself). */
  ownedBy(owner: string): readonly string[];
  /** How many objects `owner` owns (a player owns itself), without listing them. */
  ownedCount(owner: string): number;
  /** Ids of the objects carrying `flag` (case-insensitive; types are flags too). */
  withFlag(flag: string): readonly string[];
  /** How many objects carry `flag` (case-insensitive; types are flags too), without listing them. */
  flagCount(flag: string): number;
  /** Ids of the exits that lead to `dest`. */
  exitsTo(dest: string): readonly string[];
  /**
   * Ids of the objects whose parent is `parent` (`data.parent`, which `@parent` sets). Held in
   * memory only: nothing but softcode and `@parent` ask, and both run while the world is held.
   */
  children(parent: string): readonly string[];
  /** Ids of the objects in the zone of `zone` (`data.zone`, which `@chzone` sets). */
  zoned(zone: string): readonly string[];
  /**
   * Ids of the players and things whose home is `home` (`data.home`, which `@link` sets; MUX's
   * entrances() lists them with the exits that lead there). Held in memory only, as `children`.
   */
  homedAt(home: string): readonly string[];
}

const NONE: readonly string[] = Object.freeze([]);

/** Most tombstones kept (the newest deletes); an older late notice has long been overtaken. */
const MAX_TOMBSTONES = 10_000;

/** Ids listed under buckets, each bucket's list sorted once after it changes. */
class Buckets {
  readonly #sets = new Map<string, Set<string>>();
  readonly #sorted = new Map<string, readonly string[]>();

  add(bucket: string, id: string): void {
    let set = this.#sets.get(bucket);
    if (!set) this.#sets.set(bucket, set = new Set());
    set.add(id);
    this.#sorted.delete(bucket);
  }

  delete(bucket: string, id: string): void {
    const set = this.#sets.get(bucket);
    if (!set?.delete(id)) return;
    if (!set.size) this.#sets.delete(bucket);
    this.#sorted.delete(bucket);
  }

  ids(bucket: string): readonly string[] {
    const held = this.#sorted.get(bucket);
    if (held) return held;
    const set = this.#sets.get(bucket);
    if (!set) return NONE;
    // Deno KV orders keys by their bytes; ids are ASCII, so code-unit order is the same.
    const sorted = Object.freeze([...set].sort());
    this.#sorted.set(bucket, sorted);
    return sorted;
  }

  has(bucket: string, id: string): boolean {
    return this.#sets.get(bucket)?.has(id) ?? false;
  }

  count(bucket: string): number {
    return this.#sets.get(bucket)?.size ?? 0;
  }
}

interface Held {
  obj: DbObject;
  versionstamp: string;
}

/** A record shown before its commit, and how many of its writes are still to settle. */
interface Shown {
  obj: DbObject;
  writes: number;
}

/** What settling the last write shown of an object changed in what readers see. */
export interface Settled {
  before: DbObject;
  /** The committed record now shown, or null when none was committed (a failed create). */
  after: DbObject | null;
}

/** The world in memory: object records by id, the secondary indexes, the player words. */
export class LiveWorld implements WorldReader {
  readonly #objects = new Map<string, Held>();
  readonly #tombstones = new Map<string, string>();
  readonly #shown = new Map<string, Shown>();
  readonly #index: Record<Exclude<IndexKind, "locType">, Buckets> = {
    name: new Buckets(),
    loc: new Buckets(),
    owner: new Buckets(),
    dest: new Buckets(),
    flag: new Buckets(),
  };
  /**
   * The `locType` index, one per type keyed by location: every command asks for the exits of
   * its actor's room, and a key made of both would be a new string to hash each time.
   */
  readonly #ofType = new Map<string, Buckets>(OBJECT_TYPES.map((t) => [t, new Buckets()]));
  readonly #children = new Buckets();
  readonly #zoned = new Buckets();
  readonly #homed = new Buckets();
  readonly #playerNames = new Map<string, string>();
  readonly #playerAliases = new Map<string, string>();
  readonly version: WorldVersion = new WorldVersion();
  readonly ranks: RankMemo = new RankMemo();

  get size(): number {
    return this.#objects.size;
  }

  /** The committed record and its versionstamp (for a write's optimistic check), if any. */
  held(id: string): Readonly<Held> | undefined {
    return this.#objects.get(id);
  }

  /** True while a write of `id` made in memory has not settled. */
  pending(id: string): boolean {
    return this.#shown.has(id);
  }

  /**
   * Shows `obj` at once, over the committed record, until `settle` is called once for this
   * call (the write's commit succeeded or failed). Holds its own frozen copy.
   */
  show(obj: DbObject): DbObject {
    this.version.bump();
    const frozen = deepFreeze(copyOf(obj));
    const before = this.object(obj.id);
    if (before) this.#unindex(before);
    const writes = (this.#shown.get(obj.id)?.writes ?? 0) + 1;
    this.#shown.set(obj.id, { obj: frozen, writes });
    this.#indexObject(frozen);
    return frozen;
  }

  /**
   * One write shown by `show` has settled. After the last, the committed record (as `put`
   * left it: the write's own result on success, the earlier one on failure) is shown again;
   * answers that change, or null while writes remain.
   */
  settle(id: string): Settled | null {
    const shown = this.#shown.get(id);
    if (!shown) return null;
    if (--shown.writes > 0) return null;
    this.version.bump();
    this.#shown.delete(id);
    this.#unindex(shown.obj);
    const committed = this.#objects.get(id)?.obj ?? null;
    if (committed) this.#indexObject(committed);
    return { before: shown.obj, after: committed };
  }

  /** True when `id` was deleted by a write this world saw (its tombstone is still kept). */
  deleted(id: string): boolean {
    return this.#tombstones.has(id);
  }

  /**
   * Records what a committed write or a read found for `obj.id` at `versionstamp`, unless a newer
   * version (or a newer delete) is already held. Holds its own frozen copy.
   */
  put(obj: DbObject, versionstamp: string): void {
    const held = this.#objects.get(obj.id);
    if (held && held.versionstamp >= versionstamp) return;
    const gone = this.#tombstones.get(obj.id);
    if (gone !== undefined && gone >= versionstamp) return;
    this.#tombstones.delete(obj.id);
    this.version.bump();
    const frozen = deepFreeze(copyOf(obj));
    // While a write is shown, the indexes follow what is shown: `settle` moves them.
    const shown = this.#shown.has(obj.id);
    if (held && !shown) this.#unindex(held.obj);
    this.#objects.set(obj.id, { obj: frozen, versionstamp });
    if (!shown) this.#indexObject(frozen);
  }

  /** Records the committed delete of `id` at `versionstamp`, unless a newer version is held. */
  remove(id: string, versionstamp: string): void {
    const held = this.#objects.get(id);
    if (held && held.versionstamp >= versionstamp) return;
    this.version.bump();
    if (held && !this.#shown.has(id)) this.#unindex(held.obj);
    this.#objects.delete(id);
    this.#tombstones.delete(id);
    this.#tombstones.set(id, versionstamp);
    if (this.#tombstones.size > MAX_TOMBSTONES) {
      const oldest = this.#tombstones.keys().next().value;
      if (oldest !== undefined) this.#tombstones.delete(oldest);
    }
  }

  /** Every object shown, in no particular order (for loads that follow the world's). */
  *all(): IterableIterator<DbObject> {
    for (const h of this.#objects.values()) if (!this.#shown.has(h.obj.id)) yield h.obj;
    for (const s of this.#shown.values()) yield s.obj;
  }

  #indexObject(o: DbObject): void {
    for (const m of membershipsOf(o)) this.#bucketsOf(m).add(m.bucket, o.id);
    const parent = parentOf(o);
    if (parent) this.#children.add(parent, o.id);
    const zone = zoneOf(o);
    if (zone) this.#zoned.add(zone, o.id);
    const home = homeLink(o);
    if (home) this.#homed.add(home, o.id);
    const name = playerName(o);
    if (name !== null) this.#playerNames.set(name, o.id);
    for (const a of playerAliases(o)) this.#playerAliases.set(a, o.id);
  }

  /** The index a membership is listed in. */
  #bucketsOf(m: Membership): Buckets {
    return m.kind === "locType" ? this.#ofType.get(m.type ?? "thing")! : this.#index[m.kind];
  }

  #unindex(o: DbObject): void {
    for (const m of membershipsOf(o)) this.#bucketsOf(m).delete(m.bucket, o.id);
    const parent = parentOf(o);
    if (parent) this.#children.delete(parent, o.id);
    const zone = zoneOf(o);
    if (zone) this.#zoned.delete(zone, o.id);
    const home = homeLink(o);
    if (home) this.#homed.delete(home, o.id);
    const name = playerName(o);
    if (name !== null && this.#playerNames.get(name) === o.id) this.#playerNames.delete(name);
    for (const a of playerAliases(o)) {
      if (this.#playerAliases.get(a) === o.id) this.#playerAliases.delete(a);
    }
  }

  object(id: string): DbObject | null {
    // Writes not yet committed are few and brief: most lookups skip that map.
    if (this.#shown.size !== 0) {
      const shown = this.#shown.get(id);
      if (shown) return shown.obj;
    }
    return this.#objects.get(id)?.obj ?? null;
  }

  contents(location: string): readonly string[] {
    return this.#index.loc.ids(location);
  }

  contentsOfType(location: string, type: ObjectType): readonly string[] {
    // A plugin may ask for any word: one that is no type has nothing listed.
    return this.#ofType.get(type)?.ids(location) ?? NONE;
  }

  playerByWord(word: string): string | null {
    const w = word.toLowerCase();
    return this.#playerNames.get(w) ?? this.#playerAliases.get(w) ?? null;
  }

  /** The id of the player called `name` (case-insensitive; aliases apart), or null. */
  playerNamed(name: string): string | null {
    return this.#playerNames.get(name.toLowerCase()) ?? null;
  }

  named(name: string): readonly string[] {
    return this.#index.name.ids(name.toLowerCase());
  }

  ownedBy(owner: string): readonly string[] {
    return this.#index.owner.ids(owner);
  }

  ownedCount(owner: string): number {
    return this.#index.owner.count(owner);
  }

  withFlag(flag: string): readonly string[] {
    return this.#index.flag.ids(flag.toLowerCase());
  }

  flagCount(flag: string): number {
    return this.#index.flag.count(flag.toLowerCase());
  }

  /** True when `id` carries `flag` (case-insensitive), from the flag index. */
  hasFlag(id: string, flag: string): boolean {
    return this.#index.flag.has(flag.toLowerCase(), id);
  }

  exitsTo(dest: string): readonly string[] {
    return this.#index.dest.ids(dest);
  }

  children(parent: string): readonly string[] {
    return this.#children.ids(parent);
  }

  zoned(zone: string): readonly string[] {
    return this.#zoned.ids(zone);
  }

  homedAt(home: string): readonly string[] {
    return this.#homed.ids(home);
  }
}

/** The home a player or thing links to (`data.home`), or "" (rooms and exits have none). */
function homeLink(o: DbObject): string {
  const home = o.data?.home;
  if (typeof home !== "string" || !home) return "";
  return o.flags.includes("player") || o.flags.includes("thing") ? home : "";
}
