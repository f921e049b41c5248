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
