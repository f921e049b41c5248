/** A command's confirmation to its actor, which MUX's `quiet` flag hides. */
import type { OutboundData } from "../hub/types.ts";
import type { DbObject } from "../world/types.ts";
import { hasFlag } from "../world/flags.ts";

/**
 * Tells the actor that a change was made ("Set.", "Name set.", "Locked.", "Wiped."), unless the
 * actor is set `quiet` (MUX's Quiet(player), which spares a builder them), or `about`, the object
 * changed, is (MUX's Quiet(thing), asked where MUX asks it: a name, a lock, a parent, an
 * attribute); refusals and what a command shows are said whatever the flag.
 */
export function confirm(
  u: { me: Pick<DbObject, "flags">; send(msg: string, data?: OutboundData): void },
  msg: string,
  data?: OutboundData,
  about?: Pick<DbObject, "flags">,
): void {
  if (hasFlag(u.me.flags, "quiet") || (about && hasFlag(about.flags, "quiet"))) return;
  u.send(msg, data);
}
