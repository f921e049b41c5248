/** `look`: the room, or one object nearby. */
import type { CommandSpec } from "../types.ts";
import type { DbObject } from "../../world/types.ts";
import { controls } from "../../world/access.ts";
import { CommandError } from "../errors.ts";
import { NOT_HERE } from "../target.ts";
import { lookAt, lookIn } from "../looking.ts";

/** True when the object is where the viewer could look at it without controlling it. */
function within(me: DbObject, here: DbObject | null, o: DbObject): boolean {
  return o.id === me.id || o.id === here?.id || o.location === me.id ||
    (here !== null && o.location === here.id);
}

/** The look family. */
export const commands: CommandSpec[] = [
  {
    name: "look",
    aliases: ["l"],
    guests: true,
    category: "Navigation",
    help: `look [<target>]

Shows the room you are in: its name, description, the players here, the things here and
the exits. With a target (a name, 'me', 'here' or a #dbref), shows that object instead.

Examples:
  look
  l sword
  look me`,
    async exec(u) {
      const ref = u.cmd.args.trim().replace(/^at\s+/i, "");
      if (!ref) {
        if (!u.here) throw new CommandError("You are nowhere. Type 'home' to go home.");
        const view = await lookIn(u, u.me, u.here, u.width);
        return u.send(view.msg, view.data);
      }
      const obj = await u.target(ref);
      if (!within(u.me, u.here, obj) && !controls(u.me, obj, u.locks)) {
        throw new CommandError(NOT_HERE);
      }
      const view = obj.flags.includes("room") || obj.id === u.me.location
        ? await lookIn(u, u.me, obj, u.width)
        : await lookAt(u, u.me, obj, u.width);
      u.send(view.msg, view.data);
    },
  },
];
