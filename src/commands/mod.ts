/** The command engine: registry, dispatcher, SDK pieces and the core command loader. */
export {
  type AmbiguousMatch,
  type CommandEntry,
  type CommandMatch,
  CommandRegistry,
} from "./registry.ts";
export { DENIED, dispatch, FAILED, type LineRun, runLine } from "./dispatch.ts";
export { HUH, MAX_LINE, overMaxLine } from "./limits.ts";
export { CommandError } from "./errors.ts";
export {
  CORE_MODULES,
  CORE_OWNER,
  coreModules,
  engineCommands,
  importCommands,
  loadCommandModules,
  loadCoreCommands,
  type ModuleSet,
} from "./load.ts";
export { findPlayer, findTarget, NOT_HERE } from "./target.ts";
export { buildSdk, needConnection, subjectOf, tell } from "./sdk.ts";
export type { CommandSdk, CommandSpec, RegisteredCommand } from "./types.ts";
export { type ParsedLine, parseLine, sanitizeLine } from "./parser.ts";
