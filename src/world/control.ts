/** Who controls an object, and whom staff may act on: the engine's control rules. */
import type { ObjectHead } from "./types.ts";
import { hasFlag, isStaff, levelOf } from "./flags.ts";
import type { LockWorld } from "./locks.ts";
import { zoneControls } from "./zones.ts";

/**
 * True when staff `actor` may act on player `target`: on itself, or on players below its own
 * level; only the superuser acts on staff of equal rank (one admin cannot take over another's
 * account). Callers check that the actor is staff.
 */
export function mayActOn(
  actor: Pick<ObjectHead, "id" | "flags">,
  target: Pick<ObjectHead, "id" | "flags">,
): boolean {
  return actor.id === target.id || hasFlag(actor.flags, "superuser") ||
    levelOf(target.flags) < levelOf(actor.flags);
}

/**
 * What control reads of the world: objects by id (an inherit object's owner) and locks. The
 * engine's one lock world (src/world/lock_world.ts) is it.
 */
export type ControlWorld = LockWorld;

/** What control reads of an object. */
export type Controlled = Pick<ObjectHead, "id" | "flags" | "owner">;

/**
 * The engine's one control check, MUX's Controls(): `actor` (a player, or an object acting)
 * may change `target`. An object acts with its owner's powers when it is `inherit`
 * (`actingAs`); staff control everything but staff of their own rank or above (`mayActOn`:
 * an admin cannot take over another admin or the superuser); otherwise objects of one owner
 * control each other, except that only an `inherit` object (or the player itself) controls the
 * player or an `inherit` object; and whoever passes the enter lock of a zone master controls the
 * objects of its zone (`zoneControls`: not players, staff or `inherit` objects). `world` is the
 * engine's lock world (null where none is at hand: an inherit object then acts with its own
 * powers only, and no zone gives control).
 */
export function controls(
  actor: Controlled,
  target: Controlled,
  world: ControlWorld | null,
): boolean {
  if (actor.id === target.id) return true;
  const powers = world ? actingAs(world, actor) : actor;
  if (isStaff(powers.flags)) return !isStaff(target.flags) || mayActOn(powers, target);
  if (
    ownerOf(actor) === ownerOf(target) && !isStaff(target.flags) &&
    (inherits(actor) || !inherits(target))
  ) return true;
  // Last, as MUX checks it: the only step that evaluates a lock.
  return world !== null && zoneControls(actor, target, world);
}

/**
 * True when `viewer` sees `target` as its controller does (MUX's Examinable() but for VISUAL:
 * See_All, one owner, or a zone): staff see everything (an admin sees a dark admin, whom it does
 * not control), others what they control and whatever their owner owns (a player's object that
 * is not `inherit` examines the player, whom it does not control). The rule of what is hidden,
 * `examine` and attributes.
 */
export function examines(
  viewer: Controlled,
  target: Controlled,
  world: ControlWorld | null,
): boolean {
  return isStaff((world ? actingAs(world, viewer) : viewer).flags) ||
    ownerOf(viewer) === ownerOf(target) || controls(viewer, target, world);
}

/** The player who owns `o` (a player owns itself; MUX's Owner()). */
export function ownerOf(o: Controlled): string {
  return hasFlag(o.flags, "player") || !o.owner ? o.id : o.owner;
}

/** MUX's Inherits(): a player, or an object set `inherit`. */
function inherits(o: Pick<ObjectHead, "flags">): boolean {
  return hasFlag(o.flags, "player") || hasFlag(o.flags, "inherit");
}

/**
 * Whose powers `actor` acts with (MUX's Inherits): an object set `inherit` acts with its owner's
 * (a staff member's master-room object may `@pemit` a player anywhere, as on MUX); anything else
 * with its own.
 */
export function actingAs<T extends Controlled>(
  world: { object(id: string): T | null },
  actor: T,
): T {
  if (hasFlag(actor.flags, "player") || !hasFlag(actor.flags, "inherit") || !actor.owner) {
    return actor;
  }
  return world.object(actor.owner) ?? actor;
}
