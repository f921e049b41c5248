/** A plugin's own key space in Deno KV: every key starts with `["plugin", <name>]`. */
import { keys } from "../storage/keys.ts";
import type { Page as ListPage } from "../http/pagination.ts";
import { takeNext } from "../storage/counters.ts";
import { SerialQueue } from "../serial_queue.ts";
import { getEntries } from "../storage/kv.ts";
import { ConflictError, ValidationError } from "../errors.ts";
import { type PluginAtomic, scopedAtomic } from "./scoped_atomic.ts";

/** Relative key parts (the plugin's prefix is added). */
export type KeyParts = Deno.KvKeyPart[];

/** Adds a record's writes to the atomic operation that takes counter number `n`. */
export type PluginReserve = (
  n: number,
  op: PluginAtomic,
) => void | boolean | Promise<void | boolean>;

/** Options of {@linkcode PluginKv.create}. */
export interface CreateOptions {
  /** Unique index keys: each must be free, and then points at the record. */
  unique?: KeyParts[];
  /** Plain index keys (end them with the record's id so they stay distinct). */
  index?: KeyParts[];
  /** Adds further checks and writes (in the plugin's space) to the same atomic operation. */
  with?: (op: PluginAtomic) => void;
}

/** Options of {@linkcode PluginKv.page}. */
export interface PageOptions {
  /** Most items a page holds (default 50, at most 1000). */
  limit?: number;
  /** Where the previous page ended (its `cursor`); a bad one is a ValidationError. */
  cursor?: string | null;
  /** Newest (last key) first. */
  reverse?: boolean;
  /** The record key an index value points at, for indexes that store bare ids. */
  record?: (value: unknown) => KeyParts;
}

/** One page of a cursor listing, and where the next one starts (null at the end). */
export interface KvPage<T> {
  items: T[];
  cursor: string | null;
}

/** A create refused because a unique index (or the record's own key) is taken (409). */
export class UniqueConflictError extends ConflictError {
  override name = "UniqueConflictError";
  /** The taken key, relative to the plugin's space. */
  readonly index: KeyParts;
  constructor(index: KeyParts, what: string) {
    super(`${what} already exists: ${index.map(String).join("/")}`);
    this.index = index;
  }
}

/** Deno KV's limit on the checks of one atomic operation. */
const KV_MAX_CHECKS = 100;
/** Deletes per atomic batch and their key bytes, well inside KV's 1000 mutations / 800 KiB. */
const DELETE_BATCH = 500;
const DELETE_BATCH_BYTES = 400_000;
const MAX_PAGE = 1000;

/** Key helpers scoped to one plugin. Keys passed in are relative to the plugin's space. */
export class PluginKv {
  readonly #kv: Deno.Kv;
  readonly #name: string;
  /** Counters with numbers being taken: each one's takers wait their turn (see `next`). */
  readonly #taking = new Map<string, { queue: SerialQueue; waiting: number }>();

  constructor(kv: Deno.Kv, name: string) {
    this.#kv = kv;
    this.#name = name;
  }

