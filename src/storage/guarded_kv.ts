/**
 * The Deno KV handle every store uses (`openStore` returns it). Reads survive an
 * unreadable value: `get` answers it as missing, `getMany` answers the others, a list skips
 * it; each bad key is logged once. Writes are checked first (src/storage/limits.ts), so a
 * value KV would refuse or could not read back is refused with a ValidationError instead.
 */
import { checkStorable } from "./limits.ts";
import { decodeKey, fromCursor, keyText, toCursor } from "./key_codec.ts";
import {
  commonPrefix,
  isKeyTooLargeForRead,
  isKeyTooLargeForWrite,
  isUnreadableError,
  locateUnreadable,
} from "./unreadable.ts";
import { ValidationError } from "../errors.ts";

/** The refusal of a write whose key (an id or name a client chose) is longer than KV holds. */
const KEY_TOO_LONG = "That name or id is too long to store (a key may take at most 2048 bytes).";

/** Runs a write, turning KV's refusal of an over-long key into a clear 400. */
async function writing<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (isKeyTooLargeForWrite(e)) throw new ValidationError(KEY_TOO_LONG);
    throw e;
  }
}

/** Most bad keys remembered for logging once. */
const MAX_LOGGED = 10_000;
/** Entries read one at a time after a failed batch, before batches resume. */
const SINGLE_STEPS = 128;

/** Where unreadable keys are reported (console.error unless a test listens). */
export type UnreadableReporter = (key: Deno.KvKey, error: unknown) => void;

/** A KV handle whose reads skip unreadable values and whose writes are size- and shape-checked. */
export class GuardedKv implements Deno.Kv {
  readonly #raw: Deno.Kv;
  readonly #seen = new Set<string>();
  readonly #report: UnreadableReporter;

