/** `@chzone`: MUX's zones (src/world/zones.ts; docs/softcode.md, "Zones"). */
import type { CommandSpec } from "../types.ts";
import { CommandError } from "../errors.ts";
import { chzoneRefusal, ZONE_STRIPPED_FLAGS } from "../../world/zones.ts";

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
