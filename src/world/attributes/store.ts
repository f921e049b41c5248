/**
 * The attribute store: named attributes of objects, each its own Deno KV entry
 * (`keys.attribute(object, name)`), never inside the object record. docs/softcode.md describes it.
 *
 * While the engine is the database's only writer the store is live: every attribute is read
 * into memory at start (after the objects), reads are synchronous, and a write changes memory
 * at once and is persisted behind it, in order, by one writer that batches what queued while
 * the previous commit ran. KV stays the source of truth: a commit that fails is reported, and
 * every attribute it touched is read back from KV into memory (unless a later write of the same
 * attribute is still queued), so memory and the database never stay apart. That is the path
 * softcode's `set()` takes, since the evaluator cannot wait.
 *
 * On a shared database (a KV Connect server other engines write) the store is not live: each
 * call reads and writes KV (one entry for one attribute) with optimistic checks, and the
 * synchronous methods are unavailable (`live` is false).
 *
 * Each owner's attribute bytes are a counter (`keys.attributeBytes`), summed in the same commit
 * as the write, so a quota check never scans. Well-known names kept in object fields (DESC,
 * ALIAS, MONIKER: src/world/attributes/fields.ts) read and write those fields.
 */
import { keys } from "../../storage/keys.ts";
import { getEntries, retryAtomic } from "../../storage/kv.ts";
import { isUnreadable } from "../../storage/guarded_kv.ts";
import { EngineError, ForbiddenError, NotFoundError, ValidationError } from "../../errors.ts";
import type { DbObject, ObjectChange } from "../types.ts";
import type { ObjectStore } from "../objects.ts";
import { controls, type ControlWorld } from "../control.ts";
import { isStaff } from "../flags.ts";
import { type AttrFlag, canonicalFlags } from "./flags.ts";
import {
  attrBytes,
  attrPattern,
  attrValueProblem,
  BAD_NAME,
  canonicalAttrName,
  MAX_DESCRIPTION,
} from "./names.ts";
import {
  type AttrActor,
  attrFlagRefusal,
  attrOwnerOf,
  attrWriteRefusal,
  canSeeAttr,
} from "./access.ts";
import { FIELD_ATTRIBUTES, FieldReader } from "./fields.ts";
import type { Attribute, Refusal, StoredAttribute, WriteResult } from "./types.ts";

/** Options of an attribute store. */
export interface AttributeStoreOptions {
  /** Hold every attribute in memory (only while the engine is the database's only writer). */
  live: boolean;
  /** Bytes of attributes one (non-staff) owner may hold; 0 for no limit. */
  quotaBytes: number;
  /** Where a failed background write is reported (console.error by default). */
  report?: (line: string) => void;
  /**
   * The world control is decided in (src/world/control.ts): the engine's lock world, built after
   * this store (it reads attributes), so asked at each check; absent or null: none.
   */
  controlWorld?: () => ControlWorld | null;
}

/**
 * What softcode reads and writes of attributes, synchronously, against the world in memory.
 * Names are matched case-insensitively; values are never empty (setting "" clears).
 */
export interface LiveAttributes {
  /** An object's attribute (well-known field ones too), frozen, or null; no permission check. */
  peek(objectId: string, name: string): Attribute | null;
  /** The names of an object's attributes, sorted, field ones included. No permission check. */
  names(objectId: string): readonly string[];
  /**
   * Sets attribute `name` of `objectId` to `value` for `actor` (empty clears it) under the
   * permission rules, the name and value limits and the owner's quota: null when done (in
   * memory now, persisted behind, in order), else the refusal, and nothing changed.
   */
  setNow(actor: AttrActor, objectId: string, name: string, value: string): WriteResult;
  /**
   * `@wipe` now: clears every attribute of `obj` that `actor` may see and the wildcard `pattern`
   * matches, each under `setNow`'s rules; the names cleared and those refused, with why, or the
   * refusal of the whole (`actor` must control `obj`).
   */
  wipeNow(actor: AttrActor, obj: DbObject, pattern: string): Cleared | Refusal;
  /** Sets (`on`) or clears an attribute flag for `actor`, as `setNow`. */
  setFlagNow(
    actor: AttrActor,
    objectId: string,
    name: string,
    flag: AttrFlag,
    on: boolean,
  ): WriteResult;
}

/** What clearing several attributes did: the names cleared, and those refused with why. */
export interface Cleared {
  cleared: string[];
  refused: { name: string; refusal: Refusal }[];
}

/** Where a refusal goes as an HTTP error (commands show its message). */
export function refusalError(r: Refusal): EngineError {
  switch (r.kind) {
    case "permission":
      return new ForbiddenError(r.message);
    case "not_found":
      return new NotFoundError(r.message);
    default:
      return new ValidationError(r.message);
  }
}

/** Thrown by the async API for a refusal: carries it, so callers can tell kinds apart. */
export function throwRefusal(r: Refusal): never {
  throw refusalError(r);
}

/** Most writes one background commit carries. */
const MAX_BATCH_WRITES = 200;
/** Most value characters one background commit carries (KV takes 800 KiB per commit). */
const MAX_BATCH_CHARS = 200_000;
/** Entries one list call fetches while the attributes are read at start. */
const LOAD_BATCH = 1000;
/** Attributes deleted per commit when an object is destroyed on a shared database. */
const DELETE_BATCH = 100;

const NO_FLAGS: readonly AttrFlag[] = Object.freeze([]);
const NO_NAMES: readonly string[] = Object.freeze([]);

