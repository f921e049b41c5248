/** Moving the actor between rooms: exits, `home`, and the messages around a move. */
import type { DbObject } from "../world/types.ts";
import type { CommandSdk } from "./types.ts";
import { normalizeId } from "../world/ids.ts";
import { objectLockVerdict } from "../world/locks.ts";
import { CommandError, WrongWayError } from "./errors.ts";
import { namesOf } from "./format.ts";
import { MAX_ROOM_EXITS } from "../world/objects.ts";
import type { WorldReader } from "../world/live_world.ts";
import { displayName } from "../world/players.ts";
import { hearsWhereItIs, movedData, moveHeard } from "../world/move_heard.ts";
import { viewHeard } from "../world/hearing.ts";
import type { Outbound } from "../hub/types.ts";
import { lookIn } from "./looking.ts";
import { didIt, messageOf, runAction, tellOthers } from "./did_it.ts";
import { subjectOf } from "./sdk.ts";
import { lowerCase } from "../text/lower.ts";

/** What a refused move says when its exit has no `@fail`. */
const CANT_GO = "You can't go that way.";

/** Lines longer than this are never exit names, so they skip the exit lookup. */
const MAX_EXIT_LINE = 200;
/** Lines starting with these are commands or speech, never exit names. */
const NOT_EXIT_START = new Set(['"', ":", ";", "\\", "&", "@", "+"]);

/** True when a line could be an exit name (cheap test before any lookup). */
export function mayBeExit(line: string): boolean {
  const typed = line.trim();
  return typed.length > 0 && typed.length <= MAX_EXIT_LINE && !NOT_EXIT_START.has(typed[0]);
}

/** The exit in room `roomId` whose name or alias is the whole line, or null. */
export async function matchExit(
  u: Pick<CommandSdk, "objects">,
  roomId: string | null | undefined,
  line: string,
): Promise<DbObject | null> {
  if (!roomId || !mayBeExit(line)) return null;
  const typed = lowerCase(line.trim());
  const exits = await u.objects.exitsIn(roomId);
  return exits.find((e) => namesOf(e).includes(typed)) ?? null;
}

/**
 * The exit in room `roomId` whose name or alias is the whole line, or null: from the world in
 * memory, without waiting (the exit returned is the held record, frozen).
 */
export function heldExit(
  world: WorldReader,
  roomId: string | null | undefined,
  line: string,
): DbObject | null {
  if (!roomId || !mayBeExit(line)) return null;
  const ids = world.contentsOfType(roomId, "exit");
  if (ids.length === 0) return null;
  const typed = lowerCase(line.trim());
  const end = Math.min(ids.length, MAX_ROOM_EXITS);
  for (let i = 0; i < end; i++) {
    const exit = world.object(ids[i]);
    if (exit !== null && namesOf(exit).includes(typed)) return exit;
  }
  return null;
}

/**
 * Moves the actor through an exit, checking the exit's lock and the destination's enter lock;
 * `typed` is what the player typed to take it (named in the refusal's WrongWayError). The exit's
 * `@fail` family answers a refusal by its lock, its `@succ` family the way out and its `@drop`
 * family the way in (MUX's move_exit).
 */
export async function goThrough(u: CommandSdk, exit: DbObject, typed: string): Promise<void> {
  const subject = subjectOf(u.me);
  const dir = typed.trim();
  const through = objectLockVerdict(u.locks, exit, "basic", subject);
  if (!through.pass) {
    // A broken lock says what is wrong; otherwise the exit's @fail family answers.
    const msg = through.problem ?? messageOf(u, u.me, exit, "FAIL", CANT_GO);
    tellOthers(u, u.me, exit, u.me.location, "OFAIL");
    runAction(u, u.me, exit, "AFAIL");
    // A @fail that evaluates to nothing says nothing, as in MUX.
    if (msg) throw new WrongWayError(msg, dir);
    return;
  }
  const destId = normalizeId(String(exit.data.destination ?? ""));
  const dest = destId ? await u.objects.get(destId) : null;
  if (!dest || !dest.flags.includes("room")) {
    throw new WrongWayError("That exit doesn't lead anywhere.", dir);
  }
  const enter = objectLockVerdict(u.locks, dest, "enter", subject);
  if (!enter.pass) throw new WrongWayError(enter.problem ?? CANT_GO, dir);
  didIt(u, u.me, exit, u.me.location, { what: "SUCC", owhat: "OSUCC", awhat: "ASUCC" });
  await moveActor(u, dest, { exit });
}

