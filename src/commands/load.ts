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
  "search.ts",
  "attributes.ts",
  "action_attributes.ts",
  "building_basics.ts",
  "locks.ts",
  "zones.ts",
  "clone.ts",
  "admin.ts",
  "login_limits.ts",
  "password.ts",
  "site.ts",
  "lifecycle.ts",
  "reload.ts",
  "scripts.ts",
  "which.ts",
  "info.ts",
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

/**
 * Names `commands.disabled` may not turn off, and why: without them nobody could log in, leave,
 * or turn a command back on. The hub answers the first ones before any command is looked up.
 */
const ESSENTIAL: ReadonlyMap<string, string> = new Map([
  ["connect", "players log in with it"],
  ["co", "players log in with it"],
  ["create", "players make characters with it"],
  ["cr", "players make characters with it"],
  ["quit", "players leave with it"],
  ["logout", "players change characters with it"],
  ["outputprefix", "clients bracket output with it"],
  ["outputsuffix", "clients bracket output with it"],
  ["@reload", "staff turn commands back on with it"],
]);

/** What `commands.disabled` did to the core commands. */
export interface TurnedOff {
  /** Names and aliases (lower case) of the core commands turned off. */
  names: string[];
  /** One sentence per name that could not be turned off (essential, or no core command). */
  problems: string[];
}

/** A core spec as imported, with the module it came from. */
type CoreSpec = ImportedCommands["specs"][number];

/** The command word a registration answers to (`+job/assign` → `+job`). */
function baseName(name: string): string {
  const slash = name.indexOf("/", 1);
  return (slash === -1 ? name : name.slice(0, slash)).toLowerCase();
}

/**
 * Leaves out the specs `disabled` names (by name or alias, any case): the whole command goes,
 * its aliases and `name/switch` registrations with it. Essential names stay, with a problem.
 */
export function turnOff(
  specs: readonly CoreSpec[],
  disabled: readonly string[],
): { specs: CoreSpec[]; off: TurnedOff } {
  const asked = new Set<string>();
  const problems: string[] = [];
  for (const raw of disabled) {
    const name = String(raw).trim().toLowerCase();
    if (!name) continue;
    const why = ESSENTIAL.get(name);
    if (why) {
      problems.push(
        `commands.disabled: '${name}' stays on; the game cannot run without it (${why}).`,
      );
    } else asked.add(name);
  }
  const kept: CoreSpec[] = [];
  const names = new Set<string>();
  const matched = new Set<string>();
  for (const s of specs) {
    const words = [s.spec.name, ...(s.spec.aliases ?? [])].map(baseName);
    const hit = words.filter((w) => asked.has(w));
    if (!hit.length) {
      kept.push(s);
      continue;
    }
    for (const w of hit) matched.add(w);
    const essential = words.find((w) => ESSENTIAL.has(w));
    if (essential) {
      problems.push(
        `commands.disabled: '${
          hit[0]
        }' stays on; it is '${essential}', which the game cannot run without (${
          ESSENTIAL.get(essential)
        }).`,
      );
      kept.push(s);
      continue;
    }
    for (const w of words) names.add(w);
  }
  for (const name of asked) {
    if (!matched.has(name)) {
      problems.push(
        `commands.disabled: '${name}' is no core command; nothing was turned off for it.`,
      );
    }
  }
  return { specs: kept, off: { names: [...names].sort(), problems } };
}

/** The registry as the rest of the engine sees it, with `commands.disabled` applied to core. */
export interface CoreCommands extends EngineCommands {
  /** Imports the core modules (fresh with a `version`) and registers them, turned-off ones left out. */
  loadCore(version?: string): Promise<CoreLoadResult>;
}

/**
 * The registry as the rest of the engine sees it: look up, list, (re)load the core commands,
 * and apply `disabled()` (read at each load and at `applyDisabled`, so `@reload/config` is
 * enough). The core specs last imported are kept here, so turning a command back on needs no
 * import.
 */
export function engineCommands(
  registry: CommandRegistry,
  disabled: () => readonly string[] = () => [],
): CoreCommands {
  let core: CoreSpec[] = [];
  let off: TurnedOff = { names: [], problems: [] };
  const apply = (): TurnedOff => {
    const t = turnOff(core, disabled());
    registry.replaceOwner(CORE_OWNER, t.specs);
    off = t.off;
    return off;
  };
  const loadCore = async (version?: string): Promise<CoreLoadResult> => {
    const imported = await importCommands(coreModules(), version);
    const broken = new Set(imported.failed.map((f) => f.module));
    const keep = core.filter((s) => broken.has(s.source));
    core = [...imported.specs, ...keep];
    const turned = apply();
    return {
      loaded: imported.specs.length,
      kept: keep.length,
      failed: imported.failed,
      turnedOff: turned,
    };
  };
  return {
    get: (name) => registry.get(name),
    list: () => registry.list(),
    layers: (cmd, me) => registry.layers(cmd, me),
    loadCore,
    // A fresh version makes the module loader read the files again instead of its cache.
    reloadCore: () => loadCore(`${Date.now()}-${crypto.randomUUID()}`),
    applyDisabled: apply,
    turnedOff: () => off.names,
  };
}

function errorText(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  return msg.split("\n")[0].slice(0, 300);
}
