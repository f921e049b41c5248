/**
 * Loads the core command families (one module each under ./core/) into the registry.
 * Modules are imported first and the registry is swapped in one step, so a reload with a
 * broken file reports it and keeps that file's previous commands.
 */
import type { CommandSpec } from "./types.ts";
import { CommandRegistry } from "./registry.ts";
import type { CoreLoadResult, EngineCommands, ModuleFailure } from "../engine_admin.ts";

/** The core command family modules, in registration order. */
export const CORE_MODULES: readonly string[] = [
  "look.ts",
  "talk.ts",
  "softcode.ts",
  "queue.ts",
  "functions.ts",
  "who.ts",
  "colour.ts",
  "movement.ts",
  "items.ts",
  "examine.ts",
  "attributes.ts",
  "action_attributes.ts",
  "building_basics.ts",
  "clone.ts",
  "admin.ts",
  "password.ts",
  "site.ts",
  "lifecycle.ts",
  "reload.ts",
  "scripts.ts",
  "which.ts",
];

/** Owner name of the core commands in the registry. */
export const CORE_OWNER = "core";

/** Commands imported from the core modules, not yet registered. */
export interface ImportedCommands {
  specs: { spec: CommandSpec; source: string }[];
  failed: ModuleFailure[];
}

/** Where a set of command modules lives and who owns their commands. */
export interface ModuleSet {
  owner: string;
  /** Directory URL of the modules (ends with `/`). */
  base: URL;
  modules: readonly string[];
}

/**
 * Imports every module of the set (fresh when `version` is given: it becomes a `?v=` query)
 * and checks each spec; a module that fails to import or holds a bad spec is reported, not thrown.
 */
export async function importCommands(set: ModuleSet, version?: string): Promise<ImportedCommands> {
  const query = version ? `?v=${encodeURIComponent(version)}` : "";
  const results = await Promise.allSettled(
    set.modules.map((m) => import(new URL(`${m}${query}`, set.base).href)),
  );
  const specs: ImportedCommands["specs"] = [];
  const failed: ModuleFailure[] = [];
  results.forEach((r, i) => {
    const module = set.modules[i];
    if (r.status === "rejected") {
      failed.push({ module, error: errorText(r.reason) });
      return;
    }
    const list = r.value?.commands;
    try {
      if (!Array.isArray(list)) throw new TypeError("it does not export a `commands` array");
      const scratch = new CommandRegistry();
      for (const spec of list) scratch.add(spec, set.owner);
      for (const spec of list) specs.push({ spec, source: module });
    } catch (e) {
      failed.push({ module, error: errorText(e) });
    }
  });
  return { specs, failed };
}

/**
 * (Re)loads a set of command modules: imports first, then replaces the owner's commands in
 * one step. Commands of a module that failed stay as they were.
 */
export async function loadCommandModules(
  registry: CommandRegistry,
  set: ModuleSet,
  version?: string,
): Promise<CoreLoadResult> {
  const imported = await importCommands(set, version);
  const broken = new Set(imported.failed.map((f) => f.module));
  const keep = registry.list()
    .filter((e) => e.owner === set.owner && e.source !== undefined && broken.has(e.source))
    .map((e) => ({ spec: e as CommandSpec, source: e.source }));
  registry.replaceOwner(set.owner, [...imported.specs, ...keep]);
  return { loaded: imported.specs.length, kept: keep.length, failed: imported.failed };
}

/** The core command families. */
export function coreModules(): ModuleSet {
  return { owner: CORE_OWNER, base: new URL("./core/", import.meta.url), modules: CORE_MODULES };
}

/**
 * (Re)loads the core commands; pass a new `version` (e.g. a timestamp) on `@reload/cmds` so
 * the files are read afresh. A broken file is reported and its previous commands stay.
 */
export function loadCoreCommands(
  registry: CommandRegistry,
  version?: string,
): Promise<CoreLoadResult> {
  return loadCommandModules(registry, coreModules(), version);
}

/** The registry as the rest of the engine sees it: look up, list, reload the core commands. */
export function engineCommands(registry: CommandRegistry): EngineCommands {
  return {
    get: (name) => registry.get(name),
    list: () => registry.list(),
    layers: (cmd, me) => registry.layers(cmd, me),
    // A fresh version makes the module loader read the files again instead of its cache.
    reloadCore: () => loadCoreCommands(registry, `${Date.now()}-${crypto.randomUUID()}`),
  };
}

function errorText(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  return msg.split("\n")[0].slice(0, 300);
}