/** What a move says to the actor. */
export interface MoveNotes {
  /** Told to the actor, each on its own, before the new room is shown (`home`'s lines). */
  notes?: readonly string[];
  /** The exit taken: its `@drop` family follows the arrival. */
  exit?: DbObject;
}

/**
 * Moves the actor to `dest`: updates the store (whose change event moves the actor in the
 * hub's room index), announces the departure and arrival as MUX's move does (moveHeard: one that
 * hears, a connected player or a puppet, is heard; dark places and objects are not), and shows
 * the new room to the actor (a puppet's owner, each line after the puppet's name). On the way,
 * in MUX's order (move.cpp): the place left's `@leave` family and the destination's `@oxenter`
 * there; then the new room is looked at, the exit's `@drop` family, the actor's own `@move`
 * family, the destination's `@enter` family and the place left's `@oxleave`.
 */
export async function moveActor(
  u: CommandSdk,
  dest: DbObject,
  notes: MoveNotes = {},
): Promise<void> {
  const from = u.me.location;
  if (from === dest.id) throw new CommandError("You're already there.");
  const src = u.here && u.here.id === from ? u.here : null;
  if (src) {
    didIt(u, u.me, src, from, { what: "LEAVE", owhat: "OLEAVE", awhat: "ALEAVE" });
    tellOthers(u, u.me, dest, from, "OXENTER");
  }
  // Whether it hears is asked before it moves, as MUX's Hearer().
  const hears = hearer(u, u.me);
  const left = src ?? (from ? u.locks.object(from) : null) ?? (from ? { flags: [] } : null);
  const moved = await u.objects.update(u.me.id, (o) => {
    o.location = dest.id;
  });
  const heard = moveHeard(u.locks, moved, left, hears);
  const name = displayName(moved);
  if (from && heard.left) {
    u.emitRoom(from, `${name} has left.`, [moved.id], movedData(moved, "leave", from));
  }
  for (const line of notes.notes ?? []) u.send(line);
  showView(u, moved, await lookIn(u, moved, dest, u.width));
  if (notes.exit) {
    didIt(u, moved, notes.exit, dest.id, { what: "DROP", owhat: "ODROP", awhat: "ADROP" });
  }
  didIt(u, moved, moved, dest.id, { what: "MOVE", owhat: "OMOVE", awhat: "AMOVE" });
  didIt(u, moved, dest, dest.id, { what: "ENTER", owhat: "OENTER", awhat: "AENTER" });
  if (src) tellOthers(u, moved, src, dest.id, "OXLEAVE");
  if (heard.arrived) {
    u.emitRoom(dest.id, `${name} has arrived.`, [moved.id], movedData(moved, "arrive", dest.id));
  }
}

/** MUX's Hearer() of `o` as commands see it (hearsWhereItIs), asked before it moves. */
export function hearer(u: Pick<CommandSdk, "presence" | "programs">, o: DbObject): boolean {
  return hearsWhereItIs(o, {
    isConnected: (id) => u.presence.isOnline(id),
    listens: (x) => u.programs.listens(x),
  });
}

/** Shows `viewer` a view (a room it looks at): a player, or a puppet's owner line by line. */
export function showView(u: Pick<CommandSdk, "deliver">, viewer: DbObject, view: Outbound): void {
  const seen = viewHeard(viewer, view);
  if (seen) u.deliver.toPlayer(seen.player, seen.out);
}
