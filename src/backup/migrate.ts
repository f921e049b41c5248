/** The layout check of a start, with the backup a migration takes first (docs/upgrades.md). */
import { join, resolve } from "node:path";
import type { EngineConfig } from "../config/defaults.ts";
import { ensureLayout, LAYOUT_VERSION } from "../storage/layout.ts";
import { isRemoteDb } from "../storage/kv.ts";
import { ENGINE_VERSION } from "../version.ts";
import { backupName, createBackup } from "./backup.ts";

/** Brings the game's database to this engine's layout (refusing a newer one). */
export function prepareLayout(
  kv: Deno.Kv,
  cfg: EngineConfig,
  root: string,
  log: (line: string) => void = (l) => console.log(l),
): Promise<number | null> {
  const db = cfg.server.db;
  const local = db !== ":memory:" && !isRemoteDb(db);
  const dbPath = local ? resolve(root, db) : db;
  return ensureLayout(kv, {
    dbName: dbPath,
    log,
    backup: local
      ? async (from) =>
        (await createBackup({
          dbPath,
          wikiDir: resolve(root, cfg.server.wikiDir),
          file: join(
            resolve(root, cfg.database.backupDir),
            backupName(`pre-layout${LAYOUT_VERSION}`),
          ),
          engine: ENGINE_VERSION,
          layout: from,
        })).file
      : undefined,
  });
}
