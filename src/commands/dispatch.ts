/**
 * Runs one line from a logged-in connection, or for an object the queue runs: sanitize, parse,
 * exits first, then the command (lock, switches, exec), mapping every error to a message for
 * the actor.
 */
import type { HubConnection } from "../hub/types.ts";
import type { CommandPorts } from "./types.ts";
import { parseLine, sanitizeLine } from "./parser.ts";
import { checkLock } from "../world/locks.ts";
import { EngineError } from "../errors.ts";
import { CommandError, WrongWayError } from "./errors.ts";
import { buildSdk, subjectOf, tell } from "./sdk.ts";
import { type QueueFrame, typedFrame } from "../queue/types.ts";
import { goThrough, heldExit, matchExit } from "./move.ts";
import {
  type AmbiguousMatch,
  type CommandEntry,
  type CommandMatch,
  type CommandRegistry,
  layerOf,
  SCRIPT_OWNER,
} from "./registry.ts";
import { argEvaluation, evaluatedLine } from "./arguments.ts";
import { withInheritedRank } from "../world/inherited_rank.ts";
import { isGuest, isStaff } from "../world/flags.ts";
import type { ParsedLine } from "./parser.ts";
import { HUH, MAX_LINE, overMaxLine, TOO_LONG_LINE } from "./limits.ts";
import { compassShort } from "../text/compass.ts";
import type { DbObject } from "../world/types.ts";
import { EV, stripMarkup } from "../softcode/mod.ts";

/** Reply when a command's lock refuses the actor. */
export const DENIED = "Permission denied.";

/** Reply when a guest tries what guests may not do. */
export const GUEST_DENIED =
  "Guests can't do that. To play, make a character: QUIT, then create <name> <password>.";

/** Reply when a command fails unexpectedly. */
export const FAILED = "Something went wrong running that command.";

/**
 * Runs one input line for the player of `conn`, matched against `commands`. The line is as the
 * hub admitted it (src/hub/protocol.ts, `linesOf`: cleaned, within MAX_LINE). Never throws;
 * returns a promise only when the command goes on after the call (most finish in it). A player
 * whose softcode has used its slice of the turn (`softcode.yieldMs`) waits for the turn's end,
 * so other players' lines go before the next of several heavy lines typed together.
 */
export function dispatch(
  ports: CommandPorts,
  commands: Matchers,
  conn: HubConnection,
  line: string,
): void | Promise<void> {
  const playerId = conn.playerId;
  if (!playerId || typeof line !== "string") return;
  const wait = ports.softcode.turnWait(playerId);
  if (wait !== null) {
    // The wait can outlast the connection or its login (QUIT, LOGOUT, a drop): a line typed as
    // one player never runs after its connection went, nor as whoever logs in next on it.
    return wait.then(() => {
      if (!conn.closed && conn.playerId === playerId) return dispatch(ports, commands, conn, line);
    });
  }
  return runLine(ports, commands, { actor: playerId, conn, frame: typedFrame(playerId) }, line);
}

/** Who runs a line: a connected player (with its connection), or an object the queue runs. */
export interface LineRun {
  /** The actor's id. */
  actor: string;
  /** The connection a player typed the line on; absent for the queue and `@force`. */
  conn?: HubConnection;
  /** Enactor, arguments and registers (src/queue/types.ts). */
  frame: QueueFrame;
}

/** What a command line matched against: the registry's matchers. */
type Matchers = Pick<CommandRegistry, "match" | "matchScript" | "matchExact" | "matchPrefix">;

/**
 * Runs one line as `run.actor`: a player typing on a connection (the line as the hub admitted
 * it), or any object run by the queue (no connection: the line is cleaned and bounded here, and
 * its replies go where MUX sends an object's, see `tell`). Never throws; returns a promise only
 * when the command goes on after the call.
 */
