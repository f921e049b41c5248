/**
 * The object store: players, rooms, things and exits in Deno KV, with the
 * name, contents, flag, owner and exit-destination indexes kept in the same atomic commits.
 * While the engine is the database's only writer the whole world is also held in memory
 * (src/world/live_world.ts): reads come from there, and `world` answers synchronously.
 *
 * Then a write may also be made in memory first (`createNow`, `updateNow`: softcode's create()
 * and tel(), whose evaluation cannot wait): it is shown at once, listeners are told at once, and
 * its commit follows behind, in order with every other create. A commit that fails is reported,
 * and memory shows the committed record again (a failed create's object is gone), so memory and
 * the database never stay apart. Dbrefs are then handed out from memory, so an object made in
 * memory has its number at once and no create can take it.
 */
import { keys } from "../storage/keys.ts";
import { currentCount, nextCountCommitted } from "../storage/counters.ts";
import { getEntries, listIds, retryAtomic } from "../storage/kv.ts";
import { SerialQueue } from "../serial_queue.ts";
import { checkStorable } from "../storage/limits.ts";
import { isUnreadable } from "../storage/guarded_kv.ts";
import { ConflictError, NotFoundError } from "../errors.ts";
import type { DbObject, NewObject, ObjectChange, ObjectType } from "./types.ts";
import { OBJECT_TYPES } from "./types.ts";
import { membershipsOf, playerAliases, playerName, typeOf } from "./indexes.ts";
import { LiveWorld, type WorldReader } from "./live_world.ts";
import { copyOf } from "./copy.ts";
import { deepFreeze } from "./freeze.ts";

export { playerAliases, typeOf };
export type { WorldReader };

const DBREF_COUNTER = "dbref";

/** Most exits `exitsIn` returns for one room. */
export const MAX_ROOM_EXITS = 200;

/** Entries one list call fetches at a time while the world is read at start. */
const LOAD_BATCH = 1000;

/** The index keys an object occupies (unique player-name index excluded). */
function indexKeys(o: DbObject): Deno.KvKey[] {
  return membershipsOf(o).map((m) => {
    switch (m.kind) {
      case "name":
        return keys.objectByName(m.bucket, o.id);
      case "loc":
        return keys.contents(m.bucket, o.id);
      case "locType":
        return keys.contentsByType(m.bucket, m.type!, o.id);
      case "owner":
        return keys.byOwner(m.bucket, o.id);
      case "dest":
        return keys.exitTo(m.bucket, o.id);
      case "flag":
        return keys.byFlag(m.bucket, o.id);
    }
  });
}

function keyString(k: Deno.KvKey): string {
  return JSON.stringify(k);
}

/** What a record points at whose existence its commit checks, and what a refusal says. */
interface Target {
  id: string;
  /** What did not happen: `moved` (its location), `linked` (a destination or home), `made`. */
  undone: string;
}

/**
 * The objects `after` points at anew (its location, an exit's destination, a home) that
 * `before` (null for a new record) did not: its commit checks that each still exists, so no
 * write lands in or leads into an object whose delete committed first.
 */
function newTargets(before: DbObject | null, after: DbObject): Target[] {
  const out: Target[] = [];
  const add = (to: unknown, was: unknown, undone: string) => {
    if (typeof to !== "string" || to === was || to === after.id || !/^\d+$/.test(to)) return;
    if (!out.some((t) => t.id === to)) out.push({ id: to, undone: before ? undone : "made" });
  };
  add(after.location, before?.location, "moved");
  add(after.data?.destination, before?.data?.destination, "linked");
  add(after.data?.home, before?.data?.home, "linked");
  return out;
}

/** A new object's record under `id` (its type is its first flag). */
function newRecord(input: NewObject, id: string, now: number): DbObject {
  return {
    id,
    name: input.name,
    flags: [...new Set([input.type, ...(input.flags ?? [])].map((f) => f.toLowerCase()))],
    location: input.location ?? "",
    owner: input.owner ?? (input.type === "player" ? id : ""),
    data: structuredClone(input.data ?? {}),
    createdAt: now,
    updatedAt: now,
  };
}

/** `change` applied to a copy of `before`; the id kept, flags lower-cased, checked storable. */
function changed(before: DbObject, change: (obj: DbObject) => void): DbObject {
  const after = structuredClone(before);
  change(after);
  after.id = before.id;
  after.flags = [...new Set(after.flags.map((f) => f.toLowerCase()))];
  after.updatedAt = Date.now();
  checkStorable(after, `#${before.id} after this change`);
  return after;
}

