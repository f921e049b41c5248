/**
 * A plugin's atomic operation: Deno KV's, with every key held inside the plugin's own space
 * (`["plugin", <name>, ...]`). The storage helpers, counters and timer jobs hand plugins this
 * instead of the engine's operation, so a plugin can group its own writes and checks but not
 * write an engine record (a player, an index) behind the engine's back.
 */
import { ValidationError } from "../errors.ts";

/** The part of `Deno.AtomicOperation` a plugin uses, on keys of its own space. */
export interface PluginAtomic {
  /** Fails the commit unless each key still has the given versionstamp (null: absent). */
  check(...checks: Deno.AtomicCheck[]): this;
  /** Writes a value. */
  set(key: Deno.KvKey, value: unknown, options?: { expireIn?: number }): this;
  /** Deletes a key. */
  delete(key: Deno.KvKey): this;
  /** Adds to a `Deno.KvU64` sum. */
  sum(key: Deno.KvKey, n: bigint): this;
  /** Keeps the smaller `Deno.KvU64`. */
  min(key: Deno.KvKey, n: bigint): this;
  /** Keeps the larger `Deno.KvU64`. */
  max(key: Deno.KvKey, n: bigint): this;
  /** Commits everything or nothing. */
  commit(): Promise<Deno.KvCommitResult | Deno.KvCommitError>;
}

/** Wraps `op` so that every key must start with `prefix` (a plugin's space). */
export function scopedAtomic(op: Deno.AtomicOperation, prefix: Deno.KvKey): PluginAtomic {
  const inside = (key: Deno.KvKey): Deno.KvKey => {
    if (
      !Array.isArray(key) || key.length <= prefix.length ||
      prefix.some((part, i) => key[i] !== part)
    ) {
      throw new ValidationError(
        `storage: key ${describe(key)} is outside this plugin's space (build keys with ctx.kv.key)`,
      );
    }
    return key;
  };
  const scoped: PluginAtomic = {
    check(...checks) {
      for (const c of checks) inside(c?.key);
      op.check(...checks);
      return this;
    },
    set(key, value, options) {
      op.set(inside(key), value, options);
      return this;
    },
    delete(key) {
      op.delete(inside(key));
      return this;
    },
    sum(key, n) {
      op.sum(inside(key), n);
      return this;
    },
    min(key, n) {
      op.min(inside(key), n);
      return this;
    },
    max(key, n) {
      op.max(inside(key), n);
      return this;
    },
    commit: () => op.commit(),
  };
  return scoped;
}

function describe(key: unknown): string {
  try {
    return JSON.stringify(key, (_k, v) => typeof v === "bigint" ? `${v}n` : v).slice(0, 100);
  } catch {
    return String(key);
  }
}
