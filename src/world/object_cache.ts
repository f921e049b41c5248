/**
 * Objects in memory, written through by the store that owns them. A plain command (think,
 * say, pose, a move) reads its actor and room; each read from Deno KV waits for SQLite's own
 * thread and for the event loop to wake for the answer (about 0.3 ms on an idle loop), which
 * is most of a command's round trip. While the engine is the database's only writer, what it
 * read or wrote last is what the database holds.
 *
 * Every entry carries the versionstamp of what it came from, so an answer that arrives late
 * (a read that raced a write, or two writes whose notices run out of order) never replaces
 * a newer one; a delete leaves a tombstone with its versionstamp for the same reason.
 * Entries are frozen; readers get copies, since callers may change what they are given.
 */
import type { DbObject } from "./types.ts";
import { deepFreeze } from "./freeze.ts";

interface Entry {
  /** Null: deleted at `versionstamp`. */
  obj: DbObject | null;
  versionstamp: string;
}

/** Counters for tests and the benchmark. */
export interface ObjectCacheStats {
  size: number;
  hits: number;
  misses: number;
}

/**
 * A copy of a held object. Objects are plain data (what Deno KV stores: records, arrays, strings,
 * numbers...), which a walk copies several times faster than `structuredClone`, whose serializer
 * was a tenth of a `think`'s time in the engine. Anything else inside (a Date, a Map, a typed
 * array, a record without the plain prototype or with a `__proto__` key) goes to
 * `structuredClone` as a whole, so the copy is always what it would have made.
 */
function copyOf<T>(value: T): T {
  const copy = plainCopy(value, 0);
  return copy === NOT_PLAIN ? structuredClone(value) : copy as T;
}

const NOT_PLAIN = Symbol("not plain");

/** Deepest nesting the walk copies; deeper values (never seen in practice) take the slow way. */
const MAX_DEPTH = 64;

function plainCopy(value: unknown, depth: number): unknown {
  if (typeof value !== "object" || value === null) {
    return typeof value === "function" || typeof value === "symbol" ? NOT_PLAIN : value;
  }
  if (depth > MAX_DEPTH) return NOT_PLAIN;
  const proto = Object.getPrototypeOf(value);
  if (proto === Array.prototype) {
    const a = value as unknown[];
    const out = new Array(a.length);
    for (let i = 0; i < a.length; i++) {
      if (!(i in a)) return NOT_PLAIN;
      const v = plainCopy(a[i], depth + 1);
      if (v === NOT_PLAIN) return NOT_PLAIN;
      out[i] = v;
    }
    return out;
  }
  if (proto !== Object.prototype && proto !== null) return NOT_PLAIN;
  const out: Record<string, unknown> = {};
  for (const k in value) {
    if (k === "__proto__") return NOT_PLAIN;
    const v = plainCopy((value as Record<string, unknown>)[k], depth + 1);
    if (v === NOT_PLAIN) return NOT_PLAIN;
    out[k] = v;
  }
  return out;
}

/** Object id → the newest known version, bounded, least recently used dropped first. */
export class ObjectCache {
  readonly #entries = new Map<string, Entry>();
  #hits = 0;
  #misses = 0;

  constructor(private readonly maxEntries = 20_000) {}

  /**
   * The known state of an object: a copy of it, null when known deleted, undefined when not
   * held.
   */
  get(id: string): DbObject | null | undefined {
    const e = this.#entries.get(id);
    if (!e) {
      this.#misses++;
      return undefined;
    }
    this.#hits++;
    // Most recently used last, so the oldest entry is the first to go.
    this.#entries.delete(id);
    this.#entries.set(id, e);
    return e.obj ? copyOf(e.obj) : null;
  }

  /** The versionstamp of the held version, if any (for a write's optimistic check). */
  entry(id: string): { obj: DbObject | null; versionstamp: string } | undefined {
    return this.#entries.get(id);
  }

  /**
   * Records what a read or a committed write found for `id` at `versionstamp` (null object:
   * deleted), unless a newer version is already held.
   */
  put(id: string, obj: DbObject | null, versionstamp: string | null): void {
    if (!versionstamp) return;
    const held = this.#entries.get(id);
    if (held && held.versionstamp >= versionstamp) return;
    this.#entries.delete(id);
    this.#entries.set(id, { obj: obj ? deepFreeze(structuredClone(obj)) : null, versionstamp });
    if (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
  }

  /** Forgets an object (its next read goes to the database). */
  drop(id: string): void {
    this.#entries.delete(id);
  }

  /** Size and hit counts. */
  stats(): ObjectCacheStats {
    return { size: this.#entries.size, hits: this.#hits, misses: this.#misses };
  }
}
