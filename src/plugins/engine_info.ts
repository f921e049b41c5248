/**
 * The little a plugin may read of the engine itself: the running configuration, paths in
 * the game directory, and what is registered (help sources, commands). Read-only: a
 * plugin that serves help or an API description needs this, nothing more.
 */
import { resolve } from "node:path";
import type { EngineConfig } from "../config/defaults.ts";
import type { Config } from "../config/load.ts";
import type { HelpRegistry } from "./help_registry.ts";
import type { CommandInfo, EngineCommands } from "../engine_admin.ts";
import type { FunctionTable } from "../softcode/types.ts";
import { type FunctionTopic, functionTopics } from "../softcode/help.ts";

/** What a plugin's view of the engine reads. */
export interface EngineInfoDeps {
  config: Config;
  /** Directory relative paths resolve against. */
  root: string;
  commands: Pick<EngineCommands, "list" | "get" | "turnedOff">;
  /** True while this engine is the database's only writer. */
  soleWriter: boolean;
  /** The softcode functions (their help is served with the rest). */
  functions: FunctionTable;
}

/** Help folders and topics that every plugin registered. */
export type HelpSourcesView = Pick<HelpRegistry, "version" | "dirs" | "topics">;

/** Help topics of the softcode functions (`add()`, and the index `functions`). */
export interface FunctionHelpView {
  /** Changes whenever a function is added or removed. */
  readonly version: number;
  /** The topics, made from each function's own help (src/softcode/help.ts). */
  topics(): readonly FunctionTopic[];
}

/** The engine as a plugin may read it. */
export interface PluginEngine {
  /** The running configuration (changes with `@reload/config` and `@site`; do not keep it). */
  config(): Readonly<EngineConfig>;
  /** A path from the configuration, resolved against the game directory. */
  path(relative: string): string;
  /** Help folders and topics registered by every plugin. */
  readonly help: HelpSourcesView;
  /** Help of the softcode functions. */
  readonly functionHelp: FunctionHelpView;
  /** Every registered command (core and plugins), with its lock, category and help. */
  commands(): readonly CommandInfo[];
  /** The command a word runs (name or alias, any case), or undefined. */
  command(word: string): CommandInfo | undefined;
  /**
   * Names and aliases (lower case) of the core commands `commands.disabled` turned off: their
   * help files are hidden too, unless another layer registers the name again.
   */
  turnedOff(): readonly string[];
  /**
   * True while this engine is the database's only writer (not a shared KV Connect server): a
   * plugin may then keep in memory what it read or wrote of its own keys, as the engine does.
   */
  readonly soleWriter: boolean;
}

/** The functions' help topics, made again only when the function table changes. */
function functionHelpOf(table: FunctionTable): FunctionHelpView {
  let made: { version: number; topics: readonly FunctionTopic[] } | null = null;
  return {
    get version() {
      return table.generation;
    },
    topics() {
      if (made?.version !== table.generation) {
        made = { version: table.generation, topics: functionTopics(table) };
      }
      return made.topics;
    },
  };
}

/** The read-only engine view over the engine and the help registry. */
export function pluginEngine(s: EngineInfoDeps, help: HelpRegistry): PluginEngine {
  return {
    functionHelp: functionHelpOf(s.functions),
    config: () => s.config.value,
    path: (relative) => resolve(s.root, relative),
    help: {
      get version() {
        return help.version;
      },
      dirs: () => help.dirs(),
      topics: () => help.topics(),
    },
    commands: () => s.commands.list(),
    command: (word) => s.commands.get(word),
    turnedOff: () => s.commands.turnedOff(),
    soleWriter: s.soleWriter,
  };
}
