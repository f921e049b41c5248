/** Who controls an object, and whom staff may act on: the engine's control rules. */
import type { ObjectHead } from "./types.ts";
import { hasFlag, isStaff, levelOf } from "./flags.ts";

/** True for the owner or staff (admin, wizard, superuser). */
export function canControl(
  actor: Pick<ObjectHead, "id" | "flags">,
  obj: Pick<ObjectHead, "id" | "owner">,
): boolean {
  return isStaff(actor.flags) || obj.owner === actor.id || obj.id === actor.id;
}

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
 * MUX's Controls() for an object acting on another (`@trigger`, `@force`, the queue): staff
 * control what `canControl` says, but staff (a staff player or object) only below their own
 * rank (`mayActOn`: an admin cannot make the superuser act); otherwise objects of one owner
 * control each other, except that only an `inherit` object (or the player itself) controls the
 * player or an `inherit` object.
 */
export function objectControls(
  actor: Pick<ObjectHead, "id" | "flags" | "owner">,
  target: Pick<ObjectHead, "id" | "flags" | "owner">,
): boolean {
  if (actor.id === target.id) return true;
  if (isStaff(actor.flags)) return !isStaff(target.flags) || mayActOn(actor, target);
  const ownerOf = (o: Pick<ObjectHead, "id" | "flags" | "owner">) =>
    o.flags.includes("player") || !o.owner ? o.id : o.owner;
  if (ownerOf(actor) !== ownerOf(target) || isStaff(target.flags)) return false;
  const inherits = (o: Pick<ObjectHead, "flags">) =>
    o.flags.includes("player") || hasFlag(o.flags, "inherit");
  return inherits(actor) || !inherits(target);
}

/**
 * Whose powers `actor` acts with (MUX's Inherits): an object set `inherit` acts with its owner's
 * (a staff member's master-room object may `@pemit` a player anywhere, as on MUX); anything else
 * with its own.
 */
export function actingAs<T extends Pick<ObjectHead, "id" | "flags" | "owner">>(
  world: { object(id: string): T | null },
  actor: T,
): T {
  if (hasFlag(actor.flags, "player") || !hasFlag(actor.flags, "inherit") || !actor.owner) {
    return actor;
  }
  return world.object(actor.owner) ?? actor;
}
