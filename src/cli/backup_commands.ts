/** `backup [file]` and `restore <file> [--force]` (docs/backups.md). */
import { join, resolve } from "node:path";
import { backupName, createBackup } from "../backup/backup.ts";
import { restoreBackup, RestoreRefused } from "../backup/restore.ts";
import { ENGINE_VERSION } from "../version.ts";
import { LAYOUT_VERSION, storedLayout } from "../storage/layout.ts";
import { isRemoteDb, openStore } from "../storage/kv.ts";
import { databasePath, loadConfig } from "./game_store.ts";
import type { Config } from "../config/load.ts";

/** The local database file, or a one-line reason there is none to work on. */
function localDatabase(config: Config, root: string): string {
  const db = databasePath(config, root);
  if (isRemoteDb(db)) {
    throw new Error(
      "server.db is a KV Connect server; back it up on that server (this command copies a local file)",
    );
  }
  return db;
}

/** Runs `backup`; returns the exit code. */
export async function backupCommand(
  root: string,
  env: Record<string, string>,
  file?: string,
): Promise<number> {
  const config = await loadConfig(root, env);
  const db = localDatabase(config, root);
  if (!(await Deno.stat(db).catch(() => null))?.isFile) {
    console.error(`backup: there is no database at ${db} (server.db); nothing to back up`);
    return 1;
  }
  const cfg = config.value;
  // The manifest names the layout the database is in (restore refuses one newer than itself).
  const kv = await openStore(db);
  const layout = await storedLayout(kv).finally(() => kv.close());
  const out = file
    ? resolve(root, file)
    : join(resolve(root, cfg.database.backupDir), backupName("ursamu"));
  const r = await createBackup({
    dbPath: db,
    wikiDir: resolve(root, cfg.server.wikiDir),
    file: out,
    engine: ENGINE_VERSION,
    layout: layout ?? LAYOUT_VERSION,
  });
  console.log(
    `backup: ${r.file} (${r.entries} entries, ${r.wikiFiles} wiki files, ${r.bytes} bytes)`,
  );
  return 0;
}

/** True when something answers as an UrsaMU engine on the configured HTTP port. */
async function gameAnswers(config: Config): Promise<boolean> {
  const { host, http } = config.value.server;
  const h = host === "0.0.0.0" || host === "::" || host === "" ? "127.0.0.1" : host;
  try {
    const r = await fetch(`http://${h.includes(":") ? `[${h}]` : h}:${http}/health`, {
      signal: AbortSignal.timeout(1500),
    });
    const body = await r.json().catch(() => null);
    return body?.engine === "UrsaMU";
  } catch {
    return false;
  }
}

/** Runs `restore`; returns the exit code. */
export async function restoreCommand(
  root: string,
  env: Record<string, string>,
  file: string,
  force: boolean,
): Promise<number> {
  const config = await loadConfig(root, env);
  const db = localDatabase(config, root);
  if (await gameAnswers(config)) {
    console.error(
      `restore: the game is running (it answers on port ${config.value.server.http}, ` +
        "server.http); stop it first, then restore",
    );
    return 1;
  }
  const path = resolve(root, file);
  if (!(await Deno.stat(path).catch(() => null))?.isFile) {
    console.error(`restore: there is no backup file ${path}`);
    return 1;
  }
  try {
    const r = await restoreBackup({
      file: path,
      dbPath: db,
      wikiDir: resolve(root, config.value.server.wikiDir),
      force,
      maxLayout: LAYOUT_VERSION,
    });
    console.log(
      `restore: ${r.entries} entries and ${r.wikiFiles} wiki files from ${path} (taken ` +
        `${r.manifest.created} by engine ${r.manifest.engine}) into ${db}`,
    );
    return 0;
  } catch (e) {
    if (!(e instanceof RestoreRefused)) throw e;
    console.error(`restore: ${e.message}; nothing was changed`);
    return 1;
  }
}
