/**
 * The stored layout's version (docs/upgrades.md). A database records the layout it is written
 * in; at start a newer engine brings an older database up to date, after taking a backup, and an
 * engine refuses a database newer than itself: it would misread what it does not know and could
 * destroy it by writing the old way.
 */
import { keys } from "./keys.ts";
import { StartupError } from "../startup_error.ts";
import { envName } from "../config/load.ts";
import { stateToAttributes } from "../world/attributes/migrate_state.ts";

/** The layout this engine reads and writes. Raise it with a migration below. */
export const LAYOUT_VERSION = 2;

/** One step of the layout: what it changes, and the change. */
export interface Migration {
  /** The version the database has after this step. */
  to: number;
  description: string;
  run(kv: Deno.Kv): Promise<void>;
}

/**
 * Every step from the first database on, oldest first. Version 0 is a database from before the
 * layout was recorded; its layout is version 1's, so that step only records the number. A real
 * step rewrites in batches of atomic() commits, each leaving the data readable, and is safe to
 * run again (a crash in the middle repeats it at the next start; the backup is the last resort).
 */
export const MIGRATIONS: readonly Migration[] = [
  { to: 1, description: "record the layout version", run: () => Promise.resolve() },
  {
    to: 2,
    description: "script attributes (u.attr) kept in data.state copied into attributes",
    run: async (kv) => {
      await stateToAttributes(kv, (line) => console.log(line));
    },
  },
];

/** How a start treats the layout. */
export interface LayoutOptions {
  /** Takes a backup before the first migration step; returns what to name in the log line. */
  backup?: (from: number, to: number) => Promise<string>;
  log?: (line: string) => void;
  /** The steps (tests pass their own). */
  migrations?: readonly Migration[];
  /** The version this engine writes (tests pass their own). */
  current?: number;
  /** Names the database in messages. */
  dbName?: string;
}

/** The database's layout: its recorded version, 0 for an older one, null for an empty one. */
export async function storedLayout(kv: Deno.Kv): Promise<number | null> {
  const v = await kv.get<number>(keys.layout());
  if (v.value !== null) return v.value;
  for await (const _ of kv.list({ prefix: [] }, { limit: 1 })) return 0;
  return null;
}

/** Refuses a database newer than this engine (the check of every process that opens it). */
export async function refuseNewer(
  kv: Deno.Kv,
  opts: Pick<LayoutOptions, "current" | "dbName"> = {},
): Promise<number | null> {
  const current = opts.current ?? LAYOUT_VERSION;
  const stored = await storedLayout(kv);
  if (stored !== null && stored > current) {
    throw new StartupError(
      "server.db",
      `the database ${opts.dbName ?? ""}${
        opts.dbName ? " " : ""
      }has layout ${stored}, newer than ` +
        `this engine's ${current}: it was used by a newer UrsaMU`,
      `run that version or a newer one, or point server.db (${envName("server.db")}) at a ` +
        "backup restored from before the upgrade",
    );
  }
  return stored;
}

/**
 * Makes the database's layout current: stamps an empty one, migrates an older one (after the
 * backup), refuses a newer one. Returns the version it found (null: empty).
 */
export async function ensureLayout(kv: Deno.Kv, opts: LayoutOptions = {}): Promise<number | null> {
  const current = opts.current ?? LAYOUT_VERSION;
  const stored = await refuseNewer(kv, opts);
  if (stored === current) return stored;
  if (stored === null) {
    await kv.set(keys.layout(), current);
    return null;
  }
  const steps = (opts.migrations ?? MIGRATIONS).filter((m) => m.to > stored && m.to <= current);
  const saved = opts.backup ? await opts.backup(stored, current) : null;
  opts.log?.(
    `storage: migrating the database from layout ${stored} to ${current}` +
      (saved ? `; backup taken first: ${saved}` : " (no backup: the database is not a local file)"),
  );
  for (const step of steps.sort((a, b) => a.to - b.to)) {
    await step.run(kv);
    await kv.set(keys.layout(), step.to);
    opts.log?.(`storage: layout ${step.to}: ${step.description}`);
  }
  await kv.set(keys.layout(), current);
  return stored;
}
