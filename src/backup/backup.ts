/**
 * Backups: one gzip-compressed tar file holding `manifest.json`, `kv.sqlite` (a consistent
 * snapshot of the KV database, src/backup/snapshot.ts) and the wiki directory under `wiki/`.
 * See docs/backups.md.
 */
import { dirname, join, relative, resolve } from "node:path";
import { snapshotKv } from "./snapshot.ts";
import { type TarSource, tarStream } from "./tar.ts";

/** What `manifest.json` says about a backup. */
export interface BackupManifest {
  format: "ursamu-backup";
  /** Version of this archive layout. */
  version: 1;
  engine: string;
  /** Version of the stored layout of the database (src/storage/layout.ts), when known. */
  layout?: number;
  created: string;
  entries: number;
  wikiFiles: number;
}

/** What to back up and where. */
export interface BackupOptions {
  dbPath: string;
  wikiDir: string;
  /** The archive to write (its directory is created). */
  file: string;
  engine: string;
  layout?: number;
}

/** What a backup wrote. */
export interface BackupResult {
  file: string;
  entries: number;
  wikiFiles: number;
  bytes: number;
}

/** A name for a backup taken now: `<prefix>-20261123T210000Z.tar.gz` (sorts by time). */
export function backupName(prefix: string, now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
  return `${prefix}-${stamp}.tar.gz`;
}

/** Regular files under `dir` (symlinks are not followed: a link out of the wiki is not copied). */
async function* filesUnder(dir: string): AsyncGenerator<string> {
  let entries: Deno.DirEntry[];
  try {
    entries = [];
    for await (const e of Deno.readDir(dir)) entries.push(e);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return;
    throw e;
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory) yield* filesUnder(path);
    else if (e.isFile) yield path;
  }
}

async function* fileChunks(path: string): AsyncGenerator<Uint8Array> {
  // The readable closes the file when it ends or is cancelled.
  const f = await Deno.open(path);
  for await (const c of f.readable) yield c;
}

/** Takes a backup; the archive appears under its name only when it is complete. */
export async function createBackup(opts: BackupOptions): Promise<BackupResult> {
  const out = resolve(opts.file);
  await Deno.mkdir(dirname(out), { recursive: true });
  const partial = `${out}.partial`;
  const snapshot = `${out}.kv-snapshot`;
  try {
    const entries = await snapshotKv(opts.dbPath, snapshot);
    const wiki: { path: string; name: string; size: number; mtime: number }[] = [];
    for await (const path of filesUnder(opts.wikiDir)) {
      const st = await Deno.stat(path);
      const name = "wiki/" + relative(opts.wikiDir, path).split("\\").join("/");
      wiki.push({ path, name, size: st.size, mtime: st.mtime?.getTime() ?? Date.now() });
    }
    const manifest: BackupManifest = {
      format: "ursamu-backup",
      version: 1,
      engine: opts.engine,
      ...(opts.layout !== undefined ? { layout: opts.layout } : {}),
      created: new Date().toISOString(),
      entries,
      wikiFiles: wiki.length,
    };
    const manifestBytes = new TextEncoder().encode(JSON.stringify(manifest, null, 2) + "\n");
    const snapSize = (await Deno.stat(snapshot)).size;
    const sources: TarSource[] = [
      { name: "manifest.json", size: manifestBytes.length, body: () => [manifestBytes] },
      { name: "kv.sqlite", size: snapSize, body: () => fileChunks(snapshot) },
      ...wiki.map((w) => ({
        name: w.name,
        size: w.size,
        mtime: w.mtime,
        body: () => fileChunks(w.path),
      })),
    ];
    // pipeTo closes the file when done (or aborts it on an error).
    const f = await Deno.open(partial, { write: true, create: true, truncate: true });
    await (ReadableStream.from(tarStream(sources)) as ReadableStream<BufferSource>)
      .pipeThrough(new CompressionStream("gzip"))
      .pipeTo(f.writable);
    await Deno.rename(partial, out);
    return { file: out, entries, wikiFiles: wiki.length, bytes: (await Deno.stat(out)).size };
  } finally {
    await Deno.remove(partial).catch(() => {});
    for (const f of [snapshot, `${snapshot}-wal`, `${snapshot}-shm`]) {
      await Deno.remove(f).catch(() => {});
    }
  }
}
