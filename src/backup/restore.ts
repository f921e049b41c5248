/**
 * Restores a backup (src/backup/backup.ts) into the game's database file and wiki directory.
 * It refuses a database that holds entries (or a wiki directory that holds files) unless forced,
 * and must run while the game is stopped: the engine keeps the database open and caches parts of
 * it, so a file swapped under it would be overwritten or misread.
 */
import { dirname, normalize, resolve, sep } from "node:path";
import type { BackupManifest } from "./backup.ts";
import { countEntries } from "./snapshot.ts";
import { readTar } from "./tar.ts";
import { concatBytes } from "../telnet/protocol/bytes.ts";

/** A restore that is refused; nothing was changed. */
export class RestoreRefused extends Error {
  override name = "RestoreRefused";
}

/** What to restore and where. */
export interface RestoreOptions {
  file: string;
  dbPath: string;
  wikiDir: string;
  force?: boolean;
  /** The newest stored layout this engine reads; a backup of a newer one is refused. */
  maxLayout?: number;
}

/** What a restore did. */
export interface RestoreResult {
  manifest: BackupManifest;
  entries: number;
  wikiFiles: number;
}

/** Entries in the database at `path` (0 when there is no file). */
async function entriesIn(path: string): Promise<number> {
  try {
    await Deno.stat(path);
  } catch {
    return 0;
  }
  return countEntries(path);
}

async function hasFiles(dir: string): Promise<boolean> {
  try {
    for await (const _ of Deno.readDir(dir)) return true;
  } catch { /* missing: empty */ }
  return false;
}

/** The path of a wiki entry inside `wikiDir`, or an error for one that would leave it. */
function wikiTarget(wikiDir: string, name: string): string {
  const rel = normalize(name.slice("wiki/".length));
  const full = resolve(wikiDir, rel);
  if (rel.startsWith("..") || !full.startsWith(resolve(wikiDir) + sep)) {
    throw new RestoreRefused(
      `the backup holds a wiki path outside the wiki (${name}); not restored`,
    );
  }
  return full;
}

/** Restores the backup; the database file is replaced only once the archive was read whole. */
export async function restoreBackup(opts: RestoreOptions): Promise<RestoreResult> {
  const dbPath = resolve(opts.dbPath);
  if (!opts.force) {
    const n = await entriesIn(dbPath);
    if (n > 0) {
      throw new RestoreRefused(
        `the database ${dbPath} is not empty (${n} entries); restore into an empty one, or add ` +
          "--force to replace it (take a backup of it first)",
      );
    }
    if (await hasFiles(opts.wikiDir)) {
      throw new RestoreRefused(
        `the wiki directory ${opts.wikiDir} is not empty; add --force to replace it`,
      );
    }
  }
  await Deno.mkdir(dirname(dbPath), { recursive: true });
  const staged = `${dbPath}.restoring`;
  const stagedWiki = `${resolve(opts.wikiDir)}.restoring`;
  await Deno.remove(stagedWiki, { recursive: true }).catch(() => {});
  let manifest: BackupManifest | null = null;
  let gotDb = false;
  let wikiFiles = 0;
  try {
    const file = await Deno.open(opts.file);
    const stream = file.readable.pipeThrough(new DecompressionStream("gzip"));
    for await (const entry of readTar(stream)) {
      if (entry.name === "manifest.json") {
        const parts: Uint8Array[] = [];
        for await (const c of entry.chunks()) parts.push(c);
        manifest = JSON.parse(new TextDecoder().decode(concatBytes(parts)));
        if (manifest?.format !== "ursamu-backup") throw new RestoreRefused("not an UrsaMU backup");
        if (
          opts.maxLayout !== undefined && manifest.layout !== undefined &&
          manifest.layout > opts.maxLayout
        ) {
          throw new RestoreRefused(
            `the backup's database has layout ${manifest.layout}, newer than this engine's ` +
              `${opts.maxLayout}; restore it with the newer UrsaMU that wrote it`,
          );
        }
        if (manifest.version !== 1) {
          throw new RestoreRefused(
            `backup format ${manifest.version} is newer than this engine reads`,
          );
        }
      } else if (!manifest) {
        throw new RestoreRefused("not an UrsaMU backup (no manifest.json first)");
      } else if (entry.name === "kv.sqlite") {
        await writeChunks(staged, entry.chunks());
        gotDb = true;
      } else if (entry.name.startsWith("wiki/")) {
        const target = wikiTarget(stagedWiki, entry.name);
        await Deno.mkdir(dirname(target), { recursive: true });
        await writeChunks(target, entry.chunks());
        wikiFiles++;
      }
    }
    if (!manifest || !gotDb) throw new RestoreRefused("the backup holds no database (kv.sqlite)");
    const entries = countEntries(staged);
    if (entries !== manifest.entries) {
      throw new RestoreRefused(
        `the backup's database holds ${entries} entries where its manifest says ${manifest.entries}`,
      );
    }
    // Everything is read and checked: now swap. The old WAL and index files belong to the old
    // database and must go with it, or SQLite would replay them onto the restored one.
    for (const f of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`]) {
      await Deno.remove(f).catch(() => {});
    }
    await Deno.rename(staged, dbPath);
    await Deno.remove(opts.wikiDir, { recursive: true }).catch(() => {});
    if (wikiFiles) await Deno.rename(stagedWiki, opts.wikiDir);
    return { manifest, entries, wikiFiles };
  } catch (e) {
    if (e instanceof RestoreRefused) throw e;
    if (e instanceof SyntaxError || e instanceof TypeError) {
      throw new RestoreRefused(`${opts.file} is not a readable backup (${e.message})`);
    }
    throw e;
  } finally {
    for (const f of [staged, `${staged}-wal`, `${staged}-shm`]) {
      await Deno.remove(f).catch(() => {});
    }
    await Deno.remove(stagedWiki, { recursive: true }).catch(() => {});
  }
}

async function writeChunks(path: string, chunks: AsyncIterable<Uint8Array>): Promise<void> {
  const f = await Deno.open(path, { write: true, create: true, truncate: true });
  await ReadableStream.from(chunks).pipeTo(f.writable);
}
