/**
 * The rank an object acts with when it runs a built-in command: MUX's Wizard() and Staff() count
 * an object set `inherit` as its owner (`Inherits`), so a wizard's global object (a BBS, a jobs
 * system, +finger) may set attributes on players, create objects and pass staff-only command
 * locks; any other object acts with its own flags. Only rank is taken from the owner: the object
 * stays itself (its name, location, `%!`).
 */
import type { DbObject } from "./types.ts";
import { isStaff, STAFF_FLAGS } from "./flags.ts";
import { lowerCase } from "../text/lower.ts";

/** `me` as a command sees it: with its staff owner's rank flags when it is set `inherit`. */
export function withInheritedRank(
  world: { object(id: string): DbObject | null } | null,
  me: DbObject,
): DbObject {
  // One pass over the flags: this runs on every attribute read and staff check softcode makes.
  let inherit = false;
  // Indexed, not for-of (see hasFlag in flags.ts).
  const flags = me.flags;
  for (let i = 0; i < flags.length; i++) {
    const l = lowerCase(flags[i]);
    if (l === "player") return me;
    if (l === "inherit") inherit = true;
  }
  if (!inherit || !me.owner || !world) return me;
  const owner = world.object(me.owner);
  if (!owner || !isStaff(owner.flags)) return me;
  const rank = owner.flags.filter((f) => STAFF_FLAGS.includes(f.toLowerCase()));
  return Object.freeze({ ...me, flags: [...me.flags, ...rank] });
}
