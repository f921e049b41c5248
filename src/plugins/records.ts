/**
 * The manager's bookkeeping: one record per plugin folder found (by lower-cased plugin name, or
 * `folder:<name>` for a folder without a usable manifest), what is running in it, and its status,
 * logged each time it changes.
 */
import type { PluginStatus } from "../engine_admin.ts";
import type { ContextImpl } from "./context.ts";
import type { PluginFolder, PluginModule } from "./loader.ts";
import type { PluginManifest } from "./manifest.ts";

/** A plugin version that is running. */
export interface Loaded {
  module: PluginModule;
  ctx: ContextImpl;
  manifest: PluginManifest;
  /** Which import of the folder it came from (0: the first; each reload counts up). */
  generation: number;
}

/** One plugin folder and what the manager knows of it. */
export interface PluginRecord {
  key: string;
  folder: PluginFolder;
  status: PluginStatus;
  loaded?: Loaded;
  /** The last generation imported. */
  generation: number;
}

/** Where status lines go: successes to `info`, failures to `error`. */
export interface StatusLog {
  info(m: string): void;
  error(m: string): void;
}

/** A status for a plugin found in `folder` (nothing loaded yet). */
export function newStatus(
  name: string,
  folder: string,
  patch: Partial<PluginStatus> = {},
): PluginStatus {
  return {
    name,
    ok: true,
    message: "",
    loaded: false,
    enabled: true,
    version: "",
    description: "",
    folder,
    ...patch,
  };
}

/** The status answered for a name no plugin has. */
export function unknownStatus(name: string): PluginStatus {
  return newStatus(String(name ?? ""), "", {
    ok: false,
    message: `no plugin named '${name}'`,
    enabled: false,
  });
}

/** The records of every plugin folder found. */
export class PluginRecords {
  readonly #records = new Map<string, PluginRecord>();
  readonly #log: StatusLog;

  constructor(log: StatusLog) {
    this.#log = log;
  }

  /** Every record, oldest first. */
  all(): PluginRecord[] {
    return [...this.#records.values()];
  }

  /** The record under `key` (a lower-cased plugin name). */
  get(key: string): PluginRecord | undefined {
    return this.#records.get(key);
  }

  /** Adds (or replaces) the record under its key. */
  add(r: PluginRecord): void {
    this.#records.set(r.key, r);
  }

  /** Forgets a record. */
  delete(r: PluginRecord): void {
    this.#records.delete(r.key);
  }

  /** The record of a plugin name or folder name, any case (`wanted` is lower-cased). */
  find(wanted: string): PluginRecord | undefined {
    return this.#records.get(wanted) ??
      this.all().find((r) => r.folder.folder.toLowerCase() === wanted);
  }

  /** The record of a folder (exact name). */
  ofFolder(folder: string): PluginRecord | undefined {
    return this.all().find((r) => r.folder.folder === folder);
  }

  /** Status of every plugin found, sorted by name. */
  list(): PluginStatus[] {
    return this.all().map((r) => ({ ...r.status }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The API a loaded plugin exports (`provide()` or the module's `api`), by name. */
  api(name: string): unknown {
    const r = this.#records.get(String(name).toLowerCase());
    if (!r?.loaded) return undefined;
    return r.loaded.ctx.provided ?? r.loaded.module.api;
  }

  /** True when a plugin of that name is running. */
  isLoaded(name: string): boolean {
    return !!this.#records.get(String(name).toLowerCase())?.loaded;
  }

  /** Updates a record's status, logs it, and returns a copy. */
  setStatus(r: PluginRecord, patch: Partial<PluginStatus>): PluginStatus {
    r.status = { ...r.status, ...patch };
    const line = `plugins: ${r.status.name}: ${r.status.message}`;
    if (r.status.ok) this.#log.info(line);
    else this.#log.error(line);
    return { ...r.status };
  }
}
