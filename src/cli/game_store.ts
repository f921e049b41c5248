/** The configuration and database of the game in the working directory, for shell commands. */
import { resolve } from "node:path";
import { Config, configFile } from "../config/load.ts";
import { isRemoteDb, openStore } from "../storage/kv.ts";
import { StartupError } from "../startup_error.ts";

/** Loads the game's configuration quietly (the engine and check-config report its problems). */
export function loadConfig(root: string, env: Record<string, string>): Promise<Config> {
  return new Config({
    file: configFile(root, env),
    env,
    warn: () => {},
  }).load();
}

/** The database path `server.db` names, resolved; refuses `:memory:`, which no command can reach. */
export function databasePath(config: Config, root: string): string {
  const db = config.value.server.db;
  if (db === ":memory:") {
    throw new StartupError(
      "server.db",
      "server.db is :memory:, which exists only inside one engine run",
      "point server.db at the game's database file",
    );
  }
  return isRemoteDb(db) ? db : resolve(root, db);
}

/** Opens the game's database. */
export function openGameStore(config: Config, root: string): Promise<Deno.Kv> {
  return openStore(databasePath(config, root));
}