  constructor(raw: Deno.Kv, report?: UnreadableReporter) {
    this.#raw = raw;
    this.#report = report ?? ((key, e) =>
      console.error(
        `storage: unreadable value at ${keyText(key)} skipped (${
          (e as Error)?.message ?? e
        }); staff can rebuild or remove it with @repair`,
      ));
  }

  /** The unguarded handle (for tests that must plant what the guard refuses). */
  get raw(): Deno.Kv {
    return this.#raw;
  }

  /** Logs an unreadable key, once per key. */
  unreadable(key: Deno.KvKey, e: unknown): void {
    const k = keyText(key);
    if (this.#seen.has(k)) return;
    if (this.#seen.size >= MAX_LOGGED) this.#seen.clear();
    this.#seen.add(k);
    this.#report(key, e);
  }

  /** True when `key` holds a value that cannot be read back. */
  async isUnreadable(key: Deno.KvKey): Promise<boolean> {
    try {
      await this.#raw.get(key);
      return false;
    } catch (e) {
      if (isUnreadableError(e)) return true;
      throw e;
    }
  }

  /** A value, or a missing entry when it cannot be read. */
  async get<T = unknown>(
    key: Deno.KvKey,
    options?: { consistency?: Deno.KvConsistencyLevel },
  ): Promise<Deno.KvEntryMaybe<T>> {
    try {
      return await this.#raw.get<T>(key, options);
    } catch (e) {
      // A key longer than KV can hold names nothing (a client's over-long id).
      if (isKeyTooLargeForRead(e)) return { key, value: null, versionstamp: null };
      if (!isUnreadableError(e)) throw e;
      this.unreadable(key, e);
      return { key, value: null, versionstamp: null };
    }
  }

  /** Several values; one unreadable value is answered as missing, the others as they are. */
  async getMany<T extends readonly unknown[]>(
    keys: readonly [...{ [K in keyof T]: Deno.KvKey }],
    options?: { consistency?: Deno.KvConsistencyLevel },
  ): Promise<{ [K in keyof T]: Deno.KvEntryMaybe<T[K]> }> {
    try {
      return await this.#raw.getMany<T>(keys, options);
    } catch (e) {
      if (!isUnreadableError(e) && !isKeyTooLargeForRead(e)) throw e;
      const each = await Promise.all(keys.map((k) => this.get(k as Deno.KvKey, options)));
      return each as { [K in keyof T]: Deno.KvEntryMaybe<T[K]> };
    }
  }

  /** Writes a value after checking KV can store it and read it back. */
  async set(
    key: Deno.KvKey,
    value: unknown,
    options?: { expireIn?: number },
  ): Promise<Deno.KvCommitResult> {
    checkStorable(value);
    return await writing(() => this.#raw.set(key, value, options));
  }

  /** Deletes a key (readable or not); a key longer than KV holds cannot exist. */
  async delete(key: Deno.KvKey): Promise<void> {
    try {
      await this.#raw.delete(key);
    } catch (e) {
      if (!isKeyTooLargeForWrite(e)) throw e;
    }
  }

  /** Lists entries, skipping unreadable ones. */
  list<T = unknown>(
    selector: Deno.KvListSelector,
    options: Deno.KvListOptions = {},
  ): Deno.KvListIterator<T> {
    return new SafeListIterator<T>(this.#raw, selector, options, (k, e) => this.unreadable(k, e));
  }

  /** Queues a message after the same check as a write. */
  async enqueue(
    value: unknown,
    options?: { delay?: number; keysIfUndelivered?: Deno.KvKey[]; backoffSchedule?: number[] },
  ): Promise<Deno.KvCommitResult> {
    checkStorable(value);
    return await this.#raw.enqueue(value, options);
  }

  /** Listens to the queue. */
  // deno-lint-ignore no-explicit-any
  listenQueue(handler: (value: any) => Promise<void> | void): Promise<void> {
    return this.#raw.listenQueue(handler);
  }

  /** An atomic operation whose writes are checked like `set`. */
  atomic(): Deno.AtomicOperation {
    return new GuardedAtomic(this.#raw.atomic()) as unknown as Deno.AtomicOperation;
  }

  /** Watches keys (values are read by KV itself). */
  watch<T extends readonly unknown[]>(
    keys: readonly [...{ [K in keyof T]: Deno.KvKey }],
    options?: { raw?: boolean },
  ): ReadableStream<{ [K in keyof T]: Deno.KvEntryMaybe<T[K]> }> {
    return this.#raw.watch<T>(keys, options);
  }

  /** Closes the handle. */
  close(): void {
    this.#raw.close();
  }

  /** The placeholder for the commit's versionstamp. */
  commitVersionstamp(): symbol {
    return this.#raw.commitVersionstamp();
  }

  /** Closes the handle. */
  [Symbol.dispose](): void {
    this.#raw.close();
  }
}

/** An atomic operation that checks every value it is given before KV sees it. */
class GuardedAtomic {
  readonly #op: Deno.AtomicOperation;

  constructor(op: Deno.AtomicOperation) {
    this.#op = op;
  }

  check(...checks: Deno.AtomicCheck[]): this {
    this.#op.check(...checks);
    return this;
  }

  mutate(...mutations: Deno.KvMutation[]): this {
    for (const m of mutations) if (m.type === "set") checkStorable(m.value);
    this.#op.mutate(...mutations);
    return this;
  }

  sum(key: Deno.KvKey, n: bigint): this {
    this.#op.sum(key, n);
    return this;
  }

  min(key: Deno.KvKey, n: bigint): this {
    this.#op.min(key, n);
    return this;
  }

  max(key: Deno.KvKey, n: bigint): this {
    this.#op.max(key, n);
    return this;
  }

  set(key: Deno.KvKey, value: unknown, options?: { expireIn?: number }): this {
    checkStorable(value);
    this.#op.set(key, value, options);
    return this;
  }

  delete(key: Deno.KvKey): this {
    this.#op.delete(key);
    return this;
  }

  enqueue(
    value: unknown,
    options?: { delay?: number; keysIfUndelivered?: Deno.KvKey[]; backoffSchedule?: number[] },
  ): this {
    checkStorable(value);
    this.#op.enqueue(value, options);
    return this;
  }

  commit(): Promise<Deno.KvCommitResult | Deno.KvCommitError> {
    return writing(() => this.#op.commit());
  }
}

/**
 * A list that reads on past unreadable entries. After a failed batch it reads one entry at
 * a time, so the failure points at the next entry; that one is located (src/storage/
 * unreadable.ts), reported, and the list resumes just past it.
 */
class SafeListIterator<T> implements AsyncIterableIterator<Deno.KvEntry<T>> {
  readonly #raw: Deno.Kv;
  readonly #selector: Deno.KvListSelector;
  readonly #options: Deno.KvListOptions;
  readonly #report: UnreadableReporter;
  readonly #cp: Uint8Array;
  #inner: Deno.KvListIterator<T>;
  #cursor = "";
  /**
   * The iterator whose cursor is the current one, not yet asked for it: KV encodes a cursor
   * afresh on every ask, a sixth of a long list's time, and it is needed only to resume.
   */
  #cursorOf: Deno.KvListIterator<T> | null = null;
  #last: Deno.KvKey | null = null;
  #yielded = 0;
  /** Entries left to read one at a time; -1 in normal batches. */
  #single = -1;

  constructor(
    raw: Deno.Kv,
    selector: Deno.KvListSelector,
    options: Deno.KvListOptions,
    report: UnreadableReporter,
  ) {
    this.#raw = raw;
    this.#selector = selector;
    this.#options = options;
    this.#report = report;
    this.#cp = commonPrefix(selector as { prefix?: Deno.KvKey });
    this.#inner = raw.list<T>(selector, options);
    if (options.cursor) {
      this.#cursor = options.cursor;
      // A list resumed from a cursor starts past that key; a bad entry is looked for from there.
      const at = new Uint8Array([...this.#cp, ...fromCursor(options.cursor)]);
      this.#last = decodeKey(at);
    }
  }

  /** The cursor after the last entry returned (or skipped). */
  get cursor(): string {
    if (this.#cursorOf) {
      this.#cursor = this.#cursorOf.cursor;
      this.#cursorOf = null;
    }
    return this.#cursor;
  }

  #reopen(single: boolean): void {
    const cursor = this.cursor;
    const limit = this.#options.limit === undefined
      ? undefined
      : this.#options.limit - this.#yielded;
    const opts: Deno.KvListOptions = { ...this.#options, limit };
    if (cursor) opts.cursor = cursor;
    else delete opts.cursor;
    if (single) opts.batchSize = 1;
    this.#single = single ? SINGLE_STEPS : -1;
    this.#inner = this.#raw.list<T>(this.#selector, opts);
  }

  async next(): Promise<IteratorResult<Deno.KvEntry<T>, undefined>> {
    for (;;) {
      if (this.#options.limit !== undefined && this.#yielded >= this.#options.limit) {
        return { done: true, value: undefined };
      }
      try {
        const r = await this.#inner.next();
        if (r.done) return r;
        this.#yielded++;
        this.#last = r.value.key;
        this.#cursorOf = this.#inner;
        if (this.#single > 0 && --this.#single === 0) this.#reopen(false);
        return r;
      } catch (e) {
        // A prefix longer than any key KV holds has nothing under it.
        if (isKeyTooLargeForRead(e)) return { done: true, value: undefined };
        if (!isUnreadableError(e)) throw e;
        if (this.#single < 0) {
          this.#reopen(true);
          continue;
        }
        const bad = await locateUnreadable(
          this.#raw,
          this.#selector,
          this.#last,
          this.#options.reverse === true,
        );
        if (!bad) {
          // Cannot be pinned down (should not happen): end the list rather than fail it.
          this.#report(this.#last ?? [], e);
          return { done: true, value: undefined };
        }
        this.#report(bad.key, e);
        this.#last = bad.key;
        this.#cursorOf = null;
        this.#cursor = toCursor(bad.bytes.subarray(this.#cp.length));
        this.#reopen(true);
      }
    }
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<Deno.KvEntry<T>> {
    return this;
  }
}

/** True when `key` holds a value KV cannot read back (through a guarded handle or a raw one). */
export async function isUnreadable(kv: Deno.Kv, key: Deno.KvKey): Promise<boolean> {
  if (kv instanceof GuardedKv) return await kv.isUnreadable(key);
  try {
    await kv.get(key);
    return false;
  } catch (e) {
    if (isUnreadableError(e)) return true;
    throw e;
  }
}
