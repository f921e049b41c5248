/** Builds the SDK object `u` a command's exec receives. */
import type { Services } from "../services.ts";
import type { DbObject } from "../world/types.ts";
import type { HubConnection, OutboundData } from "../hub/types.ts";
import type { ParsedLine } from "./parser.ts";
import type { CommandSdk } from "./types.ts";
import { checkLock, type LockSubject } from "../world/locks.ts";
import { findTarget } from "./target.ts";
import { EV, toWire } from "../softcode/mod.ts";

/** How MUX evaluates a command's argument (say, pose, @emit: CS_INTERP). */
const PLAYER_TEXT_FLAGS = EV.EVAL | EV.STRIP_CURLY | EV.FCHECK | EV.TOP;

/** Player text evaluated when the game says so (`softcode.evaluatePlayerText`). */
function playerText(services: Services, me: DbObject, command: string, text: string): string {
  if (!services.config.value.softcode.evaluatePlayerText) return text;
  return toWire(
    services.softcode.evaluate(text, { executor: me.id, command, flags: PLAYER_TEXT_FLAGS }),
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
export function buildSdk(services: Services, conn: HubConnection, parts: SdkParts): CommandSdk {
  const deliver = services.deliver;
  const { me, here } = parts;
  return {
    me,
    here,
    cmd: parts.cmd,
    args: parts.args,
    conn,
    services,
    online: services.presence,
    deliver,
    send(msg: string, data?: OutboundData) {
      deliver.toPlayer(me.id, data ? { msg, data } : { msg });
    },
    emitRoom(roomId: string, msg: string, exclude: readonly string[] = [], data?: OutboundData) {
      deliver.toRoom(roomId, data ? { msg, data } : { msg }, exclude);
    },
    target: (ref: string) => findTarget(services, me, here, ref),
    passes: (lock: string) => checkLock(lock, subjectOf(me)),
    playerText: (text: string) => playerText(services, me, parts.cmd.raw, text),
  };
}
