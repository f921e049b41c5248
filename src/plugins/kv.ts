/** A plugin's own key space in Deno KV: every key starts with `["plugin", <name>]`. */
import { keys } from "../storage/keys.ts";
import { retryAtomic } from "../storage/kv.ts";
import type { Page } from "../http/pagination.ts";

/** Key helpers scoped to one plugin. Keys passed in are relative to the plugin's space. */
export class PluginKv {
  readonly #kv: Deno.Kv;
  readonly #name: string;

  constructor(kv: Deno.Kv, name: string) {
    this.#kv = kv;
    this.#name = name;
  }

  /** The shared KV handle, for atomic operations over keys built with `key()`. */
  get raw(): Deno.Kv {
    return this.#kv;
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
  async page<T>(prefix: Deno.KvKeyPart[], page: Page, reverse = false): Promise<T[]> {
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

  /** A new atomic operation on the shared handle. */
  atomic(): Deno.AtomicOperation {
    return this.#kv.atomic();
  }

  /**
   * Takes the next number of a plugin-scoped counter (1, 2, ...). `reserve` adds its
   * writes to the same atomic operation, so the number and its record commit together.
   */
  next(
    counter: string,
    reserve?: (n: number, op: Deno.AtomicOperation) => void | Promise<void>,
  ): Promise<number> {
    return retryAtomic(async () => {
      const key = this.key("counter", counter);
      const cur = await this.#kv.get<number>(key);
      const n = (cur.value ?? 0) + 1;
      const op = this.#kv.atomic().check(cur).set(key, n);
      await reserve?.(n, op);
      return (await op.commit()).ok ? n : null;
    });
  }
}