  /** The full key for relative parts: `key("note", id)` → `["plugin", name, "note", id]`. */
  key(...parts: Deno.KvKeyPart[]): Deno.KvKey {
    return keys.plugin(this.#name, ...parts);
  }

  /** A value, or null. */
  async get<T>(parts: Deno.KvKeyPart[]): Promise<T | null> {
    return (await this.#kv.get<T>(this.key(...parts))).value;
  }

  /** A value with its versionstamp (for `atomic().check`). */
  getEntry<T>(parts: Deno.KvKeyPart[]): Promise<Deno.KvEntryMaybe<T>> {
    return this.#kv.get<T>(this.key(...parts));
  }

  /** Writes a value. */
  async set(parts: Deno.KvKeyPart[], value: unknown, opts?: { expireIn?: number }): Promise<void> {
    const r = await this.#kv.set(this.key(...parts), value, opts);
    if (!r.ok) throw new Error("storage: write failed");
  }

  /** Deletes a value. */
  async delete(parts: Deno.KvKeyPart[]): Promise<void> {
    await this.#kv.delete(this.key(...parts));
  }

  /** Entries under a relative prefix (full keys), in key order. */
  list<T>(prefix: Deno.KvKeyPart[], opts: Deno.KvListOptions = {}): Deno.KvListIterator<T> {
    return this.#kv.list<T>({ prefix: this.key(...prefix) }, opts);
  }

  /** Entries from relative key `start` (included) to `end` (excluded), in key order. */
  range<T>(
    start: Deno.KvKeyPart[],
    end: Deno.KvKeyPart[],
    opts: Deno.KvListOptions = {},
  ): Deno.KvListIterator<T> {
    return this.#kv.list<T>({ start: this.key(...start), end: this.key(...end) }, opts);
  }

  /** Values under a relative prefix, at most `limit` (default 1000) of them. */
  async values<T>(prefix: Deno.KvKeyPart[], limit = 1000, reverse = false): Promise<T[]> {
    const out: T[] = [];
    for await (const e of this.list<T>(prefix, { limit, reverse })) out.push(e.value);
    return out;
  }

  /**
   * One page of the values under a relative prefix, in key order (or reversed): KV's own
   * `limit` stops the listing at the end of the page; the `offset` entries before it are
   * read and skipped (keep such prefixes to small values, such as an index of ids).
   */
  async slice<T>(prefix: Deno.KvKeyPart[], page: ListPage, reverse = false): Promise<T[]> {
    const end = page.offset + page.limit;
    const opts: Deno.KvListOptions = Number.isSafeInteger(end)
      ? { limit: end, reverse, batchSize: Math.min(end, 500) }
      : { reverse, batchSize: 500 };
    const out: T[] = [];
    let seen = 0;
    for await (const e of this.list<T>(prefix, opts)) {
      if (seen++ >= page.offset) out.push(e.value);
    }
    return out;
  }

  /**
   * One page (`?limit=&offset=`) of records listed through the index under `indexPrefix`:
   * the page is cut from the index with `slice`, and only its records are read; `record`
   * maps an index value to its record key (for indexes of bare ids). Index entries whose
   * record is gone are skipped.
   */
  async slicePage<T>(
    indexPrefix: KeyParts,
    page: ListPage,
    opts: { reverse?: boolean; record?: (value: unknown) => KeyParts } = {},
  ): Promise<T[]> {
    const values = await this.slice<unknown>(indexPrefix, page, opts.reverse ?? false);
    const keys = opts.record ? values.map(opts.record) : values.filter(Array.isArray);
    return (await this.getMany<T>(keys as KeyParts[]))
      .filter((v): v is T => v !== null && typeof v === "object");
  }

  /** A new atomic operation over keys of this plugin's space (built with `key()`). */
  atomic(): PluginAtomic {
    return this.scoped(this.#kv.atomic());
  }

  /** `op` held to this plugin's space (for the timer jobs' operations). */
  scoped(op: Deno.AtomicOperation): PluginAtomic {
    return scopedAtomic(op, keys.plugin(this.#name));
  }

  /**
   * Takes the next number of a plugin-scoped counter (1, 2, ...). `reserve` adds its
   * writes to the same atomic operation, so the number and its record commit together
   * (returning false from it gives the number up and tries again).
   */
  async next(counter: string, reserve?: PluginReserve): Promise<number> {
    // One at a time per counter in this engine (the only writer): at once, each commit made
    // every other taker retry, and 400 scene creations at once gave up with "too much
    // contention" after 10 s of retries. The entry goes when its last taker is done.
    let turn = this.#taking.get(counter);
    if (!turn) this.#taking.set(counter, turn = { queue: new SerialQueue(), waiting: 0 });
    turn.waiting++;
    try {
      return await turn.queue.run(() =>
        takeNext(
          this.#kv,
          this.key("counter", counter),
          reserve && ((n, op) => reserve(n, this.scoped(op))),
        )
      );
    } finally {
      if (--turn.waiting === 0) this.#taking.delete(counter);
    }
  }

  /**
   * Creates a record that must not exist yet, with its unique and plain indexes, in one
   * atomic operation. Index entries hold the record's relative key, never a copy. A taken
   * key is a {@linkcode UniqueConflictError} (409) naming it; nothing is written then.
   */
  async create(parts: KeyParts, value: unknown, opts: CreateOptions = {}): Promise<void> {
    const unique = opts.unique ?? [];
    const index = opts.index ?? [];
    if (1 + unique.length > KV_MAX_CHECKS) {
      throw new TypeError(`create: at most ${KV_MAX_CHECKS - 1} unique indexes`);
    }
    const claimed = [parts, ...unique];
    for (let attempt = 0; attempt < 10; attempt++) {
      const entries = await getEntries<unknown>(this.#kv, claimed.map((p) => this.key(...p)));
      this.#throwTaken(claimed, entries);
      const op = this.#kv.atomic();
      for (const e of entries) op.check(e);
      op.set(this.key(...parts), value);
      for (const u of unique) op.set(this.key(...u), parts);
      for (const i of index) op.set(this.key(...i), parts);
      opts.with?.(this.scoped(op));
      if ((await op.commit()).ok) return;
      // Lost a race: the next look names what was taken, or tries again.
    }
    throw new ConflictError("create: too much contention, try again");
  }

  /** Values of any number of relative keys, in the same order; missing ones are null. */
  async getMany<T>(keyList: KeyParts[]): Promise<(T | null)[]> {
    return (await getEntries<unknown>(this.#kv, keyList.map((p) => this.key(...p)))).map((e) =>
      (e.value ?? null) as T | null
    );
  }

  /**
   * A page of records listed through the index under `indexPrefix`: the index entries give
   * record keys, the records are read in batches; index entries whose record is gone are
   * skipped. Never scans the collection itself.
   */
  async page<T>(indexPrefix: KeyParts, opts: PageOptions = {}): Promise<KvPage<T>> {
    const limit = opts.limit ?? 50;
    if (!Number.isInteger(limit) || limit < 1) {
      throw new ValidationError("limit must be a positive integer");
    }
    const take = Math.min(limit, MAX_PAGE);
    const iter = this.#kv.list({ prefix: this.key(...indexPrefix) }, {
      limit: take + 1,
      reverse: opts.reverse ?? false,
      ...(opts.cursor ? { cursor: opts.cursor } : {}),
    });
    const pointers: KeyParts[] = [];
    // The cursor after the last entry taken; handed out only when another entry follows.
    let last: string | null = null;
    let more = false;
    try {
      for await (const e of iter) {
        if (pointers.length === take) {
          more = true;
          break;
        }
        const rel = opts.record ? opts.record(e.value) : e.value;
        if (!Array.isArray(rel)) throw new Error("page: an index entry holds no record key");
        pointers.push(rel as KeyParts);
        last = iter.cursor;
      }
    } catch (e) {
      if (e instanceof TypeError && /cursor/i.test(e.message)) {
        throw new ValidationError("invalid cursor");
      }
      throw e;
    }
    const items = (await this.getMany<T>(pointers)).filter((v): v is T => v !== null);
    return { items, cursor: more ? last : null };
  }

  /** Deletes every key under a relative prefix in atomic batches; returns how many went. */
  async deletePrefix(prefix: KeyParts): Promise<number> {
    if (!Array.isArray(prefix) || prefix.length === 0) {
      throw new TypeError("deletePrefix needs at least one key part");
    }
    let count = 0;
    let batch: Deno.KvKey[] = [];
    let bytes = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      const op = this.#kv.atomic();
      for (const k of batch) op.delete(k);
      await op.commit();
      count += batch.length;
      batch = [];
      bytes = 0;
    };
    for await (const e of this.#kv.list({ prefix: this.key(...prefix) })) {
      const size = keySize(e.key);
      if (batch.length >= DELETE_BATCH || bytes + size > DELETE_BATCH_BYTES) await flush();
      batch.push(e.key);
      bytes += size;
    }
    await flush();
    return count;
  }

  #throwTaken(claimed: KeyParts[], entries: Deno.KvEntryMaybe<unknown>[]): void {
    const taken = entries.findIndex((e) => e.versionstamp !== null);
    if (taken === -1) return;
    throw new UniqueConflictError(claimed[taken], taken === 0 ? "record" : "unique index");
  }
}

/** A generous estimate of a key's encoded size (for staying under KV's mutation size cap). */
function keySize(key: Deno.KvKey): number {
  let n = 0;
  for (const p of key) {
    if (typeof p === "string") n += new TextEncoder().encode(p).length + 2;
    else if (p instanceof Uint8Array) n += p.length * 2 + 2;
    else n += 24;
  }
  return n;
}
