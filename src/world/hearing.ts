/**
 * Who hears what is told to an object, as MUX's notify has it: a player itself; a puppet's
 * owner, with the puppet's name in front; nobody for any other object (its listens are
 * matched where room speech is).
 */
import type { DbObject } from "./types.ts";

/** The player who hears what `o` is told, and the prefix it hears it with, or null. */
export function hearerOf(o: DbObject): { player: string; prefix: string } | null {
  if (o.flags.includes("player")) return { player: o.id, prefix: "" };
  if (o.flags.includes("puppet") && o.owner && o.owner !== o.id) {
    return { player: o.owner, prefix: `${o.name}> ` };
  }
  return null;
}
