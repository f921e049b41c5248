/** Opens the Deno KV store and offers the few helpers every store module shares. */
import { dirname } from "node:path";
import { GuardedKv } from "./guarded_kv.ts";
import { oneLine, StartupError } from "../startup_error.ts";
import { envName } from "../config/load.ts";

/** Whether `server.db` names a KV Connect server (`http(s)://...`) rather than a local file. */
export function isRemoteDb(db: string): boolean {
  return /^https?:\/\//.test(db);
}

/**
 * Opens KV at `path` (creating its directory), or in memory for `:memory:`. The handle is
 * guarded: reads skip unreadable values and writes are checked (src/storage/guarded_kv.ts).
 */
export async function openStore(path: string, key = "server.db"): Promise<Deno.Kv> {
  try {
    if (path !== ":memory:" && !isRemoteDb(path)) {
      await Deno.mkdir(dirname(path), { recursive: true });
    }
    return new GuardedKv(await Deno.openKv(path));
  } catch (e) {
    // The usual causes: a path that is a directory, a file that is not a KV database, no
    // permission, a full disk. None is helped by a retry; the owner has to act.
    throw new StartupError(
      key,
      `the database ${path} cannot be opened: ${oneLine(e)}`,
      `point ${key} (or ${envName(key)}) at a Deno KV file this user may read and write, ` +
        "or restore a backup into it (docs/backups.md)",
    );
  }
}

/** Most keys one `kv.getMany` call takes (Deno KV's limit). */
export const KV_MAX_READ = 10;

/**
 * Entries of any number of keys, in order (missing ones have a null value): read
 * KV_MAX_READ at a time, the calls running together rather than one after another.
 */
export async function getEntries<T>(
  kv: Deno.Kv,
  keyList: readonly Deno.KvKey[],
): Promise<Deno.KvEntryMaybe<T>[]> {
  const calls = [];
  for (let i = 0; i < keyList.length; i += KV_MAX_READ) {
    calls.push(kv.getMany<T[]>(keyList.slice(i, i + KV_MAX_READ)));
  }
  return (await Promise.all(calls)).flat();
}

/** Lists the last key part under a prefix (index keys end with the id). */
export async function listIds(kv: Deno.Kv, prefix: Deno.KvKey, limit?: number): Promise<string[]> {
  const out: string[] = [];
  for await (const e of kv.list({ prefix }, limit ? { limit } : {})) {
    out.push(String(e.key[e.key.length - 1]));
  }
  return out;
}

/**
 * Retries an optimistic atomic operation until it commits or `attempts` run
 * out; waits a short random while between tries so contenders spread out.
 */
export async function retryAtomic<T>(
  fn: () => Promise<T | null>,
  attempts = 50,
): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    const result = await fn();
    if (result !== null) return result;
    await new Promise((r) => setTimeout(r, Math.random() * Math.min(50, 2 + i * 2)));
  }
  throw new Error("storage: too much contention, gave up");
}
