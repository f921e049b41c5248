/**
 * The plugin manager: loads every plugin at start, reports each one's status,
 * and unloads or reloads plugins in place. A broken plugin (bad manifest,
 * missing entry, syntax error, wrong engine range, failing init) is reported
 * and skipped; nothing a plugin does can stop the engine.
 */
import { isAbsolute, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { type ContextHost, ContextImpl } from "./context.ts";
import type { HelpRegistry } from "./help_registry.ts";
import { SerialQueue } from "../serial_queue.ts";
import type { EnginePlugins, PluginStatus } from "../engine_admin.ts";
import { engineMismatch, type PluginManifest, readManifest } from "./manifest.ts";
import {
  discoverPlugins,
  importEntry,
  type PluginFolder,
  pluginFromModule,
  type PluginModule,
} from "./loader.ts";

/** Options of the manager. */
export interface ManagerOptions {
  /** Absolute plugins directory. */
  dir: string;
  /** Engine version matched against each manifest's range. */
  engineVersion: string;
  /** Longest an `init` or `remove` may take (ms). */
  timeoutMs?: number;
  /** Progress lines; failures go to `error`. */
  log?: { info(m: string): void; error(m: string): void };
}

/** Names plugins may not take (route and command owners use them). */
const RESERVED = new Set(["core", "engine", "plugins"]);

interface Loaded {
  module: PluginModule;
  ctx: ContextImpl;
  manifest: PluginManifest;
  generation: number;
}

interface Entry {
  key: string;
  folder: PluginFolder;
  status: PluginStatus;
  loaded?: Loaded;
  generation: number;
}

/** Loads, lists, reloads and unloads plugins. */
export class PluginManager implements EnginePlugins {
  readonly #host: Omit<ContextHost, "api">;
  readonly #opts: Required<ManagerOptions>;
  /** By lower-cased plugin name, or by `folder:<name>` for folders without a usable manifest. */
  readonly #records = new Map<string, Entry>();
  /** Loads, reloads and unloads run one at a time. */
  readonly #queue = new SerialQueue();

  constructor(host: Omit<ContextHost, "api">, opts: ManagerOptions) {
    this.#host = host;
    this.#opts = {
      timeoutMs: 15_000,
      log: { info: (m) => console.log(m), error: (m) => console.error(m) },
      ...opts,
    };
  }

  /** Help folders and topics that plugins registered (read by the help plugin). */
  get help(): HelpRegistry {
    return this.#host.help;
  }

  /** The plugins directory. */
  get dir(): string {
    return this.#opts.dir;
  }

  /** Status of every plugin found, sorted by name. */
  list(): PluginStatus[] {
    return [...this.#records.values()].map((r) => ({ ...r.status }))
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

  /** Discovers and loads every plugin (at start). */
  loadAll(): Promise<PluginStatus[]> {
    return this.#queue.run(async () => {
      for (const folder of await discoverPlugins(this.#opts.dir)) {
        if (this.#recordOfFolder(folder.folder)) continue;
        await this.#loadFolder(folder);
      }
      return this.list();
    });
  }

  /** Reloads every plugin, loads new ones, unloads those whose folder went away. */
  reloadAll(): Promise<PluginStatus[]> {
    return this.#queue.run(async () => {
      const folders = await discoverPlugins(this.#opts.dir);
      const present = new Set(folders.map((f) => f.folder));
      for (const r of [...this.#records.values()]) {
        if (present.has(r.folder.folder)) continue;
        if (r.loaded) await this.#unloadRecord(r, "unloaded: its folder is gone");
        this.#records.delete(r.key);
      }
      for (const folder of folders) {
        const r = this.#recordOfFolder(folder.folder);
        if (r) await this.#reloadRecord(r);
        else await this.#loadFolder(folder);
      }
      return this.list();
    });
  }

  /** Reloads one plugin by name (case-insensitive); a plugin not loaded yet is loaded. */
  reload(name: string): Promise<PluginStatus> {
    return this.#queue.run(async () => {
      const wanted = String(name ?? "").trim().toLowerCase();
      const r = this.#find(wanted);
      if (!r) {
        // Maybe a new folder, or one whose manifest was fixed since start.
        const folders = await discoverPlugins(this.#opts.dir);
        for (const folder of folders) {
          const known = this.#recordOfFolder(folder.folder);
          if (known) continue;
          const m = await readManifest(folder.dir).catch(() => null);
          if (m?.name.toLowerCase() === wanted || folder.folder.toLowerCase() === wanted) {
            return await this.#loadFolder(folder);
          }
        }
        return this.#unknown(name);
      }
      return await this.#reloadRecord(r);
    });
  }

  /** Unloads one plugin by name (case-insensitive). */
  unload(name: string): Promise<PluginStatus> {
    return this.#queue.run(async () => {
      const r = this.#find(String(name ?? "").trim().toLowerCase());
      if (!r) return this.#unknown(name);
      if (!r.loaded) return { ...r.status };
      return await this.#unloadRecord(r, "unloaded");
    });
  }

  /** Unloads everything (engine shutdown), newest first. */
  closeAll(): Promise<void> {
    return this.#queue.run(async () => {
      for (const r of [...this.#records.values()].reverse()) {
        if (r.loaded) await this.#unloadRecord(r, "unloaded");
      }
    });
  }

  // --- internals ---------------------------------------------------------------------------

  #find(key: string): Entry | undefined {
    return this.#records.get(key) ??
      [...this.#records.values()].find((r) => r.folder.folder.toLowerCase() === key);
  }

  #recordOfFolder(folder: string): Entry | undefined {
    return [...this.#records.values()].find((r) => r.folder.folder === folder);
  }

  #unknown(name: string): PluginStatus {
    return {
      name: String(name ?? ""),
      ok: false,
      message: `no plugin named '${name}'`,
      loaded: false,
      enabled: false,
      version: "",
      description: "",
      folder: "",
    };
  }

  #enabled(key: string): boolean {
    return this.#host.services.config.value.plugins[key]?.enabled !== false;
  }

  #setStatus(r: Entry, patch: Partial<PluginStatus>): PluginStatus {
    r.status = { ...r.status, ...patch };
    const line = `plugins: ${r.status.name}: ${r.status.message}`;
    if (r.status.ok) this.#opts.log.info(line);
    else this.#opts.log.error(line);
    return { ...r.status };
  }

  /** First load of a folder: creates its record. */
  async #loadFolder(folder: PluginFolder): Promise<PluginStatus> {
    const fail = (name: string, message: string): PluginStatus => {
      const key = `folder:${folder.folder}`;
      const r: Entry = {
        key,
        folder,
        generation: 0,
        status: {
          name,
          ok: false,
          message,
          loaded: false,
          enabled: true,
          version: "",
          description: "",
          folder: folder.folder,
        },
      };
      this.#records.set(key, r);
      return this.#setStatus(r, {});
    };
    let manifest: PluginManifest;
    try {
      manifest = await readManifest(folder.dir);
    } catch (e) {
      return fail(folder.folder, `not loaded: ${(e as Error).message}`);
    }
    const key = manifest.name.toLowerCase();
    if (RESERVED.has(key)) return fail(manifest.name, `not loaded: the name '${key}' is reserved`);
    const clash = this.#records.get(key);
    if (clash) {
      return fail(
        folder.folder,
        `not loaded: plugin name '${manifest.name}' is already used by folder ${clash.folder.folder}`,
      );
    }
    const r: Entry = {
      key,
      folder,
      generation: 0,
      status: {
        name: manifest.name,
        ok: true,
        message: "",
        loaded: false,
        enabled: true,
        version: manifest.version,
        description: manifest.description,
        folder: folder.folder,
      },
    };
    this.#records.set(key, r);
    if (!this.#enabled(key)) {
      return this.#setStatus(r, { enabled: false, message: "disabled in configuration" });
    }
    const mismatch = engineMismatch(manifest, this.#opts.engineVersion);
    if (mismatch) return this.#setStatus(r, { ok: false, message: `not loaded: ${mismatch}` });
    let module: PluginModule;
    try {
      module = pluginFromModule(await importEntry(folder.dir, manifest.main, 0), manifest);
    } catch (e) {
      return this.#setStatus(r, {
        ok: false,
        message: `not loaded: ${errText(e, this.#opts.dir)}`,
      });
    }
    const problem = await this.#start(r, module, manifest, 0);
    if (problem) return this.#setStatus(r, { ok: false, message: `not loaded: ${problem}` });
    return this.#setStatus(r, { ok: true, message: `loaded ${manifest.version}` });
  }

  /** Runs init in a fresh context; on success the record holds it. Returns a problem or null. */
  async #start(
    r: Entry,
    module: PluginModule,
    manifest: PluginManifest,
    generation: number,
  ): Promise<string | null> {
    const ctx = new ContextImpl({ ...this.#host, api: (n) => this.api(n) }, manifest, r.folder.dir);
    const helpDir = join(r.folder.dir, "help");
    try {
      if ((await Deno.stat(helpDir)).isDirectory) ctx.help.addDir(helpDir);
    } catch { /* no help folder */ }
    let result: unknown;
    try {
      result = await this.#timed(() => module.init(ctx), `init() of ${manifest.name}`);
    } catch (e) {
      await this.#cleanupFailed(module, ctx);
      return `init() failed: ${errText(e, this.#opts.dir)}`;
    }
    if (result === false) {
      await this.#cleanupFailed(module, ctx);
      return "init() returned false";
    }
    r.loaded = { module, ctx, manifest, generation };
    r.status = {
      ...r.status,
      version: manifest.version,
      description: manifest.description,
      name: manifest.name,
      loaded: true,
      enabled: true,
    };
    return null;
  }

  async #cleanupFailed(module: PluginModule, ctx: ContextImpl): Promise<void> {
    if (module.remove) {
      try {
        await this.#timed(() => module.remove!(), `remove() of ${ctx.name}`);
      } catch { /* it failed to start; its remove may well fail too */ }
    }
    await ctx.release();
  }

  /** Calls remove() and releases the context; always leaves the plugin unloaded. */
  async #stop(r: Entry): Promise<string | null> {
    const l = r.loaded;
    if (!l) return null;
    r.loaded = undefined;
    let problem: string | null = null;
    if (l.module.remove) {
      try {
        await this.#timed(() => l.module.remove!(), `remove() of ${l.manifest.name}`);
      } catch (e) {
        problem = `remove() failed: ${errText(e, this.#opts.dir)}`;
      }
    }
    await l.ctx.release();
    r.status = { ...r.status, loaded: false };
    return problem;
  }

  async #unloadRecord(r: Entry, message: string): Promise<PluginStatus> {
    const problem = await this.#stop(r);
    return this.#setStatus(r, {
      ok: true,
      loaded: false,
      message: problem
        ? `${message} (${problem}; its registrations were released anyway)`
        : message,
    });
  }

  /**
   * Swaps a plugin's code in place. The new code is imported before the old is
   * stopped, so a syntax error leaves the running version alone; when the new
   * init fails, the previous module is started again.
   */
  async #reloadRecord(r: Entry): Promise<PluginStatus> {
    let manifest: PluginManifest;
    try {
      manifest = await readManifest(r.folder.dir);
    } catch (e) {
      return this.#keepOld(r, errText(e, this.#opts.dir));
    }
    const newKey = manifest.name.toLowerCase();
    if (newKey !== r.key) {
      // Renamed (or first usable manifest): drop the old record, load under the new name.
      if (r.loaded) await this.#stop(r);
      this.#records.delete(r.key);
      return await this.#loadFolder(r.folder);
    }
    if (!this.#enabled(r.key)) {
      await this.#stop(r);
      return this.#setStatus(r, { ok: true, enabled: false, message: "disabled in configuration" });
    }
    const mismatch = engineMismatch(manifest, this.#opts.engineVersion);
    if (mismatch) return this.#keepOld(r, mismatch);
    const generation = ++r.generation;
    let module: PluginModule;
    try {
      const ns = await importEntry(r.folder.dir, manifest.main, generation, this.#opts.log.error);
      module = pluginFromModule(ns, manifest);
    } catch (e) {
      return this.#keepOld(r, errText(e, this.#opts.dir));
    }
    // While the old version stops and the new one starts, the plugin's due jobs wait:
    // none runs twice and none declared `drop` is lost in the gap.
    const release = this.#host.timers.hold(r.key);
    try {
      return await this.#swap(r, module, manifest, generation);
    } finally {
      release();
    }
  }

  /** Stops the running version and starts `module`; restores the old one when that fails. */
  async #swap(
    r: Entry,
    module: PluginModule,
    manifest: PluginManifest,
    generation: number,
  ): Promise<PluginStatus> {
    const old = r.loaded;
    const removeProblem = await this.#stop(r);
    const note = removeProblem ? ` (old ${removeProblem}; released anyway)` : "";
    const problem = await this.#start(r, module, manifest, generation);
    if (!problem) {
      return this.#setStatus(r, { ok: true, message: `reloaded ${manifest.version}${note}` });
    }
    if (old) {
      const back = await this.#start(r, old.module, old.manifest, old.generation);
      if (!back) {
        return this.#setStatus(r, {
          ok: false,
          message: `reload failed: ${problem}; previous version ${old.manifest.version} restored`,
        });
      }
    }
    return this.#setStatus(r, {
      ok: false,
      loaded: false,
      message: `reload failed: ${problem}; the plugin is not running`,
    });
  }

  #keepOld(r: Entry, problem: string): PluginStatus {
    const still = r.loaded ? "; the previous version is still running" : "";
    return this.#setStatus(r, { ok: false, message: `reload failed: ${problem}${still}` });
  }

  async #timed<T>(fn: () => T | Promise<T>, what: string): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const p = Promise.resolve().then(fn);
    // A late rejection after the timeout must not become an unhandled rejection.
    p.catch(() => {});
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${what} took longer than ${this.#opts.timeoutMs} ms`)),
        this.#opts.timeoutMs,
      );
    });
    try {
      return await Promise.race([p, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * One line for a status: the error's first line, plus the `file:line:col` a module error
 * points at (a syntax error's message names it only on a later line). File URLs become
 * paths relative to the plugins folder, with a reload's staging folder named as the real one.
 */
export function errText(e: unknown, pluginsDir = ""): string {
  // deno-lint-ignore no-control-regex
  const msg = (e instanceof Error ? e.message : String(e)).replace(/\x1b\[[0-9;]*m/g, "");
  const lines = msg.split("\n");
  let out = lines[0];
  const at = lines.slice(1).map((l) => /^\s*at (file:\/\/\S+)\s*$/.exec(l)?.[1]).find(Boolean);
  if (at && !out.includes(at)) out += ` (at ${at})`;
  return out.replace(/file:\/\/[^\s"'`()]+/g, (url) => shortPath(url, pluginsDir)).slice(0, 500);
}

function shortPath(url: string, pluginsDir: string): string {
  let path: string;
  try {
    path = fileURLToPath(url.replace(/(:\d+)+$/, ""));
  } catch {
    return url;
  }
  const pos = /(:\d+)+$/.exec(url)?.[0] ?? "";
  path = path.replace(/([/\\])\.([^/\\]+)\.reload-\d+-\d+-[0-9a-f]+(?=[/\\])/, "$1$2");
  const rel = pluginsDir ? relative(pluginsDir, path) : "";
  return (rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path) + pos;
}
