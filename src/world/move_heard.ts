/**
 * What the places around a move hear of it, as MUX's process_leave_loc and process_enter_loc
 * (move.cpp) have it: one rule for walking, going home and being teleported.
 */
import type { DbObject } from "./types.ts";
import type { Delivery } from "../hub/types.ts";
import { hasFlag } from "./flags.ts";
import { displayName } from "./players.ts";
import { isDarkWizard } from "./building.ts";
import { hearerOf } from "./hearing.ts";

/** Reads an object by id (the place left; the owner of an inherit object, for its rank). */
export type ObjectReader = { object(id: string): DbObject | null };

/**
 * What MUX's Hearer() reads besides the object's flags: whether a player is connected, and
 * whether an object listens (a non-empty `@listen`, or `^-listens` on a `monitor` object:
 * src/softcode/programs).
 */
export interface HearerReads {
  isConnected(id: string): boolean;
  listens(o: DbObject): boolean;
}

/**
 * MUX's Hearer(): whether `o` hears where it is, asked before it moves: a connected player, a
 * puppet, or an object that listens (`@listen`, or a `monitor` object's `^-listens`).
 */
export function hearsWhereItIs(o: DbObject, reads: HearerReads): boolean {
  if (hasFlag(o.flags, "player") && reads.isConnected(o.id)) return true;
  return hasFlag(o.flags, "puppet") || reads.listens(o);
}

/**
 * Whether the place `moved` left (`from`, null for none) hears `<name> has left.` and the place
 * it reached `<name> has arrived.`: the place left hears it unless the object or the place is
 * dark, and one that hears (`hears`: hearsWhereItIs) is heard leaving anyway; only one that
 * hears is heard arriving; a dark wizard is heard by neither. Dark is MUX's Dark() (isDark).
 * `world` reads the owner of an inherit object.
 */
export function moveHeard(
  world: ObjectReader,
  moved: DbObject,
  from: Pick<DbObject, "flags"> | null,
  hears: boolean,
): { left: boolean; arrived: boolean } {
  const hidden = isDarkWizard(world, moved);
  const dark = isDark(world, moved) || hasFlag(from?.flags ?? [], "dark");
  return { left: from !== null && (!dark || (hears && !hidden)), arrived: hears && !hidden };
}

/**
 * MUX's Dark(): set dark, where a player's or a puppet's dark flag holds only for a wizard (a
 * dark wizard: isDarkWizard).
 */
export function isDark(world: ObjectReader, o: DbObject): boolean {
  if (!hasFlag(o.flags, "dark")) return false;
  return isDarkWizard(world, o) || !(hasFlag(o.flags, "player") || hasFlag(o.flags, "puppet"));
}

/** The data a client gets with `<name> has left.` or `<name> has arrived.`. */
export function movedData(moved: DbObject, type: "leave" | "arrive", room: string) {
  const about = hasFlag(moved.flags, "player")
    ? { who: { id: moved.id, name: moved.name } }
    : { item: { id: moved.id, name: moved.name } };
  return { type, ...about, room };
}

/**
 * Tells `from`, the place `moved` left, `<name> has left.` when moveHeard says it hears it. As
 * MUX's notify_except2, `moved` says it: the place's listening objects hear it (`@listen`,
 * `^-listens`, with `%#` the one that moved; the place itself among them), and so do puppets'
 * owners elsewhere; the place itself is told it too (tellPlace: a player that carried it, a
 * puppet's owner). MUX's `cause` of the move, when given, is not told.
 */
export function announceLeaving(
  deliver: Pick<Delivery, "toRoom" | "toPlayer">,
  world: ObjectReader,
  moved: DbObject,
  from: string,
  hears: boolean,
  cause?: string,
): void {
  // A place that cannot be read is left as one that is not dark.
  const place = from ? world.object(from) ?? { flags: [] } : null;
  if (!place || !moveHeard(world, moved, place, hears).left) return;
  const msg = `${displayName(moved)} has left.`;
  const exclude = cause ? [moved.id, cause] : [moved.id];
  const out = { msg, data: movedData(moved, "leave", from) };
  deliver.toRoom(from, out, exclude, moved.id);
  if (!exclude.includes(from)) tellPlace(deliver, world.object(from), out);
}

/**
 * Tells the place `moved` is in now `<name> has arrived.` when moveHeard says it hears it, said
 * by `moved` as `announceLeaving`'s line is, the place itself told too (a player whose hands it
 * reached, a puppet's owner). `world` reads the place, as it is now or was before the move.
 */
export function announceArrival(
  deliver: Pick<Delivery, "toRoom" | "toPlayer">,
  world: ObjectReader,
  moved: DbObject,
  hears: boolean,
): void {
  if (!moved.location || !moveHeard(world, moved, null, hears).arrived) return;
  const msg = `${displayName(moved)} has arrived.`;
  const out = { msg, data: movedData(moved, "arrive", moved.location) };
  deliver.toRoom(moved.location, out, [moved.id], moved.id);
  tellPlace(deliver, world.object(moved.location), out);
}

/**
 * Tells `place` itself (null: nothing) what is said in it, as MUX's notify_except2 tells its
 * `loc` (notify_check with MSG_ME): a player hears it; a puppet's owner, wherever it is, with the
 * puppet's name in front and the text alone (its data describes the puppet's place, not the
 * owner's). What the place's own listening makes of it is heard where the place is told as a
 * room (Delivery.toRoom: a thing's `@listen` is matched there).
 */
function tellPlace(
  deliver: Pick<Delivery, "toPlayer">,
  place: DbObject | null,
  out: { msg: string; data: ReturnType<typeof movedData> },
): void {
  const h = place && hearerOf(place);
  if (!h) return;
  deliver.toPlayer(h.player, h.prefix ? { msg: h.prefix + out.msg } : out);
}
