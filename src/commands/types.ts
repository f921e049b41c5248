/**
 * The command contract: a command is a small declarative unit (name, pattern,
 * lock, help, exec). Core commands, plugin commands and reloads all use it.
 */
import type { DbObject } from "../world/types.ts";
import type { Delivery, HubConnection, OutboundData, Presence } from "../hub/types.ts";
import type { Services } from "../services.ts";
import type { ParsedLine } from "./parser.ts";

/** The SDK object `u` a command's exec receives. */
export interface CommandSdk {
  /** The acting player (fresh from the store for this command). */
  me: DbObject;
  /** The room the actor is in, or null. */
  here: DbObject | null;
  /** The parsed line: name, switches, args, lhs/rhs around `=`. */
  cmd: ParsedLine;
  /** Capture groups of the command's `pattern` (empty when it has none). */
  args: string[];
  /** The connection the line came from. */
  conn: HubConnection;
  services: Services;
  /** Who is online and where, from memory. */
  online: Presence;
  /** The engine's one delivery (`send` and `emitRoom` are short for two of its calls). */
  deliver: Delivery;
  /** Sends a message (colour codes allowed) to the actor's connections. */
  send(msg: string, data?: OutboundData): void;
  /** Sends a message to everyone connected in a room, except the listed ids. */
  emitRoom(roomId: string, msg: string, exclude?: readonly string[], data?: OutboundData): void;
  /**
   * Finds an object by `me`, `here`, `#dbref`, or name (exact, then unique
   * prefix) among the actor, its contents, the room and its contents, then
   * players by name. Throws a CommandError with a clear message when nothing
   * or more than one thing matches.
   */
  target(ref: string): Promise<DbObject>;
  /** True when the actor passes a lock expression. */
  passes(lock: string): boolean;
  /**
   * What the actor typed, ready to show: evaluated as softcode when the game has
   * `softcode.evaluatePlayerText` on (as MUX does for say, pose, page...), else as typed.
   */
  playerText(text: string): string;
}

/** A registered in-game command. */
export interface CommandSpec {
  /** Command word with its prefix: `look`, `@set`, `+help`. */
  name: string;
  /** Other words that run it (`l` for look). */
  aliases?: string[];
  /**
   * Optional regular expression matched against the whole line (case-insensitive);
   * when given it decides the match and its groups become `u.args`.
   */
  pattern?: RegExp;
  /**
   * For a pattern whose words belong to some players only (channel aliases): given the
   * actor and the pattern's groups, false lets the line go on to the other commands (a
   * unique prefix, say) as if the pattern had not matched. A throw counts as false.
   */
  accepts?(me: DbObject, args: string[]): boolean;
  /** Lock expression; default `connected`. */
  lock?: string;
  /** Switches it accepts; any other switch is refused with a clear message. */
  switches?: string[];
  /**
   * The command checks switches itself, once it knows them: a system script whose first load
   * has not ended yet (its exec waits for the load, then refuses what its exports do not list).
   */
  lateSwitches?: boolean;
  /**
   * What guests (`connect guest`) may run: `true` for all of it, or the switches they may use
   * (`""` for the command without a switch). Absent: guests are refused, so a new command is
   * closed to them until its author says otherwise (docs/guests.md).
   */
  guests?: true | readonly string[];
  /** Help category and inline help text (lowest-priority help source). */
  category?: string;
  help?: string;
  exec(u: CommandSdk): void | Promise<void>;
}

/** A command as stored in the registry: the spec plus who registered it. */
export interface RegisteredCommand extends CommandSpec {
  /** `core`, or the plugin name; lets reloads release everything an owner added. */
  owner: string;
}

/**
 * The command SDK as a plugin's command sees it: everything of `CommandSdk` but the engine's
 * own ports (a plugin reaches the engine through its context: `ctx.world`, `ctx.deliver`,
 * `ctx.players`).
 */
export type PluginCommandSdk = Omit<CommandSdk, "services" | "online" | "deliver">;

/** A command a plugin registers: a `CommandSpec` whose exec gets the plugin SDK. */
export interface PluginCommandSpec extends Omit<CommandSpec, "exec"> {
  exec(u: PluginCommandSdk): void | Promise<void>;
}