/** Re-exported beside `onChange`, whose listeners receive it. */
export type { ObjectChange };

/** Told of every change this store commits, after the commit (it must not throw or block). */
export type ObjectChangeListener = (change: ObjectChange) => void;

/** Options of an object store. */
export interface ObjectStoreOptions {
  /**
   * Hold the whole world in memory (default false): `load()` reads every object, every write
   * is applied after its commit, reads come from memory and `world` answers synchronously.
   * Only right while this store is the database's only writer: the engine turns it on for a
   * local database and off for a shared KV Connect server (docs/softcode.md).
   */
  live?: boolean;
  /** Where a failed write made in memory is reported (console.error by default). */
  report?: (line: string) => void;
}

/** Attempts a create makes before giving up on taking a dbref (another writer took them). */
const CREATE_ATTEMPTS = 5;

/**
 * How a create is held to its owner's object quota (src/world/building.ts `quotaGate`): whose
 * objects are counted, how far counting needs to go, and the check, which throws to refuse.
 */
export interface OwnedBy {
  owner: string;
  /** Counting stops here (the quota and one: the owning player counts itself). */
  atMost: number;
  /** Throws to refuse, given what `owner` owns with the checked creates still under way. */
  check(owned: number): void;
}

/** Persistent store of game objects. */
export class ObjectStore {
  // Every create takes the same dbref counter; queueing them avoids retry storms.
  readonly #creates = new SerialQueue();
  readonly #listeners = new Set<ObjectChangeListener>();
  readonly #live: LiveWorld | null;
  readonly #report: (line: string) => void;
  // Live: the highest dbref handed out (`load` starts it at the stored counter).
  #lastId = 0;
  // Live: the last write made in memory of each object whose commit has not settled.
  readonly #behind = new Map<string, Promise<void>>();
  // Quota-checked creates run one after another: each counts what the last one made.
  readonly #owned = new SerialQueue();
  // Quota-checked creates passed and not yet committed, per owner (a create in memory counts them).
  readonly #underWay = new Map<string, number>();

  constructor(private readonly kv: Deno.Kv, opts: ObjectStoreOptions = {}) {
    this.#live = opts.live ? new LiveWorld() : null;
    this.#report = opts.report ?? ((line) => console.error(line));
  }

  /**
   * The world in memory, answering synchronously (the softcode evaluator's reads); null when
   * the store is not live (a shared database, or a shell command's store).
   */
  get world(): WorldReader | null {
    return this.#live;
  }

  /** The dbref the next object made here takes, while the store is live (none is reused). */
  nextId(): string {
    return String(this.#lastId + 1);
  }

  /**
   * Reads every object into memory (a live store, once at start, before anything else reads
   * or writes). Unreadable records are skipped and logged by the guarded handle; they read as
   * missing, as they do from the database, until `@repair` rebuilds them. Answers the count.
   */
  async load(): Promise<number> {
    const live = this.#live;
    if (!live) return 0;
    const iter = this.kv.list<DbObject>({ prefix: keys.objects() }, { batchSize: LOAD_BATCH });
    let highest = await currentCount(this.kv, DBREF_COUNTER);
    for await (const e of iter) {
      if (!e.value || typeof e.value !== "object") continue;
      live.put(e.value, e.versionstamp);
      highest = Math.max(highest, Number(e.key[1]) || 0);
    }
    this.#lastId = Math.max(this.#lastId, highest);
    return live.size;
  }

  /**
   * Registers a listener for committed creates, updates and deletes (so in-memory views such
   * as the hub's player cards follow every writer); returns a function that removes it.
   */
  onChange(listener: ObjectChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(
    before: DbObject | null,
    after: DbObject | null,
    versionstamp: string | null = null,
  ): void {
    const id = after?.id ?? before?.id;
    const live = this.#live;
    if (live && id && versionstamp) {
      if (after) live.put(after, versionstamp);
      else live.remove(id, versionstamp);
    }
    // While a write made in memory is shown, listeners (the hub's room index) follow it.
    this.#notify(before, live && id && live.pending(id) ? live.object(id) : after);
  }

  #notify(before: DbObject | null, after: DbObject | null): void {
    for (const listener of this.#listeners) {
      try {
        listener({ before, after });
      } catch (e) {
        // A broken listener must not turn a committed write into a reported failure.
        console.error(`objects: change listener failed: ${(e as Error)?.stack ?? e}`);
      }
    }
  }

  /**
   * Creates an object with the next dbref; player names must be unique
   * (case-insensitive). `extra` may add writes (e.g. credentials) to the same commit. Its
   * location, destination and home must exist when it commits (NotFoundError: nothing made).
   */
  async create(
    input: NewObject,
    extra?: (id: string, op: Deno.AtomicOperation) => void,
  ): Promise<DbObject> {
    if (this.#live) {
      for (let i = 0; i < CREATE_ATTEMPTS; i++) {
        // The number is taken at the create's turn, so one refused in its commit (a name taken
        // meanwhile, its room destroyed) gives it back, and the next create takes it.
        const [obj, stamp] = await this.#creates.run(async () => {
          const obj = this.#newObject(input);
          try {
            return [obj, await this.#commitNew(obj, extra)] as const;
          } catch (e) {
            this.#giveBack(obj.id);
            throw e;
          }
        });
        if (stamp === null) continue; // another writer took the number: take the next
        this.#changed(null, obj, stamp);
        return obj;
      }
      throw new ConflictError("No new dbref could be taken; try again.");
    }
    const [created, stamp] = await this.#creates.run(() => this.#create(input, extra));
    this.#changed(null, created, stamp);
    return created;
  }

