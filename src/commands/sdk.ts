/** Builds the SDK object `u` a command's exec receives. */
import type { DbObject } from "../world/types.ts";
import type { HubConnection, OutboundData } from "../hub/types.ts";
import type { ParsedLine } from "./parser.ts";
import type { CommandPorts, CommandSdk } from "./types.ts";
import { checkLock, type LockSubject } from "../world/locks.ts";
import { findTarget } from "./target.ts";
import { EV, toWire } from "../softcode/mod.ts";

/** How MUX evaluates a command's argument (say, pose, @emit: CS_INTERP). */
const PLAYER_TEXT_FLAGS = EV.EVAL | EV.STRIP_CURLY | EV.FCHECK | EV.TOP;

/** Player text evaluated when the game says so (`softcode.evaluatePlayerText`). */
function playerText(ports: CommandPorts, me: DbObject, command: string, text: string): string {
  if (!ports.engine.config.value.softcode.evaluatePlayerText) return text;
  return toWire(
    ports.softcode.evaluate(text, { executor: me.id, command, flags: PLAYER_TEXT_FLAGS }),
  );
}

/** The lock subject of a connected actor. */
export function subjectOf(me: DbObject): LockSubject {
  return { id: `#${me.id}`, flags: me.flags, connected: true };
}

/** What one command invocation sees. */
export interface SdkParts {
  me: DbObject;
  here: DbObject | null;
  cmd: ParsedLine;
  args: string[];
}

/** The SDK for one command run by `parts.me` from `conn`. */
export function buildSdk(ports: CommandPorts, conn: HubConnection, parts: SdkParts): CommandSdk {
  const deliver = ports.deliver;
  const { me, here } = parts;
  return {
    me,
    here,
    cmd: parts.cmd,
    args: parts.args,
    conn,
    objects: ports.objects,
    attributes: ports.attributes,
    players: ports.players,
    presence: ports.presence,
    deliver,
    events: ports.events,
    softcode: ports.softcode,
    engine: ports.engine,
    send(msg: string, data?: OutboundData) {
      deliver.toPlayer(me.id, data ? { msg, data } : { msg });
    },
    emitRoom(roomId: string, msg: string, exclude: readonly string[] = [], data?: OutboundData) {
      deliver.toRoom(roomId, data ? { msg, data } : { msg }, exclude);
    },
    target: (ref: string) => findTarget(ports, me, here, ref),
    passes: (lock: string) => checkLock(lock, subjectOf(me)),
    playerText: (text: string) => playerText(ports, me, parts.cmd.raw, text),
  };
}
