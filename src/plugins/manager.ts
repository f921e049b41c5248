/**
 * The plugin manager: loads every plugin at start, reports each one's status,
 * and unloads or reloads plugins in place, one operation at a time. A broken plugin
 * (bad manifest, missing entry, syntax error, wrong engine range, failing init) is
 * reported and skipped; nothing a plugin does can stop the engine. The parts: the
 * records (records.ts), a first load (load.ts), a reload (reload.ts), init and remove
 * (lifecycle.ts), and finding and importing folders (loader.ts).
 */
import type { ContextHost } from "./context.ts";
import type { BusInfo } from "./hooks.ts";
import type { HelpRegistry } from "./help_registry.ts";
import { SerialQueue } from "../serial_queue.ts";
import type { EnginePlugins, PluginStatus } from "../engine_admin.ts";
import { PluginLifecycle } from "./lifecycle.ts";
import { loadFolder } from "./load.ts";
import { discoverPlugins } from "./loader.ts";
import { readManifest } from "./manifest.ts";
import { type PluginRecord, PluginRecords, type StatusLog, unknownStatus } from "./records.ts";
import { type ReloadDeps, reloadRecord } from "./reload.ts";

/** Options of the manager. */
export interface ManagerOptions {
  /** Absolute plugins directory. */
  dir: string;
  /** Engine version matched against each manifest's range. */
  engineVersion: string;
  /** Longest an `init` or `remove` may take (ms). */
  timeoutMs?: number;
  /** Progress lines; failures go to `error`. */
  log?: StatusLog;
}

/** Loads, lists, reloads and unloads plugins. */
export class PluginManager implements EnginePlugins {
  readonly #host: Omit<ContextHost, "api">;
  readonly #dir: string;
  readonly #records: PluginRecords;
  readonly #lifecycle: PluginLifecycle;
  /** What a load or reload works with. */
  readonly #deps: ReloadDeps;
  /** Loads, reloads and unloads run one at a time. */
  readonly #queue = new SerialQueue();

  constructor(host: Omit<ContextHost, "api">, opts: ManagerOptions) {
    this.#host = host;
    this.#dir = opts.dir;
    const log = opts.log ?? { info: (m) => console.log(m), error: (m) => console.error(m) };
    this.#records = new PluginRecords(log);
    this.#lifecycle = new PluginLifecycle({
      host: { ...host, api: (n) => this.api(n) },
      timeoutMs: opts.timeoutMs ?? 15_000,
      pluginsDir: opts.dir,
    });
    this.#deps = {
      records: this.#records,
      lifecycle: this.#lifecycle,
      enabled: (key) => host.config.value.plugins[key]?.enabled !== false,
      engineVersion: opts.engineVersion,
      pluginsDir: opts.dir,
      warn: log.error,
      hold: (key) => host.timers.hold(key),
    };
  }

  /** Help folders and topics that plugins registered (read by the help plugin). */
  get help(): HelpRegistry {
    return this.#host.help;
  }

  /** The plugins directory. */
  get dir(): string {
    return this.#dir;
  }

  /** Status of every plugin found, sorted by name. */
  list(): PluginStatus[] {
    return this.#records.list();
  }

  /** The event buses plugins declared (or listen on), with their owners and events. */
  buses(): BusInfo[] {
    return this.#host.hooks.buses.list();
  }

  /** The API a loaded plugin exports (`provide()` or the module's `api`), by name. */
  api(name: string): unknown {
    return this.#records.api(name);
  }

  /** True when a plugin of that name is running. */
  isLoaded(name: string): boolean {
    return this.#records.isLoaded(name);
  }

  /** Discovers and loads every plugin (at start). */
  loadAll(): Promise<PluginStatus[]> {
    return this.#queue.run(async () => {
      for (const folder of await discoverPlugins(this.#dir)) {
        if (this.#records.ofFolder(folder.folder)) continue;
        await loadFolder(folder, this.#deps);
      }
      return this.list();
    });
  }

  /** Reloads every plugin, loads new ones, unloads those whose folder went away. */
  reloadAll(): Promise<PluginStatus[]> {
    return this.#queue.run(async () => {
      const folders = await discoverPlugins(this.#dir);
      const present = new Set(folders.map((f) => f.folder));
      for (const r of this.#records.all()) {
        if (present.has(r.folder.folder)) continue;
        if (r.loaded) await this.#unload(r, "unloaded: its folder is gone");
        this.#records.delete(r);
      }
      for (const folder of folders) {
        const r = this.#records.ofFolder(folder.folder);
        if (r) await reloadRecord(r, this.#deps);
        else await loadFolder(folder, this.#deps);
      }
      return this.list();
    });
  }

  /** Reloads one plugin by name (case-insensitive); a plugin not loaded yet is loaded. */
  reload(name: string): Promise<PluginStatus> {
    return this.#queue.run(async () => {
      const wanted = String(name ?? "").trim().toLowerCase();
      const r = this.#records.find(wanted);
      if (r) return await reloadRecord(r, this.#deps);
      // Maybe a new folder, or one whose manifest was fixed since start.
      for (const folder of await discoverPlugins(this.#dir)) {
        if (this.#records.ofFolder(folder.folder)) continue;
        const m = await readManifest(folder.dir).catch(() => null);
        if (m?.name.toLowerCase() === wanted || folder.folder.toLowerCase() === wanted) {
          return await loadFolder(folder, this.#deps);
        }
      }
      return unknownStatus(name);
    });
  }

  /** Unloads one plugin by name (case-insensitive). */
  unload(name: string): Promise<PluginStatus> {
    return this.#queue.run(async () => {
      const r = this.#records.find(String(name ?? "").trim().toLowerCase());
      if (!r) return unknownStatus(name);
      if (!r.loaded) return { ...r.status };
      return await this.#unload(r, "unloaded");
    });
  }

  /** Unloads everything (engine shutdown), newest first. */
  closeAll(): Promise<void> {
    return this.#queue.run(async () => {
      for (const r of this.#records.all().reverse()) {
        if (r.loaded) await this.#unload(r, "unloaded");
      }
    });
  }

  async #unload(r: PluginRecord, message: string): Promise<PluginStatus> {
    const problem = await this.#lifecycle.stop(r);
    return this.#records.setStatus(r, {
      ok: true,
      loaded: false,
      message: problem
        ? `${message} (${problem}; its registrations were released anyway)`
        : message,
    });
  }
}