  /**
   * Creates an object within its owner's quota: the count, the check and the create are one
   * step, one such create after another, and a create in memory (`createOwnedNow`) counts the
   * one under way. Every creator of owned objects comes here (REST and in-game building,
   * `@clone`, softcode's create()), so no two of them pass the check for the same last place.
   */
  createOwned(input: NewObject, by: OwnedBy): Promise<DbObject> {
    return this.#owned.run(async () => {
      by.check((await this.countOwnedBy(by.owner, by.atMost)) + this.#pendingFor(by.owner));
      this.#underWay.set(by.owner, this.#pendingFor(by.owner) + 1);
      try {
        return await this.create(input);
      } finally {
        const left = this.#pendingFor(by.owner) - 1;
        if (left > 0) this.#underWay.set(by.owner, left);
        else this.#underWay.delete(by.owner);
      }
    });
  }

  /**
   * `createNow` within its owner's quota (live only): what memory shows the owner owning, with
   * the checked creates still committing, is checked at once.
   */
  createOwnedNow(input: NewObject, by: OwnedBy): DbObject {
    const live = this.#mustBeLive();
    by.check(Math.min(live.ownedCount(by.owner), by.atMost) + this.#pendingFor(by.owner));
    return this.createNow(input);
  }

  #pendingFor(owner: string): number {
    return this.#underWay.get(owner) ?? 0;
  }

  /**
   * Creates a room, thing or exit in memory at once (live only): the object is shown, indexed
   * and told to listeners now, and committed behind, in order (see the module comment).
   * Throws ValidationError when the record cannot be stored.
   */
  createNow(input: NewObject): DbObject {
    const live = this.#mustBeLive();
    if (input.type === "player") throw new Error("objects: a player is made with create()");
    const obj = this.#newObject(input);
    const shown = live.show(obj);
    this.#notify(null, shown);
    this.#writeBehind(obj.id, async () => {
      const stamp = await this.#commitNew(obj);
      if (stamp === null) throw new ConflictError(`#${obj.id} was taken by another writer`);
      live.put(obj, stamp);
    });
    return shown;
  }

  /**
   * Changes an object in memory at once (live only), as `update` does; `change` is applied
   * again to the committed record when the write commits behind. Answers the record shown.
   */
  updateNow(id: string, change: (obj: DbObject) => void): DbObject {
    const live = this.#mustBeLive();
    const before = live.object(id);
    if (!before) throw new NotFoundError("No such object.");
    const shown = live.show(changed(before, change));
    this.#notify(before, shown);
    this.#writeBehind(id, async () => {
      const r = await this.#commitUpdate(id, change);
      live.put(r.after, r.stamp);
    });
    return shown;
  }

  #mustBeLive(): LiveWorld {
    if (!this.#live) {
      throw new Error("objects: writes in memory need the world held (the database's only writer)");
    }
    return this.#live;
  }

  /**
   * Queues the commit of a write shown in memory behind every create and earlier write; when it
   * settles, memory shows the committed record again and listeners are told what is shown.
   */
  #writeBehind(id: string, commit: () => Promise<void>): void {
    const live = this.#live!;
    const done = this.#creates.run(commit).then(
      () => {},
      (e) =>
        this.#report(
          `objects: saving a change of #${id} made in memory failed (${
            e instanceof Error ? e.message : String(e)
          }); memory shows what the database holds`,
        ),
    ).then(() => {
      const settled = live.settle(id);
      if (this.#behind.get(id) === done) this.#behind.delete(id);
      if (settled) this.#notify(settled.before, settled.after);
    });
    this.#behind.set(id, done);
  }

  /** Waits until every write made in memory is committed or has failed (before the KV closes). */
  async flush(): Promise<void> {
    while (this.#behind.size) await Promise.all(this.#behind.values());
  }

  /** Waits until no write of `id` made in memory is still to be committed. */
  async #settled(id: string): Promise<void> {
    for (let p = this.#behind.get(id); p; p = this.#behind.get(id)) await p;
  }

  /** A new object record under the next dbref held in memory (live). */
  #newObject(input: NewObject): DbObject {
    const obj = newRecord(input, String(this.#lastId + 1), Date.now());
    checkStorable(obj, `The new ${input.type}`);
    this.#lastId++;
    return obj;
  }

  /**
   * A dbref taken for a create that was refused: the next create takes it again, unless a create
   * in memory took a later one meanwhile (then the number stays unused; none is ever reused).
   */
  #giveBack(id: string): void {
    if (this.#lastId === Number(id)) this.#lastId--;
  }

  /**
   * Commits a new object under its dbref (live): the stored counter moves up to it in the same
   * commit. Answers the versionstamp, or null when another writer took the number already.
   */
  async #commitNew(
    obj: DbObject,
    extra?: (id: string, op: Deno.AtomicOperation) => void,
  ): Promise<string | null> {
    const n = Number(obj.id);
    let fromMemory = true;
    return await retryAtomic(async () => {
      const counter = await this.kv.get<number>(keys.counter(DBREF_COUNTER));
      if ((counter.value ?? 0) >= n) {
        this.#lastId = Math.max(this.#lastId, counter.value ?? 0);
        return { stamp: null };
      }
      const op = this.kv.atomic().check(counter)
        .check({ key: keys.object(obj.id), versionstamp: null })
        .set(keys.counter(DBREF_COUNTER), n)
        .set(keys.object(obj.id), obj);
      // Inside the queue of creates, behind every create made in memory before it: none to wait for.
      await this.#checkTargets(op, null, obj, fromMemory, false);
      fromMemory = false;
      await this.#movePlayerNames(op, obj.id, null, obj);
      for (const k of indexKeys(obj)) op.set(k, obj.id);
      extra?.(obj.id, op);
      const res = await op.commit();
      return res.ok ? { stamp: res.versionstamp as string | null } : null;
    }).then((r) => r.stamp);
  }

  async #create(
    input: NewObject,
    extra?: (id: string, op: Deno.AtomicOperation) => void,
  ): Promise<[DbObject, string]> {
    const now = Date.now();
    let created: DbObject | null = null;
    const { versionstamp } = await nextCountCommitted(this.kv, DBREF_COUNTER, async (n, op) => {
      const id = String(n);
      const obj = newRecord(input, id, now);
      checkStorable(obj, `The new ${input.type}`);
      op.check({ key: keys.object(id), versionstamp: null }).set(keys.object(id), obj);
      await this.#checkTargets(op, null, obj, false, false);
      await this.#movePlayerNames(op, id, null, obj);
      for (const k of indexKeys(obj)) op.set(k, id);
      extra?.(id, op);
      created = obj;
      return true;
    });
    return [created!, versionstamp];
  }

  /** One object by id, or null (a copy the caller may change). */
  async get(id: string): Promise<DbObject | null> {
    const live = this.#live;
    const held = live?.object(id);
    if (held) return copyOf(held);
    if (live?.deleted(id)) return null;
    // Not held: in the database alone only if a shell command wrote it while the engine ran.
    const e = await this.kv.get<DbObject>(keys.object(id));
    if (live && e.value && e.versionstamp) live.put(e.value, e.versionstamp);
    return e.value;
  }

  /** One object by id, or NotFoundError. */
  async mustGet(id: string): Promise<DbObject> {
    const o = await this.get(id);
    if (!o) throw new NotFoundError("No such object.");
    return o;
  }

  /** Several objects by id, in order, skipping missing ones. */
  async getMany(ids: readonly string[]): Promise<DbObject[]> {
    return (await this.getEach(ids)).filter((o): o is DbObject => o !== null);
  }

  /** Several objects by id in one round of reads: one entry per id, null where missing. */
  async getEach(ids: readonly string[]): Promise<(DbObject | null)[]> {
    const live = this.#live;
    if (!live) {
      return (await getEntries<DbObject>(this.kv, ids.map(keys.object))).map((e) => e.value);
    }
    const out = ids.map((id) => {
      const held = live.object(id);
      return held ? copyOf(held) : null;
    });
    // An id held nowhere is in the database only if a shell command wrote it while the engine
    // ran (or it does not exist): read those, and hold what is found.
    const missing = ids.filter((id, i) => out[i] === null && !live.deleted(id));
    if (!missing.length) return out;
    const read = await getEntries<DbObject>(this.kv, missing.map(keys.object));
    const found = new Map<string, DbObject>();
    for (const e of read) {
      if (!e.value || !e.versionstamp) continue;
      live.put(e.value, e.versionstamp);
      found.set(e.value.id, e.value);
    }
    return out.map((o, i) => o ?? found.get(ids[i]) ?? null);
  }

  /** A player by name, case-insensitive. */
  async playerByName(name: string): Promise<DbObject | null> {
    const lower = name.toLowerCase();
    const id = this.#live?.playerNamed(lower);
    if (id) return await this.get(id);
    const e = await this.kv.get<string>(keys.playerByName(lower));
    return e.value ? await this.get(e.value) : null;
  }

  /**
   * The player id each lower-cased word names, by player name or alias (null for none), from
   * the two unique indexes in one batched read. A name wins over an alias: the indexes keep
   * the two apart, so both answer only while a racing write is in flight.
   */
  async playerIdsByWord(words: readonly string[]): Promise<(string | null)[]> {
    const live = this.#live;
    if (live) {
      const held = words.map((w) => live.playerByWord(w));
      // A word held by nobody is looked up in the database too: a player the setup command
      // made while the engine ran is found (and then held), as it always was.
      if (held.every((id) => id !== null)) return held;
      const missing = words.filter((_, i) => held[i] === null);
      const found = await this.#playerIdsFromDb(missing);
      let next = 0;
      return held.map((id) => id ?? found[next++]);
    }
    return await this.#playerIdsFromDb(words);
  }

  async #playerIdsFromDb(words: readonly string[]): Promise<(string | null)[]> {
    const entries = await getEntries<string>(
      this.kv,
      words.flatMap((w) => [keys.playerByName(w), keys.playerByAlias(w)]),
    );
    return words.map((_, i) => entries[2 * i].value ?? entries[2 * i + 1].value);
  }

  /** Ids listed under an index: from memory when live, else from the database. */
  async #ids(
    fromWorld: (w: WorldReader) => readonly string[],
    prefix: Deno.KvKey,
    limit?: number,
  ): Promise<string[]> {
    if (!this.#live) return await listIds(this.kv, prefix, limit);
    const ids = fromWorld(this.#live);
    return ids.slice(0, limit ?? ids.length);
  }

  /** Objects with exactly this name (case-insensitive). */
  async byName(name: string, limit = 50): Promise<DbObject[]> {
    const lower = name.toLowerCase();
    return this.getMany(await this.#ids((w) => w.named(lower), keys.objectsByName(lower), limit));
  }

  /** Everything located in `location`. */
  async contents(location: string, limit?: number): Promise<DbObject[]> {
    return this.getMany(
      await this.#ids((w) => w.contents(location), keys.contentsOf(location), limit),
    );
  }

  /**
   * Everything the database indexes in `location`, read from the database even when live: after
   * a delete, what moved in before it committed (its change may not be held in memory yet).
   */
  async storedContents(location: string, limit: number): Promise<DbObject[]> {
    return this.getMany(await listIds(this.kv, keys.contentsOf(location), limit));
  }

  /**
   * The exits the database indexes as leading to `dest`, read from the database even when live:
   * after a delete, what was linked to it before the delete committed.
   */
  async storedExitsTo(dest: string, limit: number): Promise<DbObject[]> {
    return this.getMany(await listIds(this.kv, keys.exitsTo(dest), limit));
  }

  /** Objects of one type (`exit`, `thing`, `player`, `room`) located in `location`. */
  async contentsOfType(location: string, type: ObjectType, limit?: number): Promise<DbObject[]> {
    return this.getMany(
      await this.#ids(
        (w) => w.contentsOfType(location, type),
        keys.contentsOfType(location, type),
        limit,
      ),
    );
  }

  /**
   * The exits of a room (at most MAX_ROOM_EXITS): every typed word is matched against them.
   * Frozen: callers must not change them (held records, without copies, when live).
   */
  async exitsIn(roomId: string): Promise<readonly DbObject[]> {
    const live = this.#live;
    if (!live) return deepFreeze(await this.contentsOfType(roomId, "exit", MAX_ROOM_EXITS));
    const out: DbObject[] = [];
    for (const id of live.contentsOfType(roomId, "exit")) {
      const o = live.object(id);
      if (o) out.push(o);
      if (out.length >= MAX_ROOM_EXITS) break;
    }
    return out;
  }

  /** Ids of objects carrying `flag`. */
  idsWithFlag(flag: string, limit?: number): Promise<string[]> {
    const f = flag.toLowerCase();
    return this.#ids((w) => w.withFlag(f), keys.withFlag(f), limit);
  }

  /** Which of `ids` carry `flag`, from the flag index alone (true even while unreadable). */
  async flagged(ids: readonly string[], flag: string): Promise<Set<string>> {
    const f = flag.toLowerCase();
    const entries = await getEntries<string>(this.kv, ids.map((id) => keys.byFlag(f, id)));
    return new Set(entries.filter((e) => e.value).map((e) => e.value!));
  }

  /** Exits whose destination is `dest` (from the destination index). */
  async exitsTo(dest: string, limit?: number): Promise<DbObject[]> {
    return this.getMany(await this.#ids((w) => w.exitsTo(dest), keys.exitsTo(dest), limit));
  }

  /** How many objects `owner` owns (a player owns itself), counting at most `atMost`. */
  async countOwnedBy(owner: string, atMost: number): Promise<number> {
    if (this.#live) return Math.min(this.#live.ownedCount(owner), atMost);
    return (await listIds(this.kv, keys.ownedBy(owner), atMost)).length;
  }

  /** Ids of objects owned by `owner`. */
  idsOwnedBy(owner: string, limit?: number): Promise<string[]> {
    return this.#ids((w) => w.ownedBy(owner), keys.ownedBy(owner), limit);
  }

  /**
   * Applies `change` to a fresh copy of the object and commits it with the
   * indexes moved, retrying on concurrent writes. `change` may throw to abort. A move (a new
   * location) or a link (a new destination or home) commits only while what it points at
   * exists: to one deleted meanwhile it throws NotFoundError and changes nothing.
   */
  async update(id: string, change: (obj: DbObject) => void): Promise<DbObject> {
    if (this.#behind.size) await this.#settled(id);
    const r = await this.#commitUpdate(id, change, true);
    this.#changed(r.before, r.after, r.stamp);
    return r.after;
  }

  /**
   * Commits `change` to an object (retried on a concurrent write); tells no listener. A new
   * location's entry is checked in the same commit, so no move lands in an object whose delete
   * committed first (a destroy then finds every move that committed before it: Builder.destroy).
   * `mayWait`: outside the queue of writes behind, a destination made in memory whose create
   * is still to commit is waited for.
   */
  async #commitUpdate(
    id: string,
    change: (obj: DbObject) => void,
    mayWait = false,
  ): Promise<{ before: DbObject; after: DbObject; stamp: string }> {
    let committed: DbObject | null = null;
    let stamp: string | null = null;
    // The first try checks against the versions held in memory, so a move waits for the
    // commit alone; a stale one fails the check and the retry reads the database.
    let fromMemory = true;
    const result = await retryAtomic(async () => {
      const entry = await this.#entry(id, fromMemory);
      if (!entry.value) throw new NotFoundError("No such object.");
      const before = entry.value;
      const after = changed(before, change);
      const op = this.kv.atomic().check(entry).set(keys.object(id), after);
      await this.#checkTargets(op, before, after, fromMemory, mayWait);
      fromMemory = false;
      const oldKeys = new Map(indexKeys(before).map((k) => [keyString(k), k]));
      const newKeys = new Map(indexKeys(after).map((k) => [keyString(k), k]));
      for (const [s, k] of oldKeys) if (!newKeys.has(s)) op.delete(k);
      for (const [s, k] of newKeys) if (!oldKeys.has(s)) op.set(k, id);
      await this.#movePlayerNames(op, id, before, after);
      const res = await op.commit();
      if (res.ok) [committed, stamp] = [before, res.versionstamp];
      return res.ok ? after : null;
    });
    // Assigned inside the retried closure, which control-flow analysis does not follow.
    return { before: committed!, after: result, stamp: stamp! };
  }

  /**
   * An object's entry: its committed version held in memory when `fromMemory` and live (no
   * read), else read from the database (null value when there is none).
   */
  async #entry(id: string, fromMemory: boolean): Promise<Deno.KvEntryMaybe<DbObject>> {
    const held = fromMemory ? this.#live?.held(id) : undefined;
    if (held) {
      return {
        key: keys.object(id),
        value: structuredClone(held.obj),
        versionstamp: held.versionstamp,
      };
    }
    return await this.kv.get<DbObject>(keys.object(id));
  }

  /**
   * Adds to `op` a check of each object `after` points at anew (newTargets: a location, a
   * destination, a home; `before` null for a new record), so the write commits only while each
   * exists. Throws NotFoundError, naming it, for one that does not.
   */
  async #checkTargets(
    op: Deno.AtomicOperation,
    before: DbObject | null,
    after: DbObject,
    fromMemory: boolean,
    mayWait: boolean,
  ): Promise<void> {
    for (const t of newTargets(before, after)) {
      op.check({ key: keys.object(t.id), versionstamp: await this.#there(t, fromMemory, mayWait) });
    }
  }

  /**
   * The versionstamp of an object a write points at (held in memory when `fromMemory`, else
   * read), which the write's commit checks. Throws NotFoundError when it does not exist; with
   * `mayWait`, one made in memory whose create is still to commit is waited for first.
   */
  async #there(t: Target, fromMemory: boolean, mayWait: boolean): Promise<string> {
    const id = t.id;
    const held = fromMemory ? this.#live?.held(id) : undefined;
    if (held) return held.versionstamp;
    let e = await this.kv.get<DbObject>(keys.object(id));
    if (!e.versionstamp && mayWait && this.#behind.has(id)) {
      await this.#settled(id);
      e = await this.kv.get<DbObject>(keys.object(id));
    }
    if (!e.versionstamp) throw new NotFoundError(`#${id} no longer exists; nothing ${t.undone}.`);
    return e.versionstamp;
  }

  /** Deletes an object and its indexes (contents are not moved; callers decide). */
  async delete(id: string): Promise<void> {
    if (this.#behind.size) await this.#settled(id);
    let deleted: DbObject | null = null;
    let stamp: string | null = null;
    await retryAtomic(async () => {
      const entry = await this.kv.get<DbObject>(keys.object(id));
      if (!entry.value) return true;
      const o = entry.value;
      const op = this.kv.atomic().check(entry).delete(keys.object(id));
      for (const k of indexKeys(o)) op.delete(k);
      await this.#movePlayerNames(op, id, o, null);
      op.delete(keys.credentials(id));
      const res = await op.commit();
      if (!res.ok) return null;
      [deleted, stamp] = [o, res.versionstamp];
      return true;
    });
    // Assigned inside the retried closure, which control-flow analysis does not follow.
    const gone = deleted as DbObject | null;
    if (gone) this.#changed(gone, null, stamp);
  }

  /**
   * Moves a player's entries in the unique name and alias indexes from `before` to `after`
   * (null for a create or a delete) inside `op`. A word claimed anew must be free in both
   * indexes (or already this player's): one word is one player, by name or alias. The
   * claimed entries are checked, so a racing claim fails the commit and is retried.
   */
  async #movePlayerNames(
    op: Deno.AtomicOperation,
    id: string,
    before: DbObject | null,
    after: DbObject | null,
  ): Promise<void> {
    const [oldName, newName] = [playerName(before), playerName(after)];
    const [oldAliases, newAliases] = [playerAliases(before), playerAliases(after)];
    if (oldName !== null && oldName !== newName) op.delete(keys.playerByName(oldName));
    for (const a of oldAliases) if (!newAliases.includes(a)) op.delete(keys.playerByAlias(a));
    const claims: { word: string; key: Deno.KvKey; taken: string }[] = [];
    if (newName !== null && newName !== oldName) {
      claims.push({
        word: newName,
        key: keys.playerByName(newName),
        taken: "That name is already taken.",
      });
    }
    for (const a of newAliases) {
      if (oldAliases.includes(a)) continue;
      claims.push({
        word: a,
        key: keys.playerByAlias(a),
        taken: `The alias '${a}' is already taken.`,
      });
    }
    if (!claims.length) return;
    const words = claims.flatMap((c) => [keys.playerByName(c.word), keys.playerByAlias(c.word)]);
    const entries = await getEntries<string>(this.kv, words);
    for (const [i, c] of claims.entries()) {
      for (const e of entries.slice(2 * i, 2 * i + 2)) {
        if (e.value !== null && e.value !== id) throw new ConflictError(c.taken);
        op.check(e);
      }
      op.set(c.key, id);
    }
  }

  /**
   * Rebuilds an object whose stored value cannot be read back (src/storage/limits.ts says
   * how one could have been written). Its indexes still name it, so they give back what
   * can be known: lower-cased name, flags, location, owner, an exit's destination and a
   * player's aliases; the rest of its data is lost. Scans every index collection (a staff action, not a hot path). Answers
   * null when the object reads fine; throws NotFoundError when there is no such object.
   */
  async repair(id: string): Promise<DbObject | null> {
    // The database itself, not memory: what is unreadable there is what needs repair.
    if ((await this.kv.get<DbObject>(keys.object(id))).value) return null;
    if (!(await isUnreadable(this.kv, keys.object(id)))) {
      throw new NotFoundError("No such object.");
    }
    const found = await this.#fromIndexes(id);
    const now = Date.now();
    const flags = found.flags.size ? [...found.flags] : ["thing"];
    if (!OBJECT_TYPES.some((t) => flags.includes(t))) flags.unshift("thing");
    const obj: DbObject = {
      id,
      name: found.playerName ?? found.name ?? `Repaired ${id}`,
      flags,
      location: found.location,
      owner: found.owner,
      data: {
        ...(found.destination ? { destination: found.destination } : {}),
        ...(found.aliases.length ? { aliases: found.aliases } : {}),
      },
      createdAt: now,
      updatedAt: now,
    };
    const op = this.kv.atomic().set(keys.object(id), obj);
    for (const k of indexKeys(obj)) op.set(k, id);
    if (obj.flags.includes("player")) op.set(keys.playerByName(obj.name.toLowerCase()), id);
    for (const a of playerAliases(obj)) op.set(keys.playerByAlias(a), id);
    const res = await op.commit();
    if (!res.ok) throw new ConflictError("The object changed; try again.");
    this.#changed(null, obj, res.versionstamp);
    return obj;
  }

  async #fromIndexes(id: string) {
    const found = {
      name: null as string | null,
      playerName: null as string | null,
      flags: new Set<string>(),
      location: "",
      owner: "",
      destination: "",
      aliases: [] as string[],
    };
    const scan = async (prefix: Deno.KvKey, take: (key: Deno.KvKey) => void) => {
      for await (const e of this.kv.list({ prefix })) {
        if (e.key[e.key.length - 1] === id) take(e.key);
      }
    };
    await scan(keys.indexCollection("name"), (k) => found.name = String(k[1]));
    await scan(keys.indexCollection("flag"), (k) => found.flags.add(String(k[1])));
    await scan(keys.indexCollection("loc"), (k) => found.location = String(k[1]));
    await scan(keys.indexCollection("owner"), (k) => found.owner = String(k[1]));
    await scan(keys.indexCollection("dest"), (k) => found.destination = String(k[1]));
    for await (const e of this.kv.list<string>({ prefix: keys.indexCollection("player") })) {
      if (e.value === id) found.playerName = String(e.key[1]);
    }
    for await (const e of this.kv.list<string>({ prefix: keys.indexCollection("alias") })) {
      if (e.value === id) found.aliases.push(String(e.key[1]));
    }
    return found;
  }
}
