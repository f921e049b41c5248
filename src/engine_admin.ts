/**
 * The engine-admin seam: what `@reload` and the help plugin may ask of the command registry
 * and the plugin manager. A leaf of the import graph: commands' ports name these interfaces and
 * the registry and manager implement them, so commands and plugins do not import
 * each other in a circle; only the composition root (src/engine.ts) knows the concrete classes.
 */
import type { HelpRegistry } from "./plugins/help_registry.ts";
import type { ParsedLine } from "./commands/parser.ts";
import type { DbObject } from "./world/types.ts";

/** A registered command as admin and help read it (what it runs is the registry's business). */
export interface CommandInfo {
  name: string;
  aliases?: string[];
  category?: string;
  help?: string;
  lock?: string;
  switches?: string[];
  /** What guests may run: `true`, or the switches (`""`: none); absent, nothing (docs/guests.md). */
  guests?: true | readonly string[];
  /** `core`, or the plugin that registered it. */
  owner: string;
}

/** A command module that could not be loaded, and why. */
export interface ModuleFailure {
  module: string;
  error: string;
}

/** Outcome of a (re)load of command modules. */
export interface CoreLoadResult {
  /** Commands registered from freshly imported modules. */
  loaded: number;
  /** Commands kept from the previous load because their module failed. */
  kept: number;
  failed: ModuleFailure[];
  /** What `commands.disabled` turned off, and the names it could not (core loads only). */
  turnedOff?: { names: string[]; problems: string[] };
}

/** The in-game commands, as `@reload/cmds`, help and plugins see them. */
export interface EngineCommands {
  /** The command a name or alias runs (case-insensitive), or undefined. */
  get(name: string): CommandInfo | undefined;
  /** Every registered command, in registration order. */
  list(): readonly CommandInfo[];
  /** What each layer of the registry answers for a parsed line (`@commands`). */
  layers(cmd: ParsedLine, me: DbObject): {
    script: CommandInfo | null;
    builtin: CommandInfo | null;
    named: readonly CommandInfo[];
    prefix: CommandInfo | { ambiguous: string[] } | null;
  };
  /** Re-reads the core command modules; a broken module keeps its previous commands. */
  reloadCore(): Promise<CoreLoadResult>;
  /**
   * Applies `commands.disabled` again without importing (`@reload/config`): the core commands
   * it names leave the registry, the others come back.
   */
  applyDisabled(): { names: string[]; problems: string[] };
  /** Names and aliases (lower case) of the core commands turned off. */
  turnedOff(): readonly string[];
}

/** One plugin's status, as `list()`, `reload()` and `@reload/plugin` report it. */
export interface PluginStatus {
  /** Plugin name (the folder name when the manifest could not be read). */
  name: string;
  /** False when the last load, reload or unload of this plugin failed. */
  ok: boolean;
  /** What happened, in a sentence. */
  message: string;
  /** True while the plugin's code is running. */
  loaded: boolean;
  /** False when `plugins.<name>.enabled` is false. */
  enabled: boolean;
  version: string;
  description: string;
  /** Folder name inside the plugins directory. */
  folder: string;
}

/** The loaded plugins, as `@reload` and the help plugin see them. */
export interface EnginePlugins {
  /** Help folders and topics that plugins registered (read by the help plugin). */
  readonly help: HelpRegistry;
  /** The plugins directory. */
  readonly dir: string;
  /** Status of every plugin found, sorted by name. */
  list(): PluginStatus[];
  /** True when a plugin of that name is running. */
  isLoaded(name: string): boolean;
  /** Reloads one plugin by name (case-insensitive); a plugin not loaded yet is loaded. */
  reload(name: string): Promise<PluginStatus>;
  /** Reloads every plugin, loads new ones, unloads those whose folder went away. */
  reloadAll(): Promise<PluginStatus[]>;
  /** Unloads one plugin by name (case-insensitive). */
  unload(name: string): Promise<PluginStatus>;
}
