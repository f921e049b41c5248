/**
 * Who hears what is told to an object, as MUX's notify has it: a player itself; a puppet's
 * owner, with the puppet's name in front; nobody for any other object (its listens are
 * matched where room speech is, and where it is told something alone: SoftDelivery.tell).
 * What is shown in a place reaches a puppet there by the place's rule (puppetRelay).
 */
import type { DbObject } from "./types.ts";
import type { Delivery, Outbound } from "../hub/types.ts";

/** The player who hears what `o` is told, and the prefix it hears it with, or null. */
export function hearerOf(o: DbObject): { player: string; prefix: string } | null {
  if (o.flags.includes("player")) return { player: o.id, prefix: "" };
  if (o.flags.includes("puppet") && o.owner && o.owner !== o.id) {
    return { player: o.owner, prefix: `${o.name}> ` };
  }
  return null;
}

/**
 * Who hears through puppet `o` what is shown where it is (a room, or the thing or player it is
 * in), as MUX's notify_check relays it: its owner, the puppet's name in front, unless the owner
 * is in the same place or carries the puppet (it hears that itself, or nothing, as a player
 * hears nothing of what reaches the things it carries). `ownerPlace` reads where the owner is.
 * Null for anything but a puppet, and for one that is its own owner.
 */
export function puppetRelay(
  o: DbObject,
  ownerPlace: (owner: string) => string | null | undefined,
): { player: string; prefix: string } | null {
  if (!o.flags.includes("puppet") || !o.owner || o.owner === o.id) return null;
  if (o.location === o.owner || o.location === ownerPlace(o.owner)) return null;
  return { player: o.owner, prefix: `${o.name}> ` };
}

/**
 * Relays what is shown in a place to the owners of the puppets among `hearers` (the things
 * there that may hear, in order), but not through those in `exclude` (puppetRelay). The text
 * alone, its first line after the puppet's name as MUX has it: structured data describes the
 * place, not the owner's.
 */
export function relayPuppets(
  world: { object(id: string): DbObject | null } | null,
  hearers: readonly string[],
  msg: string,
  exclude: readonly string[],
  deliver: Pick<Delivery, "toPlayer">,
): void {
  if (!world || !hearers.length) return;
  for (const id of hearers) {
    if (exclude.includes(id)) continue;
    const o = world.object(id);
    const r = o && puppetRelay(o, (owner) => world.object(owner)?.location);
    if (r) deliver.toPlayer(r.player, { msg: r.prefix + msg });
  }
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
