/** Builds the SDK object `u` a command's exec receives. */
import type { DbObject } from "../world/types.ts";
import type { HubConnection, OutboundData } from "../hub/types.ts";
import type { ParsedLine } from "./parser.ts";
import type { CommandPorts, CommandSdk, Verb } from "./types.ts";
import { checkLock, type LockSubject } from "../world/locks.ts";
import { findTarget } from "./target.ts";
import { EV, TOP_FLAGS, toWire } from "../softcode/mod.ts";
import type { QueueFrame } from "../queue/types.ts";
import { CommandError } from "./errors.ts";
import { didIt } from "./did_it.ts";
import { tell } from "./tell.ts";

export { tell };

/** How MUX evaluates a command's argument (say, pose, @emit: CS_INTERP). */
const PLAYER_TEXT_FLAGS = EV.EVAL | EV.STRIP_CURLY | EV.FCHECK | EV.TOP;

/** The lock subject of an actor running a command (a player, or an object the queue runs). */
export function subjectOf(me: DbObject): LockSubject {
  return { id: `#${me.id}`, flags: me.flags, connected: true };
}

/** What one command invocation sees. */
export interface SdkParts {
  me: DbObject;
  here: DbObject | null;
  cmd: ParsedLine;
  args: string[];
  /** The line's enactor, arguments and registers (a typed line: the actor's own). */
  frame: QueueFrame;
}

/** The connection a command needs (a password, a token shown once), or a clear refusal. */
export function needConnection(u: Pick<CommandSdk, "conn" | "cmd">): HubConnection {
  if (!u.conn) {
    throw new CommandError(`${u.cmd.name} must be typed by a connected player, not queued.`);
  }
  return u.conn;
}

/** The SDK for one command run by `parts.me`, from `conn` when a player typed it. */
export function buildSdk(
  ports: CommandPorts,
  conn: HubConnection | null,
  parts: SdkParts,
): CommandSdk {
  const deliver = ports.deliver;
  const { me, here, frame } = parts;
  const evaluate = (text: string, flags: number = TOP_FLAGS) =>
    ports.softcode.evaluate(text, {
      executor: me.id,
      enactor: frame.enactor,
      caller: frame.caller,
      args: frame.args,
      regs: frame.regs,
      chain: frame.chain,
      command: parts.cmd.raw,
      flags,
      // A line a player typed is seen once; the queue's lines come from attributes.
      typed: conn !== null,
    });
  const u: CommandSdk = {
    me,
    here,
    cmd: parts.cmd,
    args: parts.args,
    // Absent for a queued line (no spread of an object for it: that copies at run time).
    conn: conn ?? undefined,
    frame,
    width: conn?.width ?? ports.presence.connections(me.id)[0]?.width ?? 78,
    evaluate,
    objects: ports.objects,
    attributes: ports.attributes,
    locks: ports.locks,
    players: ports.players,
    presence: ports.presence,
    deliver,
    events: ports.events,
    softcode: ports.softcode,
    queue: ports.queue,
    programs: ports.programs,
    engine: ports.engine,
    send(msg: string, data?: OutboundData) {
      tell(ports, me.id, data ? { msg, data } : { msg });
    },
    emitRoom(roomId: string, msg: string, exclude: readonly string[] = [], data?: OutboundData) {
      const out = data ? { msg, data } : { msg };
      // The actor said or showed it: the room's listening objects hear it too.
      deliver.toRoom(roomId, out, exclude, me.id);
      // An object a player carries speaks inside the player, who hears it (MUX's notify of a
      // location reaches the location itself).
      const inside = me.location === roomId ? ports.objects.world?.object(roomId) : null;
      if (inside?.flags.includes("player") && !exclude.includes(roomId)) {
        deliver.toPlayer(roomId, out);
      }
    },
    target: (ref: string) => findTarget(ports, me, here, ref),
    passes: (lock: string, on?: string) =>
      checkLock(lock, subjectOf(me), { world: ports.locks, on }),
    // An object's queued or forced line is code, evaluated as MUX always does (packages
    // `@emit [...]`); a player's typed text only when the game asks for it.
    playerText: (text: string) =>
      conn === null || ports.engine.config.value.softcode.evaluatePlayerText
        ? toWire(evaluate(text, PLAYER_TEXT_FLAGS))
        : text,
    didIt: (actor: DbObject, thing: DbObject, where: string | null, verb: Verb) =>
      didIt(u, actor, thing, where, verb),
  };
  return u;
}
