/** Public JSON views of objects: what clients may see, never credentials. */
import type { DbObject } from "./types.ts";
import type { Services } from "../services.ts";
import { dbref } from "./ids.ts";

/** The profile of `GET /api/v1/me`. */
export function profileView(p: DbObject) {
  return {
    id: p.id,
    dbref: dbref(p.id),
    name: p.name,
    flags: [...p.flags],
    data: {
      description: p.data.description ?? "",
      avatar: p.data.avatar ?? "",
      ...(p.data.moniker ? { moniker: p.data.moniker } : {}),
    },
  };
}

/** The game object view of `GET /api/v1/dbobj/:id` (contents when given). */
export function objectView(o: DbObject, contents?: DbObject[]) {
  return {
    id: o.id,
    dbref: dbref(o.id),
    name: o.name,
    location: o.location,
    owner: o.owner,
    flags: [...o.flags],
    data: { ...o.data, description: o.data.description ?? "", state: o.data.state ?? {} },
    ...(contents
      ? {
        contents: contents.map((x) => ({
          id: x.id,
          dbref: dbref(x.id),
          name: x.name,
          flags: x.flags,
        })),
      }
      : {}),
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
  };
}

/**
 * Online player entries: id, name, and the name of the room they are in. Names and
 * rooms come from the hub's memory; only the (few, distinct) rooms are read.
 */
export async function onlineEntries(s: Services) {
  const ids = s.presence.ids();
  const missing = ids.filter((id) => !s.hub.playerCard(id));
  const read = new Map((await s.objects.getMany(missing)).map((p) => [p.id, p]));
  const players = ids.flatMap((id) => {
    const card = s.hub.playerCard(id);
    const p = card ?? read.get(id);
    if (!p) return [];
    return [{ id, name: p.name, room: s.hub.roomOf(id) ?? read.get(id)?.location ?? "" }];
  });
  const roomIds = [...new Set(players.map((p) => p.room).filter(Boolean))];
  const rooms = new Map((await s.objects.getMany(roomIds)).map((r) => [r.id, r.name]));
  return players.map((p) => ({ id: p.id, name: p.name, location: rooms.get(p.room) ?? "" }));
}
