/**
 * Finds plugin folders and imports their entry modules. `src/` never imports
 * `plugins/` statically: entry modules are found on disk and loaded with a
 * dynamic import of their file URL.
 */
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import type { PluginContext } from "./context.ts";
import type { PluginManifest } from "./manifest.ts";

/** What a plugin module's default export must look like. */
export interface PluginModule {
  /** Must match the manifest's name (any case). */
  name: string;
  /** Optional: the manifest is the one source; when given it must equal the manifest's. */
  version?: string;
  /** Optional, like `version`: when given it must equal the manifest's. */
  description?: string;
  /** Registers routes, commands, help and hooks; true (or nothing) on success. */
  init(ctx: PluginContext): boolean | void | Promise<boolean | void>;
  /** Undoes what `init` did that the context does not track (optional: the context releases the rest). */
  remove?(): void | Promise<void>;
  /** An API other plugins reach with `ctx.api(<name>)`. */
  api?: unknown;
}

/** A plugin folder found on disk. */
export interface PluginFolder {
  /** Folder name inside the plugins directory. */
  folder: string;
  /** Absolute path as found (may be a symlink). */
  dir: string;
}

/** Plugin folders in `pluginsDir`, sorted by name; dot and underscore folders are skipped. */
export async function discoverPlugins(pluginsDir: string): Promise<PluginFolder[]> {
  const out: PluginFolder[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(pluginsDir));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return [];
    throw e;
  }
  for (const e of entries) {
    if (e.name.startsWith(".") || e.name.startsWith("_")) continue;
    const dir = join(pluginsDir, e.name);
    try {
      // stat follows symlinks, so a symlinked plugin folder counts.
      if (!(await Deno.stat(dir)).isDirectory) continue;
    } catch {
      continue;
    }
    out.push({ folder: e.name, dir });
  }
  return out.sort((a, b) => a.folder.localeCompare(b.folder));
}

/** Checks that `main` inside `dir` exists and stays inside it (symlinks resolved). */
export async function entryPath(dir: string, main: string): Promise<string> {
  const realDir = await Deno.realPath(dir);
  let realMain: string;
  try {
    realMain = await Deno.realPath(resolve(realDir, main));
  } catch {
    throw new Error(`entry module '${main}' not found`);
  }
  if (!inside(realDir, realMain)) {
    throw new Error(`entry module '${main}' is outside the plugin folder`);
  }
  if (!(await Deno.stat(realMain)).isFile) throw new Error(`entry module '${main}' is not a file`);
  return realMain;
}

/** True when `path` is `dir` or below it. */
export function inside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith("..") && !rel.startsWith(sep) && rel !== "..");
}

/** Validates a module namespace's default export against the plugin's manifest. */
export function pluginFromModule(
  ns: unknown,
  manifest: Pick<PluginManifest, "name" | "version" | "description">,
): PluginModule {
  const expectedName = manifest.name;
  const p = (ns as { default?: unknown })?.default;
  if (typeof p !== "object" || p === null) {
    throw new Error("the entry module has no default export object");
  }
  const m = p as Record<string, unknown>;
  if (typeof m.name !== "string") throw new Error("the default export has no 'name'");
  if (m.name.toLowerCase() !== expectedName.toLowerCase()) {
    throw new Error(
      `the default export is named '${m.name}' but the manifest says '${expectedName}'`,
    );
  }
  // Two places that can disagree are worse than one: a module repeating the manifest must agree.
  for (const field of ["version", "description"] as const) {
    if (m[field] !== undefined && m[field] !== manifest[field]) {
      throw new Error(
        `the default export's ${field} '${String(m[field])}' differs from the manifest's ` +
          `'${manifest[field]}' (leave it out: the manifest is the one source)`,
      );
    }
  }
  if (typeof m.init !== "function") throw new Error("the default export has no init() function");
  if (m.remove !== undefined && typeof m.remove !== "function") {
    throw new Error("the default export's remove must be a function");
  }
  return p as PluginModule;
}

/**
 * Imports a plugin's entry module. The first load imports it in place. A reload
 * must see changed files, but the runtime caches modules by URL, so the plugin's
 * files are copied to a fresh sibling folder (same depth, so relative imports of
 * the engine still resolve to the same engine modules), imported from there, and
 * the copy removed. When the copy cannot be made (read-only install), only the
 * entry module is re-imported, with a cache-busting query.
 */
export async function importEntry(
  dir: string,
  main: string,
  generation: number,
  warn: (m: string) => void = console.warn,
): Promise<unknown> {
  const realMain = await entryPath(dir, main);
  if (generation === 0) return await import(pathToFileURL(realMain).href);
  const realDir = await Deno.realPath(dir);
  const stage = join(
    dirname(realDir),
    `.${basename(realDir)}.reload-${Deno.pid}-${generation}-${crypto.randomUUID().slice(0, 8)}`,
  );
  try {
    await copyTree(realDir, stage);
  } catch (e) {
    await Deno.remove(stage, { recursive: true }).catch(() => {});
    warn(
      `plugins: cannot stage a copy of ${realDir} (${(e as Error).message}); ` +
        `only its entry module will be fresh`,
    );
    return await import(`${pathToFileURL(realMain).href}?reload=${generation}`);
  }
  try {
    return await import(pathToFileURL(join(stage, relative(realDir, realMain))).href);
  } finally {
    await Deno.remove(stage, { recursive: true }).catch(() => {});
  }
}

/** Largest plugin folder a reload copies (files), so a runaway folder cannot fill the disk. */
const MAX_STAGE_FILES = 2000;

/** Copies code files (no tests, no dot folders, no symlinks) from `from` into a new `to`. */
async function copyTree(from: string, to: string): Promise<void> {
  let files = 0;
  const walk = async (src: string, dst: string) => {
    await Deno.mkdir(dst, { recursive: true });
    for await (const e of Deno.readDir(src)) {
      if (e.name.startsWith(".") || e.isSymlink) continue;
      const s = join(src, e.name), d = join(dst, e.name);
      if (e.isDirectory) {
        await walk(s, d);
      } else if (
        e.isFile && /\.(ts|tsx|js|mjs|json)$/.test(e.name) && !/_test\.\w+$/.test(e.name)
      ) {
        if (++files > MAX_STAGE_FILES) throw new Error("too many files");
        await Deno.copyFile(s, d);
      }
    }
  };
  await walk(from, to);
}
