/**
 * Per-player quotas on what a plugin stores (notes, open jobs, posts a day, scenes): each is a
 * counter in the plugin's own KV space, checked and moved in the same atomic commit as the
 * record it counts, so the count never drifts from the records and is never found by a scan.
 */
import { ConflictError, RateLimitError } from "../errors.ts";
import type { PluginSection } from "../config/defaults.ts";
import type { PluginKv } from "./kv.ts";
import type { PluginAtomic } from "./scoped_atomic.ts";

/** What a plugin declares of a quota (`ctx.quota(spec)`). */
export interface QuotaSpec {
  /** The counter's name, unique in the plugin (`notes`, `posts`). */
  name: string;
  /** The `plugins.<name>` key that sets the limit (a whole number; 0: no limit). */
  setting: string;
  /** The limit while the setting is absent or unusable. */
  default: number;
  /**
   * Counts what a player did today (UTC) rather than what they hold: a daily counter is never
   * lowered, and is forgotten after two days.
   */
  perDay?: boolean;
  /** The refusal a player reads, given the limit in force. */
  message: (limit: number) => string;
  /**
   * What `owner` holds while no counter exists yet (records stored before the quota did): one
   * walk of the owner's own index, once, after which the counter answers.
   */
  seed?: (owner: string, scope: string) => Promise<number>;
  /** The largest limit a setting may give (10,000,000 unless set: a byte quota needs more). */
  ceiling?: number;
}

/** Options of {@linkcode PluginQuota.take}. */
export interface TakeOptions {
  /** A part of the counter's key (a board's id for posts per board); "" for none. */
  scope?: string;
  /** Counted but never refused (staff). */
  exempt?: boolean;
  /** How much the record adds (bytes of text for a byte quota); 1 unless given. */
  amount?: number;
}

/** A declared quota (docs/plugins.md "Rates, quotas, notices"). */
export interface PluginQuota {
  /** The counter's name. */
  readonly name: string;
  /** The limit in force, from the live configuration (0: no limit). */
  limit(): number;
  /** What `owner` holds (or did today) within `scope`. */
  used(owner: string, scope?: string): Promise<number>;
  /**
   * Adds to `op` the check and raise of `owner`'s counter; refuses (409, or 429 for a daily
   * quota) with the declared message when the limit is reached, unless `exempt`. Commit `op`
   * after: a failed commit means the counter moved, so read and try again.
   */
  take(op: PluginAtomic, owner: string, opts?: TakeOptions): Promise<void>;
  /**
   * Adds to `op` the check and lowering of `owner`'s counter (a record given up; `amount`, 1
   * unless given, is what it held).
   */
  give(op: PluginAtomic, owner: string, scope?: string, amount?: number): Promise<void>;
}

/** Days a daily counter is kept (today's, and yesterday's for a commit near midnight). */
const DAY_MS = 86_400_000;
/** Largest limit a setting may give. */
const MAX_LIMIT = 10_000_000;

/** A quota declared by a plugin over its KV space and live configuration section. */
export function pluginQuota(
  spec: QuotaSpec,
  kv: PluginKv,
  config: () => PluginSection,
  now: () => number = Date.now,
): PluginQuota {
  if (!/^[a-z][a-z0-9_-]{0,39}$/.test(String(spec?.name))) {
    throw new Error(`quota: '${String(spec?.name).slice(0, 40)}' is not a quota name`);
  }
  if (!Number.isInteger(spec.default) || spec.default < 0) {
    throw new Error(`quota ${spec.name}: the default must be a whole number, 0 or more`);
  }
  const limit = () => {
    const v = config()[spec.setting];
    const n = Number(v);
    return v !== undefined && v !== null && Number.isInteger(n) && n >= 0
      ? Math.min(n, spec.ceiling ?? MAX_LIMIT)
      : spec.default;
  };
  const key = (owner: string, scope = "") =>
    spec.perDay
      ? ["quota", spec.name, owner, scope, Math.floor(now() / DAY_MS)]
      : ["quota", spec.name, owner, scope];
  /** The counter's entry and what it counts (seeded when there is none yet). */
  const read = async (owner: string, scope = "") => {
    const entry = await kv.getEntry<number>(key(owner, scope));
    let n = typeof entry.value === "number" ? entry.value : 0;
    if (entry.versionstamp === null && spec.seed && !spec.perDay) {
      n = await spec.seed(owner, scope);
    }
    return { entry, n };
  };
  const write = (op: PluginAtomic, entry: Deno.KvEntryMaybe<number>, n: number) => {
    op.check({ key: entry.key, versionstamp: entry.versionstamp })
      .set(entry.key, n, spec.perDay ? { expireIn: 2 * DAY_MS } : undefined);
  };
  return {
    name: spec.name,
    limit,
    used: async (owner, scope) => (await read(owner, scope)).n,
    async take(op, owner, opts = {}) {
      const { entry, n } = await read(owner, opts.scope);
      const max = limit();
      const amount = opts.amount ?? 1;
      // A record that would carry the count past the limit is refused whole, not cut.
      if (!opts.exempt && max > 0 && n + amount > max) {
        const msg = spec.message(max);
        throw spec.perDay ? new RateLimitError(msg) : new ConflictError(msg);
      }
      write(op, entry, n + amount);
    },
    async give(op, owner, scope, amount = 1) {
      if (spec.perDay) return;
      const { entry, n } = await read(owner, scope);
      write(op, entry, Math.max(0, n - amount));
    },
  };
}