/** What to sum into a KvU64 counter to add `n`, which may be negative: KV's sum wraps at 2^64. */
function u64(n: number): bigint {
  const b = BigInt(n);
  return b >= 0n ? b : (1n << 64n) + b;
}

/** One queued write of a live store. */
interface Pending {
  key: Deno.KvKey;
  /** Null deletes the entry. */
  value: StoredAttribute | null;
  /** Bytes moved per owner (negative: freed). */
  deltas: [string, number][];
  objectId: string;
  name: string;
  /** Everyone waiting for this write, and for the older ones of the attribute it replaced. */
  waiters: { resolve(): void; reject(e: unknown): void }[];
}

/** What a planned write does: the attribute after it (null: gone) and the bytes it moves. */
interface Plan {
  next: Attribute | null;
  deltas: [string, number][];
}

/** Attributes of objects; see the module comment. */
export class AttributeStore implements LiveAttributes {
  readonly #kv: Deno.Kv;
  readonly #objects: ObjectStore;
  readonly #live: boolean;
  readonly #quota: number;
  readonly #report: (line: string) => void;
  readonly #fields = new FieldReader();
  readonly #unsubscribe: () => void;
  // Live memory: object id → name → attribute; sorted names per object, made when asked.
  readonly #attrs = new Map<string, Map<string, Attribute>>();
  readonly #sorted = new Map<string, readonly string[]>();
  readonly #bytes = new Map<string, number>();
  // Names and owners repeat across thousands of objects: one string each.
  readonly #strings = new Map<string, string>();
  readonly #flagSets = new Map<string, readonly AttrFlag[]>();
  // The background writer.
  readonly #queue: Pending[] = [];
  readonly #queuedKeys = new Map<string, number>();
  // The queued write of each attribute (by keyText) that no commit has taken yet.
  readonly #unsent = new Map<string, Pending>();
  #writing = false;
  #idle: Promise<void> = Promise.resolve();
  /** Told of every change of an attribute held in memory (the softcode program index). */
  readonly #watchers = new Set<(objectId: string, name: string) => void>();
  /** Asked before each write a caller made is applied in memory (MUX's could_hear). */
  readonly #around = new Set<(objectId: string, name: string) => (() => void) | null>();
  readonly #control: () => ControlWorld | null;

  constructor(kv: Deno.Kv, objects: ObjectStore, opts: AttributeStoreOptions) {
    this.#kv = kv;
    this.#objects = objects;
    this.#live = opts.live;
    if (opts.live && !objects.world) throw new Error("a live attribute store needs a live world");
    this.#quota = opts.quotaBytes > 0 ? opts.quotaBytes : Infinity;
    this.#report = opts.report ?? ((line) => console.error(line));
    this.#control = opts.controlWorld ?? (() => null);
    // Destroyed objects lose their attributes; a chowned one's unlocked attributes follow it.
    this.#unsubscribe = objects.onChange((c) => this.#objectChanged(c));
  }

  /** True when attributes are held in memory and the synchronous methods work. */
  get live(): boolean {
    return this.#live;
  }

  /** The quota of one owner, in bytes (Infinity: none). */
  get quotaBytes(): number {
    return this.#quota;
  }

  // ---- Start and stop ------------------------------------------------------------------------

  /**
   * Reads every attribute into memory (a live store, once at start, after the objects). An
   * attribute of an object that no longer exists (its delete was cut short) is removed; one of
   * an object whose record is unreadable is kept for `@repair`. Each owner's byte counter is set
   * to what was read where it differs. Answers what was loaded.
   */
  async load(): Promise<{ attributes: number; removed: number }> {
    if (!this.#live) return { attributes: 0, removed: 0 };
    const world = this.#objects.world!;
    const orphans: Deno.KvKey[] = [];
    const unreadable = new Map<string, boolean>();
    let count = 0;
    const iter = this.#kv.list<StoredAttribute>({ prefix: keys.attributes() }, {
      batchSize: LOAD_BATCH,
    });
    for await (const e of iter) {
      const [, objectId, name] = e.key;
      if (typeof objectId !== "string" || typeof name !== "string") continue;
      const attr = FIELD_ATTRIBUTES.has(name) ? null : this.#fromStored(name, e.value);
      if (!attr) {
        this.#report(`attributes: ${objectId}/${name} has an unexpected shape; left alone`);
        continue;
      }
      if (!world.object(objectId)) {
        let bad = unreadable.get(objectId);
        if (bad === undefined) {
          bad = await isUnreadable(this.#kv, keys.object(objectId));
          unreadable.set(objectId, bad);
        }
        if (!bad) {
          orphans.push(e.key);
          continue;
        }
      }
      this.#hold(objectId, attr);
      this.#count(attr.owner, attrBytes(attr.name, attr.value));
      count++;
    }
    for (let i = 0; i < orphans.length; i += DELETE_BATCH) {
      const op = this.#kv.atomic();
      for (const k of orphans.slice(i, i + DELETE_BATCH)) op.delete(k);
      await op.commit();
    }
    if (orphans.length) {
      this.#report(`attributes: removed ${orphans.length} of objects that no longer exist`);
    }
    await this.#syncCounters();
    return { attributes: count, removed: orphans.length };
  }

