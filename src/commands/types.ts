/**
 * The command contract: a command is a small declarative unit (name, pattern,
 * lock, help, exec). Core commands, plugin commands and reloads all use it.
 */
import type { DbObject } from "../world/types.ts";
import type { Delivery, HubConnection, OutboundData, Presence } from "../hub/types.ts";
import type { ObjectStore } from "../world/objects.ts";
import type { AttributeStore } from "../world/attributes/store.ts";
import type { LockWorld } from "../world/locks.ts";
import type { Players } from "../world/players.ts";
import type { EventBus, WorldEvents } from "../plugins/hooks.ts";
import type { Config } from "../config/load.ts";
import type { Lifecycle } from "../lifecycle.ts";
import type { Accounts } from "../auth/accounts.ts";
import type { SecurityLog } from "../auth/security_log.ts";
import type { TokenService } from "../auth/tokens.ts";
import type { SlidingWindows } from "../rate/sliding.ts";
import type { AccountLimit } from "../auth/account_limit.ts";
import type { Texts } from "../text/texts.ts";
import type { EngineCommands, EnginePlugins } from "../engine_admin.ts";
import type { EngineScripts } from "../scripts/types.ts";
import type { ParsedLine } from "./parser.ts";
import type { Softcode } from "../softcode/mod.ts";
import type { UserFunctions } from "../softcode/user_functions.ts";
import type { WatchedValue } from "../storage/watched.ts";
import type { QueueFrame } from "../queue/types.ts";
import type { CommandQueue } from "../queue/queue.ts";
import type { Programs } from "../softcode/programs/mod.ts";
import type { PlayerRates } from "../plugins/rates.ts";

/**
 * What staff commands run the engine with (`@reboot`, `@reload`, `@site`, `@script`, the admin
 * family): nothing an everyday command needs.
 */
export interface EngineControl {
  config: Config;
  /** Ends the engine with an exit code (`@reboot` 75, `@shutdown` 0) after its hooks. */
  lifecycle: Lifecycle;
  /** The game's texts (connect screen, motd, welcome), for `@reload/text`. */
  texts: Pick<Texts, "load">;
  /** In-game commands: look up, list, reload the core ones. */
  commands: EngineCommands;
  /** Loaded plugins: list, reload, unload. */
  plugins: EnginePlugins;
  /** System scripts: list, show, check. */
  scripts: EngineScripts;
  accounts: Accounts;
  /** Session tokens (ending a player's sessions: `@boot`, `@newpassword`). */
  tokens: TokenService;
  /** Failed logins per client address (an own password change counts its wrong guesses). */
  loginFailures: SlidingWindows;
  /** Failed logins per account (`@loginlimits` lists and releases what it holds). */
  accountFailures: AccountLimit;
  securityLog: SecurityLog;
  /** The store itself, for what has no service of its own (`@site`'s settings, credentials). */
  kv: Deno.Kv;
  /** The game's global softcode functions (`@function`), kept in the database. */
  userFunctions: UserFunctions;
  /** The doing column's header (`@doing/header`, MUX's `@poll`), in memory and written through. */
  doingHeader: WatchedValue<string>;
}

/** What the command engine is built with: the ports the SDK `u` hands each command. */
export interface CommandPorts {
  /** The game's objects: read, create, change, destroy (indexes and caches follow). */
  objects: ObjectStore;
  /** Attributes on objects. */
  attributes: AttributeStore;
  /** What lock checks read of the world (src/world/locks.ts: `checkLock(lock, s, { world })`). */
  locks: LockWorld;
  /** Players by name, alias or dbref; display names; aliases. */
  players: Players;
  /** Who is online and where, from memory. */
  presence: Presence;
  /** The engine's one delivery. */
  deliver: Delivery;
  /** The world events commands fire (`room:speech`); plugins listen. */
  events: Pick<EventBus<WorldEvents>, "emit">;
  /** The softcode evaluator (think, @pemit, and player text where the game evaluates it). */
  softcode: Softcode;
  /** The command queue: action lists run later as objects (`@trigger`, `@wait`, `@force`). */
  queue: CommandQueue;
  /** `$-commands` a line may run, and what objects hear (src/softcode/programs). */
  programs: Pick<Programs, "match" | "jobs" | "listens">;
  /** For staff commands. */
  engine: EngineControl;
  /** The engine's per-player rate buckets (shared with the plugins: `page`'s pages a minute). */
  rates: PlayerRates;
}

