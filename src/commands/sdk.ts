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
  return new Sdk(ports, conn, parts);
}

/**
 * One command's `u`: the line and its actor as fields beside the ports, the operations as
 * methods (made once for every command, not as closures per command).
 */
class Sdk implements CommandSdk {
  me: DbObject;
  here: DbObject | null;
  cmd: ParsedLine;
  args: string[];
  /** Absent (undefined) for a line no player typed. */
  conn: HubConnection | undefined;
  frame: QueueFrame;
  width: number;
  objects: CommandPorts["objects"];
  attributes: CommandPorts["attributes"];
  locks: CommandPorts["locks"];
  players: CommandPorts["players"];
  presence: CommandPorts["presence"];
  deliver: CommandPorts["deliver"];
  events: CommandPorts["events"];
  softcode: CommandPorts["softcode"];
  queue: CommandPorts["queue"];
  programs: CommandPorts["programs"];
  rates: CommandPorts["rates"];
  engine: CommandPorts["engine"];
  /** The line as typed or queued, whatever `cmd` becomes once its arguments are evaluated. */
  readonly #raw: string;

  constructor(ports: CommandPorts, conn: HubConnection | null, parts: SdkParts) {
    this.me = parts.me;
    this.here = parts.here;
    this.cmd = parts.cmd;
    this.args = parts.args;
    this.conn = conn ?? undefined;
    this.frame = parts.frame;
    this.width = conn?.width ?? ports.presence.connections(parts.me.id)[0]?.width ?? 78;
    this.objects = ports.objects;
    this.attributes = ports.attributes;
    this.locks = ports.locks;
    this.players = ports.players;
    this.presence = ports.presence;
    this.deliver = ports.deliver;
    this.events = ports.events;
    this.softcode = ports.softcode;
    this.queue = ports.queue;
    this.programs = ports.programs;
    this.rates = ports.rates;
    this.engine = ports.engine;
    this.#raw = parts.cmd.raw;
  }

  evaluate(text: string, flags: number = TOP_FLAGS): string {
    const frame = this.frame;
    return this.softcode.evaluate(text, {
      executor: this.me.id,
      enactor: frame.enactor,
      caller: frame.caller,
      args: frame.args,
      regs: frame.regs,
      chain: frame.chain,
      command: this.#raw,
      flags,
      // A line a player typed is seen once; the queue's lines come from attributes.
      typed: this.conn !== undefined,
    });
  }

  send(msg: string, data?: OutboundData): void {
    tell(this, this.me.id, data ? { msg, data } : { msg });
  }

  emitRoom(
    roomId: string,
    msg: string,
    exclude: readonly string[] = [],
    data?: OutboundData,
  ): void {
    const out = data ? { msg, data } : { msg };
    const me = this.me;
    // The actor said or showed it: the room's listening objects hear it too.
    this.deliver.toRoom(roomId, out, exclude, me.id);
    // An object a player carries speaks inside the player, who hears it (MUX's notify of a
    // location reaches the location itself).
    const inside = me.location === roomId ? this.objects.world?.object(roomId) : null;
    if (inside?.flags.includes("player") && !exclude.includes(roomId)) {
      this.deliver.toPlayer(roomId, out);
    }
  }

  target(ref: string): Promise<DbObject> {
    return findTarget(this, this.me, this.here, ref);
  }

  passes(lock: string, on?: string): boolean {
    return checkLock(lock, subjectOf(this.me), { world: this.locks, on });
  }

  playerText(text: string): string {
    // An object's queued or forced line is code, evaluated as MUX always does (packages
    // `@emit [...]`); a player's typed text only when the game asks for it.
    return this.conn === undefined || this.engine.config.value.softcode.evaluatePlayerText
      ? toWire(this.evaluate(text, PLAYER_TEXT_FLAGS))
      : text;
  }

  didIt(actor: DbObject, thing: DbObject, where: string | null, verb: Verb): void {
    didIt(this, actor, thing, where, verb);
  }
}