  /** Sets every stored byte counter that differs from memory's (after a load). */
  async #syncCounters(): Promise<void> {
    const stored = new Map<string, bigint>();
    for await (const e of this.#kv.list<Deno.KvU64>({ prefix: keys.attributeBytesAll() })) {
      const owner = e.key[1];
      if (typeof owner === "string" && e.value instanceof Deno.KvU64) {
        stored.set(owner, e.value.value);
      }
    }
    const fixes: [Deno.KvKey, Deno.KvU64 | null][] = [];
    for (const [owner, n] of this.#bytes) {
      if (stored.get(owner) !== BigInt(n)) {
        fixes.push([keys.attributeBytes(owner), new Deno.KvU64(BigInt(n))]);
      }
      stored.delete(owner);
    }
    for (const owner of stored.keys()) fixes.push([keys.attributeBytes(owner), null]);
    for (let i = 0; i < fixes.length; i += DELETE_BATCH) {
      const op = this.#kv.atomic();
      for (const [k, v] of fixes.slice(i, i + DELETE_BATCH)) v ? op.set(k, v) : op.delete(k);
      await op.commit();
    }
  }

  /** Waits until every queued write is committed (or has failed and been reconciled). */
  async flush(): Promise<void> {
    while (this.#writing) await this.#idle;
  }

  /** Stops following the object store and waits for queued writes (before the KV closes). */
  async close(): Promise<void> {
    this.#unsubscribe();
    await this.flush();
  }

  /**
   * Calls `fn` after each change of an attribute held in memory (set, cleared, flagged, set back
   * after a failed commit, removed with its object), with the object and the attribute's name.
   * Synchronous and cheap: `fn` must not write attributes. Answers the unsubscribe.
   */
  watch(fn: (objectId: string, name: string) => void): () => void {
    this.#watchers.add(fn);
    return () => this.#watchers.delete(fn);
  }

  /**
   * Calls `fn` before each write of one attribute that a caller asked for (a set, a clear, a
   * flag; each attribute of a wipe on its own) is applied in memory; what it answers is called
   * once the write is applied, as MUX asks Hearer() before and after an attribute is set.
   * Synchronous; what runs after may write attributes (it is not inside the change). Answers the
   * unsubscribe.
   */
  aroundWrite(fn: (objectId: string, name: string) => (() => void) | null): () => void {
    this.#around.add(fn);
    return () => this.#around.delete(fn);
  }

  #changed(objectId: string, name: string): void {
    for (const fn of this.#watchers) {
      try {
        fn(objectId, name);
      } catch (e) {
        this.#report(`attributes: a watcher failed: ${errorText(e)}`);
      }
    }
  }

  // ---- Synchronous reads (live) --------------------------------------------------------------

  #mustBeLive(): void {
    if (!this.#live) {
      throw new Error(
        "attributes: synchronous access needs the world in memory (a database this engine alone writes)",
      );
    }
  }

  peek(objectId: string, name: string): Attribute | null {
    this.#mustBeLive();
    const held = this.#attrs.get(objectId);
    const found = held?.get(name);
    if (found) return found;
    // Callers mostly give the canonical upper-case name already.
    const upper = hasLowerCase(name) ? name.toUpperCase() : name;
    if (FIELD_ATTRIBUTES.has(upper)) {
      const o = this.#objects.world!.object(objectId);
      return o ? this.#fields.read(o, upper) : null;
    }
    return (upper !== name ? held?.get(upper) : undefined) ?? null;
  }

  /** Ids of the objects that hold stored attributes (live), in no particular order. */
  holders(): IterableIterator<string> {
    this.#mustBeLive();
    return this.#attrs.keys();
  }

  names(objectId: string): readonly string[] {
    this.#mustBeLive();
    const stored = this.#sortedNames(objectId);
    const o = this.#objects.world!.object(objectId);
    const fields = o ? this.#fields.names(o) : [];
    if (!fields.length) return stored;
    return Object.freeze([...stored, ...fields].sort());
  }

  #sortedNames(objectId: string): readonly string[] {
    const cached = this.#sorted.get(objectId);
    if (cached) return cached;
    const held = this.#attrs.get(objectId);
    if (!held) return NO_NAMES;
    const sorted = Object.freeze([...held.keys()].sort());
    this.#sorted.set(objectId, sorted);
    return sorted;
  }

  /** Bytes of attributes `owner` holds (live: from memory; else the stored counter). */
  async bytesOf(owner: string): Promise<number> {
    if (this.#live) return this.#bytes.get(owner) ?? 0;
    const e = await this.#kv.get<Deno.KvU64>(keys.attributeBytes(owner));
    return e.value instanceof Deno.KvU64 ? Number(e.value.value) : 0;
  }

  // ---- Synchronous writes (live) -------------------------------------------------------------

  setNow(actor: AttrActor, objectId: string, name: string, value: string): WriteResult {
    const r = this.#setLive(actor, objectId, name, value);
    if ("kind" in r) return r;
    r.durable.catch(() => {}); // reported by the writer
    return null;
  }

  setFlagNow(
    actor: AttrActor,
    objectId: string,
    name: string,
    flag: AttrFlag,
    on: boolean,
  ): WriteResult {
    const r = this.#setFlagLive(actor, objectId, name, flag, on);
    if ("kind" in r) return r;
    r.durable.catch(() => {});
    return null;
  }

  #setLive(
    actor: AttrActor,
    objectId: string,
    rawName: string,
    value: string,
  ): Refusal | { attr: Attribute | null; durable: Promise<void> } {
    this.#mustBeLive();
    const obj = this.#objects.world!.object(objectId);
    if (!obj) return { kind: "not_found", message: "No such object." };
    const name = canonicalAttrName(rawName);
    if (!name) return { kind: "invalid", message: BAD_NAME };
    if (FIELD_ATTRIBUTES.has(name)) return this.#setField(actor, obj, name, value);
    const existing = this.#attrs.get(objectId)?.get(name) ?? null;
    const owner = attrOwnerOf(actor);
    const plan = planWrite(actor, obj, existing, name, value, {
      bytes: this.#bytes.get(owner) ?? 0,
      quota: this.#quotaFor(this.#objects.world!.object(owner)),
      ownerName: this.#ownerName(owner),
    }, this.#control());
    if ("kind" in plan) return plan;
    return { attr: plan.next, durable: this.#commitLive(objectId, name, existing, plan) };
  }

  #setFlagLive(
    actor: AttrActor,
    objectId: string,
    rawName: string,
    flag: AttrFlag,
    on: boolean,
  ): Refusal | { attr: Attribute | null; durable: Promise<void> } {
    this.#mustBeLive();
    const obj = this.#objects.world!.object(objectId);
    if (!obj) return { kind: "not_found", message: "No such object." };
    const name = canonicalAttrName(rawName);
    if (!name) return { kind: "invalid", message: BAD_NAME };
    if (FIELD_ATTRIBUTES.has(name)) return FIXED_FLAGS(name);
    const existing = this.#attrs.get(objectId)?.get(name) ?? null;
    const plan = planFlag(actor, obj, existing, name, flag, on, this.#control());
    if ("kind" in plan) return plan;
    return { attr: plan.next, durable: this.#commitLive(objectId, name, existing, plan) };
  }

  /** Applies a planned write to memory now and queues its commit. */
  #commitLive(
    objectId: string,
    name: string,
    existing: Attribute | null,
    plan: Plan,
  ): Promise<void> {
    const next = plan.next ? this.#interned(plan.next) : null;
    let after: (() => void)[] | null = null;
    for (const fn of this.#around) {
      const then = this.#guarded(() => fn(objectId, name));
      if (then) (after ??= []).push(then);
    }
    if (existing) this.#unhold(objectId, name);
    if (next) this.#hold(objectId, next);
    for (const [owner, d] of plan.deltas) this.#count(owner, d);
    const durable = !existing && !next
      ? Promise.resolve()
      : this.#enqueue(objectId, name, next, plan.deltas);
    if (after) { for (const then of after) this.#guarded(then); }
    return durable;
  }

  /** What `fn` answers, or null when it throws (reported: a write never fails for a watcher). */
  #guarded<T>(fn: () => T): T | null {
    try {
      return fn();
    } catch (e) {
      this.#report(`attributes: a watcher failed: ${errorText(e)}`);
      return null;
    }
  }

  #setField(
    actor: AttrActor,
    obj: DbObject,
    name: string,
    value: string,
  ): Refusal | { attr: Attribute | null; durable: Promise<void> } {
    const refusal = fieldWriteRefusal(actor, obj, name, value, this.#control());
    if (refusal) return refusal;
    const durable = this.#writeField(obj.id, name, value).catch((e) => {
      this.#report(`attributes: writing ${name} of #${obj.id} failed: ${errorText(e)}`);
      throw e;
    });
    return { attr: fieldAttribute(obj, name, value), durable };
  }

  async #writeField(objectId: string, name: string, value: string): Promise<void> {
    await this.#objects.update(objectId, (o) => {
      if (name === "DESC") {
        if (value) o.data.description = value;
        else delete o.data.description;
      }
    });
  }

  // ---- The async API (live or shared) --------------------------------------------------------

  /** An object's attribute (any case), or null. No permission check. */
  async get(objectId: string, name: string): Promise<Attribute | null> {
    const canonical = canonicalAttrName(name);
    if (!canonical) return null;
    if (this.#live) return this.peek(objectId, canonical);
    if (FIELD_ATTRIBUTES.has(canonical)) {
      const o = await this.#objects.get(objectId);
      return o ? this.#fields.read(o, canonical) : null;
    }
    const e = await this.#kv.get<StoredAttribute>(keys.attribute(objectId, canonical));
    return this.#fromStored(canonical, e.value);
  }

  /**
   * An object's attributes in name order (field ones included), those matching the wildcard
   * `pattern` when one is given. No permission check: callers filter with `canSeeAttr`.
   */
  async list(objectId: string, pattern?: string): Promise<Attribute[]> {
    const match = pattern === undefined ? null : attrPattern(pattern);
    if (pattern !== undefined && !match) return [];
    const out: Attribute[] = [];
    if (this.#live) {
      for (const n of this.names(objectId)) {
        if (match && !match(n)) continue;
        const a = this.peek(objectId, n);
        if (a) out.push(a);
      }
      return out;
    }
    const o = await this.#objects.get(objectId);
    if (o) { for (const n of this.#fields.names(o)) out.push(this.#fields.read(o, n)!); }
    for await (const e of this.#kv.list<StoredAttribute>({ prefix: keys.attributesOf(objectId) })) {
      const n = e.key[2];
      if (typeof n !== "string" || FIELD_ATTRIBUTES.has(n)) continue;
      const a = this.#fromStored(n, e.value);
      if (a) out.push(a);
    }
    out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return match ? out.filter((a) => match(a.name)) : out;
  }

  /**
   * The attributes of `objectId` that `actor` may see, in name order, matching `pattern` when
   * given (the listing of `examine`, the REST list and a script's reads).
   */
  async visible(actor: AttrActor, obj: DbObject, pattern?: string): Promise<Attribute[]> {
    const world = this.#control();
    return (await this.list(obj.id, pattern)).filter((a) => canSeeAttr(actor, obj, a, world));
  }

  /**
   * Sets (or with "" clears) an attribute for `actor`, under the same rules as `setNow`, and
   * waits until it is stored. Throws the refusal as a typed error (ValidationError, ForbiddenError,
   * NotFoundError). Answers the attribute after the write (null: cleared).
   */
  async set(
    actor: AttrActor,
    objectId: string,
    name: string,
    value: string,
  ): Promise<Attribute | null> {
    if (this.#live) {
      const r = this.#setLive(actor, objectId, name, value);
      if ("kind" in r) throwRefusal(r);
      await r.durable;
      return r.attr;
    }
    const { obj, name: canonical } = await this.#target(objectId, name);
    if (FIELD_ATTRIBUTES.has(canonical)) {
      const refusal = fieldWriteRefusal(actor, obj, canonical, value, this.#control());
      if (refusal) throwRefusal(refusal);
      await this.#writeField(obj.id, canonical, value);
      return fieldAttribute(obj, canonical, value);
    }
    return await this.#writeShared(
      actor,
      obj,
      canonical,
      (existing, ctx) => planWrite(actor, obj, existing, canonical, value, ctx, this.#control()),
    );
  }

  /**
   * Clears several attributes of one object for `actor`, each under the rules; waits until
   * stored. Answers the names cleared and those refused, with why.
   */
  async clearMany(
    actor: AttrActor,
    objectId: string,
    names: readonly string[],
  ): Promise<Cleared> {
    if (this.#live) {
      // All at once: the writer commits them in a few batches.
      const r = this.#clearLive(actor, objectId, names);
      await Promise.all(r.durable);
      return { cleared: r.cleared, refused: r.refused };
    }
    const cleared: string[] = [];
    const refused: { name: string; refusal: Refusal }[] = [];
    for (const name of names) {
      try {
        await this.set(actor, objectId, name, "");
        cleared.push(name);
      } catch (e) {
        if (!(e instanceof EngineError)) throw e;
        refused.push({ name, refusal: { kind: "invalid", message: e.message } });
      }
    }
    return { cleared, refused };
  }

  /**
   * `@wipe`: clears every attribute of `obj` that `actor` may see and that matches the wildcard
   * `pattern`, each under the rules; waits until stored. Answers the names cleared and those
   * refused, with why (none of either: nothing matched).
   */
  async wipe(actor: AttrActor, obj: DbObject, pattern: string): Promise<Cleared | Refusal> {
    const refused = this.#wipeRefusal(actor, obj, pattern);
    if (refused) return refused;
    if (this.#live) {
      const r = this.#clearLive(actor, obj.id, this.#visibleLive(actor, obj, pattern));
      await Promise.all(r.durable);
      return { cleared: r.cleared, refused: r.refused };
    }
    const names = (await this.visible(actor, obj, pattern)).map((a) => a.name);
    return await this.clearMany(actor, obj.id, names);
  }

  /** `wipe` from memory at once, for softcode's `wipe()`: the writes persist behind, in order. */
  wipeNow(actor: AttrActor, obj: DbObject, pattern: string): Cleared | Refusal {
    this.#mustBeLive();
    const refused = this.#wipeRefusal(actor, obj, pattern);
    if (refused) return refused;
    const r = this.#clearLive(actor, obj.id, this.#visibleLive(actor, obj, pattern));
    for (const d of r.durable) d.catch(() => {}); // reported by the writer
    return { cleared: r.cleared, refused: r.refused };
  }

  /** Why `actor` may not wipe `obj` at all (it must control it, as MUX's @wipe), or null. */
  #wipeRefusal(actor: AttrActor, obj: DbObject, pattern: string): Refusal | null {
    if (!attrPattern(pattern)) return { kind: "invalid", message: "That pattern is too long." };
    if (!controls(actor, obj, this.#control())) {
      return { kind: "permission", message: "Permission denied." };
    }
    return null;
  }

  /** The names of `obj`'s attributes in memory that `actor` may see and `pattern` matches. */
  #visibleLive(actor: AttrActor, obj: DbObject, pattern: string): string[] {
    const match = attrPattern(pattern);
    if (!match) return [];
    const world = this.#control();
    return this.names(obj.id).filter((n) => {
      const a = match(n) ? this.peek(obj.id, n) : null;
      return !!a && canSeeAttr(actor, obj, a, world);
    });
  }

  /** Clears attributes in memory now, each under the rules; their commits queued. */
  #clearLive(
    actor: AttrActor,
    objectId: string,
    names: readonly string[],
  ): Cleared & { durable: Promise<void>[] } {
    const cleared: string[] = [];
    const refused: { name: string; refusal: Refusal }[] = [];
    const durable: Promise<void>[] = [];
    for (const name of names) {
      const r = this.#setLive(actor, objectId, name, "");
      if ("kind" in r) refused.push({ name, refusal: r });
      else {
        cleared.push(name);
        durable.push(r.durable);
      }
    }
    return { cleared, refused, durable };
  }

  /** Sets or clears a flag of an attribute for `actor`, and waits until it is stored. */
  async setFlag(
    actor: AttrActor,
    objectId: string,
    name: string,
    flag: AttrFlag,
    on: boolean,
  ): Promise<Attribute | null> {
    if (this.#live) {
      const r = this.#setFlagLive(actor, objectId, name, flag, on);
      if ("kind" in r) throwRefusal(r);
      await r.durable;
      return r.attr;
    }
    const { obj, name: canonical } = await this.#target(objectId, name);
    if (FIELD_ATTRIBUTES.has(canonical)) throwRefusal(FIXED_FLAGS(canonical));
    return await this.#writeShared(
      actor,
      obj,
      canonical,
      (existing) => planFlag(actor, obj, existing, canonical, flag, on, this.#control()),
    );
  }

  /** The object and canonical name a shared write is for, or the refusal thrown. */
  async #target(objectId: string, rawName: string): Promise<{ obj: DbObject; name: string }> {
    const name = canonicalAttrName(rawName);
    if (!name) throwRefusal({ kind: "invalid", message: BAD_NAME });
    const obj = await this.#objects.get(objectId);
    if (!obj) throwRefusal({ kind: "not_found", message: "No such object." });
    return { obj, name };
  }

  /** A write on a shared database: read, plan, commit with checks, retried on a race. */
  async #writeShared(
    actor: AttrActor,
    obj: DbObject,
    name: string,
    plan: (existing: Attribute | null, ctx: QuotaContext) => Plan | Refusal,
  ): Promise<Attribute | null> {
    const owner = attrOwnerOf(actor);
    const ownerObj = await this.#objects.get(owner);
    const key = keys.attribute(obj.id, name);
    const done = await retryAtomic(async () => {
      const [entry, counter] = await getEntries<unknown>(this.#kv, [
        key,
        keys.attributeBytes(owner),
      ]);
      const existing = this.#fromStored(name, entry.value as StoredAttribute | null);
      const p = plan(existing, {
        bytes: counter.value instanceof Deno.KvU64 ? Number(counter.value.value) : 0,
        quota: this.#quotaFor(ownerObj),
        ownerName: ownerObj?.name ?? `#${owner}`,
      });
      if ("kind" in p) throwRefusal(p);
      const op = this.#kv.atomic().check(entry).check(counter);
      if (p.next) op.set(key, toStored(p.next));
      else op.delete(key);
      for (const [o, d] of p.deltas) if (d) op.sum(keys.attributeBytes(o), u64(d));
      return (await op.commit()).ok ? { attr: p.next } : null;
    });
    return done.attr;
  }

  // ---- Memory and the background writer ------------------------------------------------------

  #intern(s: string): string {
    const held = this.#strings.get(s);
    if (held !== undefined) return held;
    this.#strings.set(s, s);
    return s;
  }

  #flagSet(flags: readonly AttrFlag[]): readonly AttrFlag[] {
    if (!flags.length) return NO_FLAGS;
    const k = flags.join(" ");
    let held = this.#flagSets.get(k);
    if (!held) this.#flagSets.set(k, held = Object.freeze([...flags]));
    return held;
  }

  /** A frozen attribute sharing its name, owner and flags with every other that has them. */
  #interned(a: Attribute): Attribute {
    return Object.freeze({
      name: this.#intern(a.name),
      value: a.value,
      owner: this.#intern(a.owner),
      flags: this.#flagSet(a.flags),
    });
  }

  /** The attribute a stored entry holds, or null when its shape is not one (never trusted). */
  #fromStored(name: string, v: StoredAttribute | null | undefined): Attribute | null {
    if (!v || typeof v !== "object" || typeof v.value !== "string" || !v.value) return null;
    if (typeof v.owner !== "string") return null;
    const flags = Array.isArray(v.flags) ? canonicalFlags(v.flags) : [];
    return this.#interned({ name, value: v.value, owner: v.owner, flags });
  }

  #hold(objectId: string, a: Attribute): void {
    let held = this.#attrs.get(objectId);
    if (!held) this.#attrs.set(objectId, held = new Map());
    if (!held.has(a.name)) this.#sorted.delete(objectId);
    held.set(a.name, a);
    this.#objects.world!.version.bump();
    if (this.#watchers.size) this.#changed(objectId, a.name);
  }

  #unhold(objectId: string, name: string): void {
    const held = this.#attrs.get(objectId);
    if (!held?.delete(name)) return;
    this.#objects.world!.version.bump();
    this.#sorted.delete(objectId);
    if (!held.size) this.#attrs.delete(objectId);
    if (this.#watchers.size) this.#changed(objectId, name);
  }

  #count(owner: string, delta: number): void {
    const n = (this.#bytes.get(owner) ?? 0) + delta;
    if (n) this.#bytes.set(owner, n);
    else this.#bytes.delete(owner);
  }

  #quotaFor(owner: DbObject | null | undefined): number {
    return owner && isStaff(owner.flags) ? Infinity : this.#quota;
  }

  #ownerName(owner: string): string {
    return this.#objects.world?.object(owner)?.name ?? `#${owner}`;
  }

  #enqueue(
    objectId: string,
    name: string,
    next: Attribute | null,
    deltas: [string, number][],
  ): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const k = keyText(objectId, name);
      const value = next ? toStored(next) : null;
      const unsent = this.#unsent.get(k);
      if (unsent) {
        // Written again before its last value was sent (a softcode loop's set() can do this
        // thousands of times an evaluation): only the newest value is worth sending, in the
        // older write's place, with both byte counts.
        unsent.value = value;
        for (const [owner, d] of deltas) {
          const same = unsent.deltas.find((x) => x[0] === owner);
          if (same) same[1] += d;
          else unsent.deltas.push([owner, d]);
        }
        unsent.waiters.push({ resolve, reject });
        return;
      }
      const w: Pending = {
        key: keys.attribute(objectId, name),
        value,
        deltas,
        objectId,
        name,
        waiters: [{ resolve, reject }],
      };
      this.#queue.push(w);
      this.#unsent.set(k, w);
      this.#queuedKeys.set(k, (this.#queuedKeys.get(k) ?? 0) + 1);
      if (!this.#writing) {
        this.#writing = true;
        this.#idle = this.#drain();
      }
    });
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length) await this.#commitBatch();
    } catch (e) {
      // Not reached (a batch reports its own failures); kept so the writer can never wedge.
      this.#report(`attributes: the background writer failed: ${errorText(e)}`);
    } finally {
      // In the same turn as the last check of the queue: a write queued after it starts anew.
      this.#writing = false;
    }
  }

  async #commitBatch(): Promise<void> {
    {
      const batch: Pending[] = [];
      let chars = 0;
      while (this.#queue.length && batch.length < MAX_BATCH_WRITES && chars < MAX_BATCH_CHARS) {
        const w = this.#queue.shift()!;
        this.#unsent.delete(keyText(w.objectId, w.name));
        chars += w.value?.value.length ?? 0;
        batch.push(w);
      }
      const op = this.#kv.atomic();
      const sums = new Map<string, number>();
      for (const w of batch) {
        if (w.value) op.set(w.key, w.value);
        else op.delete(w.key);
        for (const [o, d] of w.deltas) sums.set(o, (sums.get(o) ?? 0) + d);
      }
      for (const [o, d] of sums) if (d) op.sum(keys.attributeBytes(o), u64(d));
      let failure: unknown = null;
      try {
        const res = await op.commit();
        if (!res.ok) failure = new Error("the commit was refused");
      } catch (e) {
        failure = e;
      }
      for (const w of batch) {
        const k = keyText(w.objectId, w.name);
        const left = (this.#queuedKeys.get(k) ?? 1) - 1;
        if (left) this.#queuedKeys.set(k, left);
        else this.#queuedKeys.delete(k);
      }
      if (failure === null) {
        for (const w of batch) for (const p of w.waiters) p.resolve();
        return;
      }
      this.#report(
        `attributes: saving ${batch.length} attribute write(s) failed (${errorText(failure)}); ` +
          "memory is set back to what the database holds",
      );
      for (const w of batch) for (const p of w.waiters) p.reject(failure);
      await this.#reconcile(batch);
    }
  }

  /** After a failed commit: memory takes back what KV holds for each attribute it touched. */
  async #reconcile(batch: Pending[]): Promise<void> {
    const touched = new Map<string, Pending>();
    for (const w of batch) {
      const k = keyText(w.objectId, w.name);
      // A later write of the same attribute is still queued: it will set memory and KV alike.
      if (!this.#queuedKeys.has(k)) touched.set(k, w);
    }
    const list = [...touched.values()];
    let entries: Deno.KvEntryMaybe<StoredAttribute>[];
    try {
      entries = await getEntries<StoredAttribute>(this.#kv, list.map((w) => w.key));
    } catch (e) {
      this.#report(`attributes: reading back after a failed write failed too: ${errorText(e)}`);
      return;
    }
    for (const [i, w] of list.entries()) {
      const now = this.#attrs.get(w.objectId)?.get(w.name) ?? null;
      if (now) {
        this.#count(now.owner, -attrBytes(now.name, now.value));
        this.#unhold(w.objectId, w.name);
      }
      const stored = this.#fromStored(w.name, entries[i].value);
      if (stored) {
        this.#hold(w.objectId, stored);
        this.#count(stored.owner, attrBytes(stored.name, stored.value));
      }
    }
  }

  // ---- Following the objects -----------------------------------------------------------------

  #objectChanged({ before, after }: ObjectChange): void {
    if (before && !after) this.#dropObject(before.id);
    else if (before && after && before.owner !== after.owner && after.owner) {
      this.#chownAll(after.id, after.owner);
    }
  }

  /** Removes every attribute of a destroyed object. */
  #dropObject(objectId: string): void {
    if (this.#live) {
      const held = this.#attrs.get(objectId);
      if (!held) return;
      for (const a of [...held.values()]) {
        this.#commitLive(objectId, a.name, a, {
          next: null,
          deltas: [[a.owner, -attrBytes(a.name, a.value)]],
        }).catch(() => {});
      }
      return;
    }
    void this.#dropShared(objectId).catch((e) =>
      this.#report(`attributes: removing those of destroyed #${objectId} failed: ${errorText(e)}`)
    );
  }

  async #dropShared(objectId: string): Promise<void> {
    for (;;) {
      const batch: Deno.KvEntry<StoredAttribute>[] = [];
      const iter = this.#kv.list<StoredAttribute>({ prefix: keys.attributesOf(objectId) }, {
        limit: DELETE_BATCH,
      });
      for await (const e of iter) batch.push(e);
      if (!batch.length) return;
      const op = this.#kv.atomic();
      const sums = new Map<string, number>();
      for (const e of batch) {
        op.check(e).delete(e.key);
        const a = this.#fromStored(String(e.key[2]), e.value);
        if (a) sums.set(a.owner, (sums.get(a.owner) ?? 0) - attrBytes(a.name, a.value));
      }
      for (const [o, d] of sums) if (d) op.sum(keys.attributeBytes(o), u64(d));
      await op.commit();
    }
  }

  /** MUX's @chown: the object's unlocked attributes become the new owner's. */
  #chownAll(objectId: string, owner: string): void {
    const move = (a: Attribute): Plan | null => {
      if (a.owner === owner || a.flags.includes("locked")) return null;
      const n = attrBytes(a.name, a.value);
      return {
        next: { ...a, owner },
        deltas: [[a.owner, -n], [owner, n]],
      };
    };
    if (this.#live) {
      for (const a of [...(this.#attrs.get(objectId)?.values() ?? [])]) {
        const p = move(a);
        if (p) this.#commitLive(objectId, a.name, a, p).catch(() => {});
      }
      return;
    }
    void (async () => {
      for await (
        const e of this.#kv.list<StoredAttribute>({ prefix: keys.attributesOf(objectId) })
      ) {
        const a = this.#fromStored(String(e.key[2]), e.value);
        const p = a && move(a);
        if (!p?.next) continue;
        const op = this.#kv.atomic().check(e).set(e.key, toStored(p.next));
        for (const [o, d] of p.deltas) op.sum(keys.attributeBytes(o), u64(d));
        await op.commit();
      }
    })().catch((e) =>
      this.#report(`attributes: moving those of chowned #${objectId} failed: ${errorText(e)}`)
    );
  }
}

