/**
 * One KV entry kept in memory as it changes, for readers that may not wait (softcode's `poll()`
 * reads the doing column's header that `@doing/header` writes): read once, then followed with
 * `kv.watch`, so every writer's change reaches it, another engine's on a shared database too.
 */

/** A KV entry's value, held in memory and followed. */
export class WatchedValue<T> {
  #value: T | null = null;
  #reader: ReadableStreamDefaultReader<Deno.KvEntryMaybe<T>[]> | null = null;

  constructor(private readonly kv: Deno.Kv, private readonly key: Deno.KvKey) {}

  /** Reads the entry and starts following it (resolves once the first value is in). */
  async start(): Promise<void> {
    this.#value = (await this.kv.get<T>(this.key)).value;
    const reader = this.kv.watch<[T]>([this.key]).getReader();
    this.#reader = reader;
    void (async () => {
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        this.#value = r.value[0].value;
      }
    })().catch(() => {
      // The store closed under the watch (the engine stopping): the last value stays.
    });
  }

  /**
   * Writes the entry (null deletes it) and holds the new value at once: the watch would bring it
   * only later, and a reader right after the write (`@poll` then `poll()`) must see it.
   */
  async set(value: T | null): Promise<void> {
    if (value === null) await this.kv.delete(this.key);
    else await this.kv.set(this.key, value);
    this.#value = value;
  }

  /** The value now (null when the entry is absent). */
  get value(): T | null {
    return this.#value;
  }

  /** Stops following (before the KV closes). */
  async stop(): Promise<void> {
    const r = this.#reader;
    this.#reader = null;
    await r?.cancel().catch(() => {});
  }
}
