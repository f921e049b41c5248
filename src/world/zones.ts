/**
 * MUX's zones (docs/softcode.md, "Zones"): an object's zone is a zone master object (ZMO), a thing
 * or a room kept in `data.zone`; the ZMO's `$-commands` reach whoever stands in a room of its zone
 * or belongs to it, and whoever passes the ZMO's enter lock controls the zone's objects.
 */
import type { DbObject } from "./types.ts";
import { controls, type ControlWorld } from "./control.ts";
import { hasFlag, isStaff } from "./flags.ts";

/** The id of `o`'s zone master object, or "" when it has none. */
export function zoneOf(o: Pick<DbObject, "data">): string {
  const z = o.data?.zone;
  return typeof z === "string" ? z : "";
}

/**
 * Why `actor` may not `@chzone` `thing` to `zone` (null: clear it), MUX's do_chzone rules and
 * words, or null when it may: the ZMO a thing or room; the actor controls `thing` (staff: any; a
 * player itself only); the ZMO the actor's (staff: any); only a room zoned to a room.
 */
export function chzoneRefusal(
  actor: DbObject,
  thing: DbObject,
  zone: DbObject | null,
  world: ControlWorld | null,
): string | null {
  if (zone && !hasFlag(zone.flags, "thing") && !hasFlag(zone.flags, "room")) {
    return "Invalid zone object type.";
  }
  if (!controls(actor, thing, world)) return "You don't have the power to shift reality.";
  if (zone && !isStaff(actor.flags) && !controls(actor, zone, world)) {
    return "You cannot move that object to that zone.";
  }
  if (zone && hasFlag(zone.flags, "room") && !hasFlag(thing.flags, "room")) {
    return "Only rooms may be zoned to other rooms.";
  }
  return null;
}

/** The flags a non-player loses when its zone changes (MUX's stripped_flags that exist here). */
export const ZONE_STRIPPED_FLAGS: readonly string[] = ["inherit"];
