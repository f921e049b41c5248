/** `@chzone`: MUX's zones (src/world/zones.ts; docs/softcode.md, "Zones"). */
import type { CommandSpec } from "../types.ts";
import { CommandError } from "../errors.ts";
import { ZONE_STRIPPED_FLAGS } from "../../world/zones.ts";
import { controls, type ControlWorld } from "../../world/control.ts";
import { hasFlag, isStaff } from "../../world/flags.ts";
import type { DbObject } from "../../world/types.ts";

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

/** The zone commands. */
export const commands: CommandSpec[] = [
  {
    name: "@chzone",
    category: "building",
    help: `@chzone <object>=<zone master object>
@chzone <object>=none

Puts an object in the zone of a zone master object (a thing or a room), or takes it out, as in
TinyMUX. The zone master's $-commands work for whoever stands in a room of its zone, or is in it
(a player @chzone'd to it), before the master room's; zone() shows an object's zone, inzone()
the rooms of a zone and zwho() its players. What a player builds starts in the player's zone.

Whoever passes a zone master's enter lock (@lock/enter) controls the things, rooms and exits of
its zone (not its players, staff or inherit objects), as in MUX: lock it with care. A zone master
without an enter lock gives no control.

You may change the zone of what you control (a player: only itself; staff: anything), to a zone
master you control (staff: any). Only rooms may be zoned to rooms. A thing changing zone loses
its inherit flag, as in MUX.

Example:
  @create Harbour Zone
  @chzone here=Harbour Zone`,
    async exec(u) {
      const usage = "@chzone <object>=<zone master object>|none";
      const lhs = (u.cmd.lhs ?? "").trim();
      if (!lhs || u.cmd.rhs === null) throw new CommandError(`Usage: ${usage}`);
      const thing = await u.target(lhs);
      const rhs = u.cmd.rhs.trim();
      const zone = !rhs || rhs.toLowerCase() === "none" ? null : await u.target(rhs);
      const problem = chzoneRefusal(u.me, thing, zone, u.locks);
      if (problem) throw new CommandError(problem);
      if (zone && zone.id === thing.id) throw new CommandError("An object cannot be its own zone.");
      const player = thing.flags.includes("player");
      await u.objects.update(thing.id, (o) => {
        if (zone) o.data.zone = zone.id;
        else delete o.data.zone;
        if (!player) o.flags = o.flags.filter((f) => !ZONE_STRIPPED_FLAGS.includes(f));
      });
      u.send("Zone changed.");
    },
  },
];
