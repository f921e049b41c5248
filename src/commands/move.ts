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
import { roomView } from "./room_view.ts";
import { subjectOf } from "./sdk.ts";
import { lowerCase } from "../text/lower.ts";

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
 * `typed` is what the player typed to take it (named in the refusal's WrongWayError).
 */
export async function goThrough(u: CommandSdk, exit: DbObject, typed: string): Promise<void> {
  const subject = subjectOf(u.me);
  const dir = typed.trim();
  const through = objectLockVerdict(u.locks, exit, "basic", subject);
  if (!through.pass) throw new WrongWayError(through.problem ?? "You can't go that way.", dir);
  const destId = normalizeId(String(exit.data.destination ?? ""));
  const dest = destId ? await u.objects.get(destId) : null;
  if (!dest || !dest.flags.includes("room")) {
    throw new WrongWayError("That exit doesn't lead anywhere.", dir);
  }
  const enter = objectLockVerdict(u.locks, dest, "enter", subject);
  if (!enter.pass) throw new WrongWayError(enter.problem ?? "You can't go that way.", dir);
  await moveActor(u, dest);
}

/**
 * Moves the actor to `dest`: updates the store (whose change event moves the actor in the
 * hub's room index), announces the departure and arrival, and shows the new room to the actor.
 */
export async function moveActor(u: CommandSdk, dest: DbObject, note?: string): Promise<void> {
  const from = u.me.location;
  if (from === dest.id) throw new CommandError("You're already there.");
  const moved = await u.objects.update(u.me.id, (o) => {
    o.location = dest.id;
  });
  const name = displayName(moved);
  const who = { id: moved.id, name: moved.name };
  if (from) {
    u.emitRoom(from, `${name} has left.`, [moved.id], { type: "leave", who, room: from });
  }
  u.emitRoom(dest.id, `${name} has arrived.`, [moved.id], { type: "arrive", who, room: dest.id });
  if (note) u.send(note);
  const view = await roomView(u, moved, dest, u.width);
  u.send(view.msg, view.data);
}