export function runLine(
  ports: CommandPorts,
  commands: Matchers,
  run: LineRun,
  line: string,
): void | Promise<void> {
  // The softcode a line reaches, however (a lock's evaluation key, a description, a format),
  // is paid for by the player who typed it or whose line began its chain (docs/softcode.md,
  // "Whose time"); a line run inline (`/now`) is its enclosing line's.
  const chain = run.frame.chain;
  const payer = chain ? chain.payer ?? null : run.conn ? run.actor : ports.softcode.payer;
  return ports.softcode.onBehalfOf(payer, () => runOneLine(ports, commands, run, line));
}

function runOneLine(
  ports: CommandPorts,
  commands: Matchers,
  run: LineRun,
  line: string,
): void | Promise<void> {
  let name = "?";
  try {
    const clean = run.conn ? line : queuedLine(line);
    if (clean === null) return reply(ports, run, TOO_LONG_LINE);
    const cmd = parseLine(forceShortcut(clean) ?? clean);
    if (!cmd) return;
    name = cmd.name;
    // With the world in memory, the actor, its room and the exits are its held records, read
    // without waiting and without copies (frozen: a command changes an object through
    // `u.objects.update`); otherwise they are read (see `readActor`).
    const world = ports.objects.world;
    const me = world === null ? null : world.object(run.actor);
    if (world === null || me === null) {
      return readActor(ports, run, cmd).then(
        (found) => runMatched(ports, commands, run, clean, cmd, found),
        (err) => failed(ports, run, name, err),
      );
    }
    const here = me.location ? world.object(me.location) : null;
    const exit = heldExit(world, me.location, cmd.raw);
    return runMatched(ports, commands, run, clean, cmd, { me, here, exit });
  } catch (err) {
    failed(ports, run, name, err);
  }
}

/** The actor of a line, its room, and the exit the line names there. */
interface Actor {
  me: DbObject | null;
  here: DbObject | null;
  exit: DbObject | null;
}

/**
 * The actor, its room and exit read from the store (no world in memory): in one call, from the
 * hub's idea of where a connected actor is, and read again when the actor turns out elsewhere.
 */
async function readActor(ports: CommandPorts, run: LineRun, cmd: ParsedLine): Promise<Actor> {
  const playerId = run.actor;
  const guess = run.conn ? ports.presence.roomOf(playerId) : undefined;
  const [[me, guessedRoom], guessedExit] = await Promise.all([
    ports.objects.getEach(guess ? [playerId, guess] : [playerId]),
    matchExit(ports, guess, cmd.raw),
  ]);
  if (!me || me.location === guess) return { me, here: guessedRoom ?? null, exit: guessedExit };
  const [here, exit] = await Promise.all([
    me.location ? ports.objects.get(me.location) : null,
    matchExit(ports, me.location, cmd.raw),
  ]);
  return { me, here, exit };
}

/**
 * Runs a parsed line once its actor is known: exits first, then the command (lock, switches,
 * exec). Never throws; a promise only while the command goes on.
 */
