/** A plugin's own key space in Deno KV: every key starts with `["plugin", <name>]`. */
import { keys } from "../storage/keys.ts";

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

  /** A new atomic operation on the shared handle. */
  atomic(): Deno.AtomicOperation {
    return this.#kv.atomic();
  }
}