/** The attributes of one act, MUX's triple, and what is said when they are unset. */
export interface Verb {
  /** Shown to the actor (`SUCC`). */
  what?: string;
  /** Shown to the actor when `what` is unset (null or absent: nothing). */
  def?: string | null;
  /** Shown to the others where the actor is (`OSUCC`), after the actor's name. */
  owhat?: string;
  /** Shown to the others when `owhat` is unset, after the actor's name. */
  odef?: string | null;
  /** Run by the object through the queue, the actor as enactor (`ASUCC`). */
  awhat?: string;
  /** `%0`-`%9` of the evaluations and the action. */
  args?: readonly string[];
  /** Data for web clients beside the actor's message and the others'. */
  data?: OutboundData;
  odata?: OutboundData;
}

/** The SDK object `u` a command's exec receives: the line, the actor, and the ports. */
export interface CommandSdk extends CommandPorts {
  /**
   * The acting player (fresh from the store for this command). Read-only: while the world is in
   * memory it is the held record itself, frozen; change it with `u.objects.update`.
   */
  me: DbObject;
  /** The room the actor is in, or null (read-only, as `me`). */
  here: DbObject | null;
  /** The parsed line: name, switches, args, lhs/rhs around `=`. */
  cmd: ParsedLine;
  /** Capture groups of the command's `pattern` (empty when it has none). */
  args: string[];
  /**
   * The connection the line came from; absent when an object, the queue or `@force` runs the
   * command (docs/softcode.md, "Commands without a connection").
   */
  conn?: HubConnection;
  /**
   * Who caused the line (`%#`), who ran it (`%@`), its `%0`-`%9` and `%q` registers: the
   * actor itself and fresh registers for a typed line; the queue entry's for a queued one.
   */
  frame: QueueFrame;
  /** The screen width output is laid out for: the connection's, else the actor's first, else 78. */
  width: number;
  /**
   * Evaluates `text` as the actor runs it, with the line's enactor, arguments and registers
   * (`flags` default: a command argument's, MUX's `think`).
   */
  evaluate(text: string, flags?: number): string;
  /**
   * Sends a message (colour codes allowed) to the actor: a player's connections; a puppet's
   * owner (prefixed with its name); nobody for any other object, as in MUX.
   */
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
  /**
   * True when the actor passes a lock expression (the engine's one lock language), checked as
   * the lock of object `on` when given (evaluation keys read its attributes).
   */
  passes(lock: string, on?: string): boolean;
  /**
   * What the actor typed, ready to show: evaluated as softcode when no player typed it (the
   * queue, `@force`) or the game has `softcode.evaluatePlayerText` on (as MUX does for say,
   * pose, page...), else as typed.
   */
  playerText(text: string): string;
  /**
   * MUX's did_it for an act of `actor` on `thing` (src/commands/did_it.ts): `actor` is told the
   * `verb`'s message, the others in `where` its other message, and `thing` runs its action.
   */
  didIt(actor: DbObject, thing: DbObject, where: string | null, verb: Verb): void;
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
export type PluginCommandSdk = Omit<CommandSdk, keyof CommandPorts>;

/**
 * The plugin form of an SDK: `u` without the engine's ports (its operations call the command's
 * own `u`).
 */
export function pluginSdk(u: CommandSdk): PluginCommandSdk {
  return {
    me: u.me,
    here: u.here,
    cmd: u.cmd,
    args: u.args,
    conn: u.conn,
    frame: u.frame,
    width: u.width,
    evaluate: (text, flags) => u.evaluate(text, flags),
    send: (msg, data) => u.send(msg, data),
    emitRoom: (roomId, msg, exclude, data) => u.emitRoom(roomId, msg, exclude, data),
    target: (ref) => u.target(ref),
    passes: (lock, on) => u.passes(lock, on),
    playerText: (text) => u.playerText(text),
    didIt: (actor, thing, where, verb) => u.didIt(actor, thing, where, verb),
  };
}

/** A command a plugin registers: a `CommandSpec` whose exec gets the plugin SDK. */
export interface PluginCommandSpec extends Omit<CommandSpec, "exec"> {
  exec(u: PluginCommandSdk): void | Promise<void>;
}