function runMatched(
  ports: CommandPorts,
  commands: Matchers,
  run: LineRun,
  clean: string,
  cmd: ParsedLine,
  { me, here, exit }: Actor,
): void | Promise<void> {
  const conn = run.conn ?? null;
  let name = cmd.name;
  try {
    // A connection belongs to a player; the queue runs any object that still exists.
    if (!me || (conn && !me.flags.includes("player"))) {
      if (conn) reply(ports, run, "Your character no longer exists.");
      return;
    }
    // Every command reads its actor afresh; that read also heals a card made from a read that
    // raced a change at login.
    if (conn) ports.presence.refreshCard(me);
    const frame = run.frame;
    const layered = layerPrefix(cmd);
    if (layered && !isStaff(me.flags)) return reply(ports, run, DENIED);
    // The order of docs/commands.md: a system script's command, an exit, a built-in (core or
    // plugin), the `$-commands` around the actor, and last a unique prefix of a built-in.
    let found: CommandMatch | AmbiguousMatch | null = layered
      ? (layered.inner ? commands.match(layered.inner, me, layered.only) : null)
      : commands.matchScript(cmd, me);
    if (!found && exit && here) {
      name = "(exit)";
      const u = buildSdk(ports, conn, { me, here, cmd, args: [], frame });
      return settled(ports, run, name, goThrough(u, exit, cmd.raw));
    }
    if (!found && !layered) {
      found = commands.matchExact(cmd, me);
      if (!found && runPrograms(ports, me, here, clean, frame)) return;
      found ??= commands.matchPrefix(cmd, me);
    }
    // A compass word with no exit that way is a move that failed, as well as an unknown command.
    if (!found) {
      return reply(ports, run, HUH, compassShort(cmd.raw) === null ? undefined : cmd.raw.trim());
    }
    if ("ambiguous" in found) {
      const names = found.ambiguous.slice(0, 10).join(", ");
      return reply(ports, run, `Which command do you mean: ${names}?`);
    }
    const command = found.command;
    name = command.name;
    const lock = command.lock ?? "connected";
    // A queued line of an inherit object runs with its staff owner's rank (MUX's Inherits).
    const actor = conn ? me : withInheritedRank(ports.objects.world, me);
    // Most commands' lock is `connected`, which every actor running a line passes.
    if (lock !== "connected" && !checkLock(lock, subjectOf(actor), { world: ports.locks })) {
      return reply(ports, run, DENIED);
    }
    const bad = badSwitch(command, found.cmd.switches);
    if (bad) return reply(ports, run, bad);
    if (isGuest(me.flags) && !guestMay(command, found.cmd.switches)) {
      return reply(ports, run, GUEST_DENIED);
    }
    const u = buildSdk(ports, conn, {
      me: actor,
      here,
      cmd: found.cmd,
      args: found.args,
      frame,
    });
    // MUX evaluates a built-in command's arguments before it runs (src/commands/arguments.ts);
    // an owner's script reads its own.
    const how = command.owner === SCRIPT_OWNER ? null : argEvaluation(command.name);
    if (how) u.cmd = evaluatedLine(u.cmd, how, conn === null, u);
    return settled(ports, run, name, command.exec(u));
  } catch (err) {
    failed(ports, run, name, err);
  }
}

/** A command's result: nothing when it finished in the call, else its promise, never rejected. */
function settled(
  ports: CommandPorts,
  run: LineRun,
  name: string,
  result: void | Promise<void>,
): void | Promise<void> {
  if (result === undefined) return;
  return Promise.resolve(result).then(undefined, (err) => failed(ports, run, name, err));
}

/**
 * Tells the actor what went wrong: a command's own error as it is, anything unexpected as
 * FAILED (logged with the command's name). `wrongDir` below: the way a move was tried that goes
 * nowhere (GMCP clients get Room.WrongDir).
 */
function failed(ports: CommandPorts, run: LineRun, name: string, err: unknown): void {
  if (err instanceof WrongWayError) {
    reply(ports, run, err.message, err.dir);
  } else if (err instanceof CommandError || err instanceof EngineError) {
    reply(ports, run, err.message);
  } else {
    console.error(`commands: '${name}' failed for #${run.actor}:`, err);
    reply(ports, run, FAILED);
  }
}

/** An error reply to the actor: on its connections when it typed the line, else as MUX tells. */
function reply(ports: CommandPorts, run: LineRun, msg: string, wrongDir?: string): void {
  const out = {
    msg,
    data: wrongDir === undefined ? { type: "error", msg } : { type: "error", msg, wrongDir },
  };
  if (run.conn) ports.deliver.toPlayer(run.actor, out);
  else tell(ports, run.actor, out);
}

/** A queued line cleaned as the hub cleans a typed one, or null when it is too long. */
function queuedLine(line: string): string | null {
  if (tooLong(line)) return null;
  const clean = sanitizeLine(line, MAX_LINE + 1);
  return overMaxLine(clean) ? null : clean;
}

/**
 * MUX's `#<dbref> <command>`, short for `@force #<dbref>=<command>` (checked before any command
 * is matched, as MUX does): the line as `@force` reads it, or null for any other line.
 */
export function forceShortcut(line: string): string | null {
  // Asked of every line: only one whose first word starts with `#` needs the expression.
  if (line.trimStart()[0] !== "#") return null;
  const m = /^\s*#(\d{1,15})\s+(\S[\s\S]*)$/.exec(line);
  return m ? `@force #${m[1]}=${m[2]}` : null;
}

