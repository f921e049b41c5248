/**
 * MUX's zones (docs/softcode.md, "Zones"): an object's zone is a zone master object (ZMO), a thing
 * or a room kept in `data.zone`; the ZMO's `$-commands` reach whoever stands in a room of its zone
 * or belongs to it, and whoever passes the ZMO's enter lock controls the zone's objects.
 */
import type { DbObject, ObjectHead } from "./types.ts";
import { hasFlag, isStaff } from "./flags.ts";
import { lockOf, type LockWorld, passesObjectLock } from "./locks.ts";

/** The id of `o`'s zone master object, or "" when it has none. */
export function zoneOf(o: Pick<DbObject, "data">): string {
  const z = o.data?.zone;
  return typeof z === "string" ? z : "";
}

/** The flags a non-player loses when its zone changes (MUX's stripped_flags that exist here). */
export const ZONE_STRIPPED_FLAGS: readonly string[] = ["inherit"];

/** Zone masters followed from an object for control (MUX's zone_recursion_limit). */
export const ZONE_CONTROL_DEPTH = 20;

/**
 * MUX's check_zone: `actor` controls `target` through its zone. The zone master's enter lock,
 * when it has one (a zone master without one gives no control), is checked against `actor`;
 * failing that, the zone master's own zone master's, and so on, each at most once and at most
 * ZONE_CONTROL_DEPTH of them. Players are never controlled this way (MUX's rule); nor, here,
 * staff or `inherit` objects, which act with a staff member's or their owner's powers (MUX strips
 * `inherit` at @chzone, but it may be set again: here only the owner or staff may set it, @set).
 * Reads only the world in memory; a lock's own cost is bounded by the lock limits and the
 * softcode budgets of its evaluation keys.
 */
export function zoneControls(
  actor: Pick<ObjectHead, "id" | "flags">,
  target: Pick<ObjectHead, "id" | "flags">,
  world: LockWorld,
): boolean {
  if (hasFlag(target.flags, "player") || hasFlag(target.flags, "inherit")) return false;
  if (isStaff(target.flags)) return false;
  const held = world.object(target.id);
  let zone = held ? zoneOf(held) : "";
  if (!zone) return false;
  const subject = { id: `#${actor.id}`, flags: actor.flags, connected: true };
  const seen = new Set<string>();
  while (zone && !seen.has(zone) && seen.size < ZONE_CONTROL_DEPTH) {
    seen.add(zone);
    const zmo = world.object(zone);
    if (!zmo) return false;
    if (lockOf(zmo, "enter") && passesObjectLock(world, zmo, "enter", subject)) return true;
    zone = zoneOf(zmo);
  }
  return false;
}
