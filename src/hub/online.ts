/**
 * Who may see whom among the connected players, for the in-game `who` and
 * `GET /api/v1/players/online`: the world's visibility rule (src/world/visibility.ts), which `look`,
 * REST contents and locations and scripts use too, so no two of them can disagree.
 */
import { hiddenFrom, shownLocation, type Viewer } from "../world/visibility.ts";
import type { ObjectStore } from "../world/objects.ts";
import type { PlayerCard, Presence } from "./types.ts";

/**
 * True when `viewer` may see `player` among the connected. A `dark` player is hidden from
 * everyone but staff and itself; an anonymous caller sees what an ordinary player sees.
 */
export function canSeeOnline(viewer: Viewer, player: PlayerCard): boolean {
  // No world: a player is never controlled through a zone, and a viewer here is a player.
  return !hiddenFrom(viewer, player, null);
}

/** The connected players `viewer` may see, in order of login, from the hub's memory. */
export function visibleOnline(presence: Presence, viewer: Viewer): PlayerCard[] {
  const out: PlayerCard[] = [];
  for (const id of presence.onlinePlayers()) {
    const card = presence.playerCard(id);
    if (card && canSeeOnline(viewer, card)) out.push(card);
  }
  return out;
}

/**
 * Online player entries as `viewer` may see them: id, name, and the name of the room they are
 * in. Names and rooms come from the hub's memory; only the (few, distinct) rooms are read.
 */
export async function onlineEntries(
  s: { presence: Presence; objects: Pick<ObjectStore, "getMany"> },
  viewer: Viewer,
) {
  const players = visibleOnline(s.presence, viewer).map((p) => ({
    id: p.id,
    name: p.name,
    // An unfindable player is listed without its room, as REST objects show it.
    room: shownLocation(viewer, { ...p, location: s.presence.roomOf(p.id) ?? "" }, null),
  }));
  const roomIds = [...new Set(players.map((p) => p.room).filter(Boolean))];
  const rooms = new Map((await s.objects.getMany(roomIds)).map((r) => [r.id, r.name]));
  return players.map((p) => ({ id: p.id, name: p.name, location: rooms.get(p.room) ?? "" }));
}
