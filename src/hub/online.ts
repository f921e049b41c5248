/**
 * Who may see whom among the connected players: the one rule behind the in-game `who` and
 * `GET /api/v1/players/online`, so the two lists can never disagree.
 */
import { hasFlag, isStaff } from "../world/flags.ts";
import type { Services } from "../services.ts";
import type { HubApi, PlayerCard } from "./types.ts";

/** Who is looking: a player (id and flags), or null for an anonymous caller. */
export type Viewer = { readonly id: string; readonly flags: readonly string[] } | null;

/**
 * True when `viewer` may see `player` among the connected. A `dark` player is hidden from
 * everyone but staff and itself; an anonymous caller sees what an ordinary player sees.
 */
export function canSeeOnline(viewer: Viewer, player: PlayerCard): boolean {
  if (!hasFlag(player.flags, "dark")) return true;
  return viewer !== null && (viewer.id === player.id || isStaff(viewer.flags));
}

/** The connected players `viewer` may see, in order of login, from the hub's memory. */
export function visibleOnline(hub: HubApi, viewer: Viewer): PlayerCard[] {
  const out: PlayerCard[] = [];
  for (const id of hub.onlinePlayers()) {
    const card = hub.playerCard(id);
    if (card && canSeeOnline(viewer, card)) out.push(card);
  }
  return out;
}

/**
 * Online player entries as `viewer` may see them: id, name, and the name of the room they are
 * in. Names and rooms come from the hub's memory; only the (few, distinct) rooms are read.
 */
export async function onlineEntries(s: Services, viewer: Viewer) {
  const players = visibleOnline(s.hub, viewer).map((p) => ({
    id: p.id,
    name: p.name,
    room: s.hub.roomOf(p.id) ?? "",
  }));
  const roomIds = [...new Set(players.map((p) => p.room).filter(Boolean))];
  const rooms = new Map((await s.objects.getMany(roomIds)).map((r) => [r.id, r.name]));
  return players.map((p) => ({ id: p.id, name: p.name, location: rooms.get(p.room) ?? "" }));
}
