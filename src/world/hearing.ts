/**
 * Who hears what is told to an object, as MUX's notify has it: a player itself; a puppet's
 * owner, with the puppet's name in front; nobody for any other object (its listens are
 * matched where room speech is).
 */
import type { DbObject } from "./types.ts";
import type { Outbound } from "../hub/types.ts";

/** The player who hears what `o` is told, and the prefix it hears it with, or null. */
export function hearerOf(o: DbObject): { player: string; prefix: string } | null {
  if (o.flags.includes("player")) return { player: o.id, prefix: "" };
  if (o.flags.includes("puppet") && o.owner && o.owner !== o.id) {
    return { player: o.owner, prefix: `${o.name}> ` };
  }
  return null;
}

/**
 * Who hears a view shown to `o` (the room it looks at on arriving), and what: a player the view
 * as it is; a puppet's owner each line with the puppet's name in front (MUX's look_in tells it a
 * line at a time) and no structured data (the room is the puppet's, not the owner's). Null when
 * nobody hears `o`.
 */
export function viewHeard(o: DbObject, out: Outbound): { player: string; out: Outbound } | null {
  const h = hearerOf(o);
  if (!h) return null;
  if (!h.prefix) return { player: h.player, out };
  return { player: h.player, out: { msg: out.msg.replace(/^/gm, h.prefix) } };
}