const VISUAL: readonly AttrFlag[] = Object.freeze(["visual"]);

/** The attribute a field-kept name shows after `value` is written (null: cleared). */
function fieldAttribute(obj: DbObject, name: string, value: string): Attribute | null {
  return value ? Object.freeze({ name, value, owner: obj.owner || obj.id, flags: VISUAL }) : null;
}

function FIXED_FLAGS(name: string): Refusal {
  return {
    kind: "invalid",
    message: `${name} is kept in the object itself; its flags are fixed (it is always visual).`,
  };
}

function toStored(a: Attribute): StoredAttribute {
  return a.flags.length
    ? { value: a.value, owner: a.owner, flags: [...a.flags] }
    : { value: a.value, owner: a.owner };
}

function keyText(objectId: string, name: string): string {
  return `${objectId}\u0000${name}`;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** What a quota check knows of the owner a write charges. */
interface QuotaContext {
  /** Bytes the owner holds now. */
  bytes: number;
  /** The owner's quota (Infinity: staff, or no quota). */
  quota: number;
  /** For the message. */
  ownerName: string;
}

/** Plans setting (or with "" clearing) an attribute: the rules, the limits and the quota. */
function planWrite(
  actor: AttrActor,
  obj: DbObject,
  existing: Attribute | null,
  name: string,
  value: string,
  ctx: QuotaContext,
  world: ControlWorld | null,
): Plan | Refusal {
  const refusal = attrWriteRefusal(actor, obj, name, existing, world);
  if (refusal) return refusal;
  const problem = attrValueProblem(value);
  if (problem) return { kind: "invalid", message: problem };
  const deltas: [string, number][] = [];
  if (existing) deltas.push([existing.owner, -attrBytes(existing.name, existing.value)]);
  if (!value) return { next: null, deltas };
  const owner = attrOwnerOf(actor);
  const next: Attribute = { name, value, owner, flags: existing?.flags ?? NO_FLAGS };
  const added = attrBytes(name, value);
  deltas.push([owner, added]);
  const net = added - (existing?.owner === owner ? attrBytes(existing.name, existing.value) : 0);
  if (net > 0 && ctx.bytes + net > ctx.quota) {
    return {
      kind: "quota",
      message: `That would put ${ctx.ownerName}'s attributes at ${ctx.bytes + net} bytes, over ` +
        `the quota of ${ctx.quota} bytes. Nothing was set.`,
    };
  }
  return { next, deltas };
}

/** Plans setting or clearing a flag of an existing attribute. */
function planFlag(
  actor: AttrActor,
  obj: DbObject,
  existing: Attribute | null,
  name: string,
  flag: AttrFlag,
  on: boolean,
  world: ControlWorld | null,
): Plan | Refusal {
  if (!existing) return { kind: "not_found", message: `No attribute ${name} on that.` };
  const refusal = attrFlagRefusal(actor, obj, existing, flag, world);
  if (refusal) return refusal;
  const flags = on
    ? canonicalFlags([...existing.flags, flag])
    : existing.flags.filter((f) => f !== flag);
  return { next: { ...existing, flags }, deltas: [] };
}

/** Why a field-kept attribute cannot take `value`, or null. */
function fieldWriteRefusal(
  actor: AttrActor,
  obj: DbObject,
  name: string,
  value: string,
  world: ControlWorld | null,
): Refusal | null {
  const denied = attrWriteRefusal(actor, obj, name, null, world);
  if (denied) return denied;
  if (typeof value !== "string") {
    return { kind: "invalid", message: "An attribute's value must be text." };
  }
  if (name === "DESC") {
    return value.length > MAX_DESCRIPTION
      ? {
        kind: "invalid",
        message: `A description is at most ${MAX_DESCRIPTION} characters; that is ${value.length}.`,
      }
      : null;
  }
  return {
    kind: "invalid",
    message: name === "ALIAS"
      ? "Set ALIAS with @alias."
      : `Set ${name} with @${name.toLowerCase()}.`,
  };
}

/** True when `s` holds a character `toUpperCase` would change (ASCII a-z, or any beyond ASCII). */
function hasLowerCase(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 97 && c <= 122) || c >= 0x80) return true;
  }
  return false;
}
