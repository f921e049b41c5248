/**
 * A consistent copy of the KV database while the game runs. Deno KV's local backend is one SQLite
 * file in WAL mode, and every KV commit (one `set`, one `atomic()`) is one SQLite transaction.
 * SQLite's online backup with all pages in one step (`rate: -1`) reads the whole file inside one
 * read transaction: it sees every commit before it started and none after, so the copy is the
 * database as of one instant, with every atomic() whole. In WAL mode readers do not block the
 * writer, so players never wait for a backup.
 */
import { backup, DatabaseSync } from "node:sqlite";

/** Copies the KV file at `dbPath` to `toPath`; returns the number of KV entries in the copy. */
export async function snapshotKv(dbPath: string, toPath: string): Promise<number> {
  const source = new DatabaseSync(dbPath, { readOnly: true });
  try {
    await backup(source, toPath, { rate: -1 });
  } finally {
    source.close();
  }
  // The copy is a file of its own: out of WAL mode it needs no -wal/-shm files beside it, in the
  // archive or after a restore (Deno KV turns WAL on again when it opens the file).
  const copy = new DatabaseSync(toPath);
  try {
    copy.exec("PRAGMA journal_mode=DELETE");
  } finally {
    copy.close();
  }
  return countEntries(toPath);
}

/** The number of KV entries in a KV SQLite file; throws when it is not one. */
export function countEntries(path: string): number {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const row = db.prepare("SELECT count(*) AS n FROM kv").get() as { n: number } | undefined;
    return Number(row?.n ?? 0);
  } catch (e) {
    throw new Error(`${path} is not a Deno KV database (${(e as Error).message})`);
  } finally {
    db.close();
  }
}
