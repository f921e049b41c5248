/**
 * One KV entry kept in memory as it changes, for readers that may not wait (softcode's `poll()`
 * reads the doing column's header that `@doing/header` writes): read once, then followed with
 * `kv.watch`, so every writer's change reaches it, another engine's on a shared database too.
 */

/**
 * A KV entry's value, held in memory and followed. What is held is ordered by the entries'
 * versionstamps: a watch event or a write's answer older than what is held (the watch's event
 * for a first write, come in after a second write was held) changes nothing, so the last write
 * wins in memory as in the store.
 */
export class WatchedValue<T> {
  #value: T | null = null;
  /** The versionstamp of what is held ("" for nothing known yet). */
  #stamp = "";
  /** Bumped whenever what is held changes (see #reread). */
  #changes = 0;
  /** The writes in order: each is made once the one before has been. */
  #writing: Promise<unknown> = Promise.resolve();
  #reader: ReadableStreamDefaultReader<Deno.KvEntryMaybe<T>[]> | null = null;

  constructor(private readonly kv: Deno.Kv, private readonly key: Deno.KvKey) {}

  /** Reads the entry and starts following it (resolves once the first value is in). */
  async start(): Promise<void> {
    const first = await this.kv.get<T>(this.key);
    this.#hold(first.value, first.versionstamp ?? "");
    const reader = this.kv.watch<[T]>([this.key]).getReader();
    this.#reader = reader;
    void (async () => {
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        const e = r.value[0];
        if (e.versionstamp !== null) this.#hold(e.value, e.versionstamp);
        else void this.#reread();
      }
    })().catch(() => {
      // The store closed under the watch (the engine stopping): the last value stays.
    });
  }

  /**
   * Writes the entry (null deletes it) and holds the new value once it is written: the watch
   * would bring it only later, and a reader right after the write (`@poll` then `poll()`) must
   * see it. Writes are made in the order asked for, so the last one asked for is the store's.
   */
  set(value: T | null): Promise<void> {
    const write = this.#writing.then(async () => {
      const op = this.kv.atomic();
      if (value === null) op.delete(this.key);
      else op.set(this.key, value);
      const r = await op.commit();
      if (r.ok) this.#hold(value, r.versionstamp);
    });
    this.#writing = write.catch(() => {});
    return write;
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

  /** Holds `value`, written at `stamp`, unless what is held was written then or later. */
  #hold(value: T | null, stamp: string): void {
    if (stamp !== "" && stamp <= this.#stamp) return;
    this.#value = value;
    this.#stamp = stamp;
    this.#changes++;
  }

  /**
   * The watch saw the entry absent, which carries no versionstamp to order it by: read it again,
   * and hold what is read unless something was held meanwhile (then it is at least as new).
   */
  async #reread(): Promise<void> {
    const changes = this.#changes;
    const e = await this.kv.get<T>(this.key).catch(() => null);
    if (e === null || this.#changes !== changes) return;
    if (e.versionstamp === null) {
      this.#value = null;
      this.#changes++;
    } else this.#hold(e.value, e.versionstamp);
  }
}