/** Evaluation flags MUX reads a line with before it matches `$-commands`. */
const LINE_FLAGS = EV.EVAL | EV.FCHECK | EV.STRIP_CURLY | EV.TOP;

/** Characters without which a line evaluates to itself. */
const SPECIAL = /[[%\\{(]/;

/**
 * Queues the `$-commands` a line matches around `me` (each as its object, `me` the enactor,
 * joining the chain of the entry that ran the line); answers whether any matched. The line is
 * matched as `me` evaluates it, as MUX does (as typed by attributes set `no_parse`).
 */
function runPrograms(
  ports: CommandPorts,
  me: DbObject,
  here: DbObject | null,
  line: string,
  frame: QueueFrame,
): boolean {
  const raw = line.trim();
  const evaluated = SPECIAL.test(raw)
    ? stripMarkup(
      ports.softcode.evaluate(raw, {
        executor: me.id,
        enactor: frame.enactor,
        caller: frame.caller,
        args: frame.args,
        regs: frame.regs,
        chain: frame.chain,
        command: raw,
        flags: LINE_FLAGS,
      }),
    )
    : raw;
  // Matching is paid for as an evaluation by the line's payer, and ends when its time does: a
  // player's thousands of `$-commands` (or regular expressions against a long line) around it
  // held every player for seconds a line, uncharged.
  const found = ports.softcode.metered(
    { executor: me.id, enactor: frame.enactor, caller: frame.caller, chain: frame.chain },
    (more) => ports.programs.match(me, here, { raw, evaluated }, more),
  );
  for (const job of ports.programs.jobs(me, found)) {
    ports.queue.enqueue({ ...job, chain: frame.chain });
  }
  return found.length > 0;
}

/**
 * `@core/<command line>` and `@plugin/<command line>`: staff run the core (or plugin) command
 * a system script or plugin replaced, so a broken replacement cannot lock an owner out.
 */
function layerPrefix(
  cmd: ParsedLine,
): { inner: ParsedLine | null; only: (e: CommandEntry) => boolean } | null {
  // The command word is lower-cased with its switches: no other line needs the expression.
  if (!cmd.name.startsWith("@core") && !cmd.name.startsWith("@plugin")) return null;
  const m = /^@(core|plugin)\/(.*)$/is.exec(cmd.raw.trimStart());
  if (!m) return null;
  const layer = m[1].toLowerCase() === "core" ? 0 : 1;
  return { inner: parseLine(m[2]), only: (e) => layerOf(e) === layer };
}

/**
 * Why the switches are refused, or null. Commands that list switches take only those;
 * commands without a list take none, unless their pattern reads the line itself.
 */
export function badSwitch(
  command: Pick<CommandEntry, "name" | "switches" | "matcher" | "lateSwitches">,
  switches: readonly string[],
): string | null {
  if (!switches.length || command.lateSwitches || (!command.switches && command.matcher)) {
    return null;
  }
  const allowed = command.switches ?? [];
  const unknown = switches.find((s) => !allowed.includes(s));
  if (unknown === undefined) return null;
  const shown = unknown.length > 32 ? `${unknown.slice(0, 32)}...` : unknown;
  return allowed.length
    ? `Unknown switch /${shown} for ${command.name}. Switches: ${
      allowed.map((s) => `/${s}`).join(", ")
    }.`
    : `${command.name} takes no switches (got /${shown}).`;
}

/** True when a guest may run `command` with these switches (its `guests` field says). */
export function guestMay(
  command: Pick<CommandEntry, "guests">,
  switches: readonly string[],
): boolean {
  const g = command.guests;
  if (g === true) return true;
  if (!g) return false;
  return switches.length ? switches.every((s) => g.includes(s)) : g.includes("");
}

/** Cheap bound before sanitizing: more UTF-16 units than any allowed line could need. */
function tooLong(line: string): boolean {
  // Control characters are stripped by sanitizing, but a line this long is refused regardless.
  return line.length > MAX_LINE * 4;
}
