/** The starting room: created on first start, looked up for new players. */
import type { Config } from "../config/load.ts";
import { normalizeId } from "./ids.ts";
import type { ObjectStore } from "./objects.ts";
import type { DbObject } from "./types.ts";

/** Creates room #1 on an empty database; later starts leave it alone. */
export async function ensureStartingRoom(objects: ObjectStore): Promise<void> {
  if (await objects.get("1")) return;
  const room = await objects.create({
    name: "Limbo",
    type: "room",
    data: { description: "A quiet, formless place where every story begins." },
  });
  if (room.id !== "1") {
    // Objects exist but #1 is gone (destroyed): keep the new room as the start.
    console.warn(`world: room #1 is missing; created starting room #${room.id}`);
  }
}

/** Id of the room new players start in: `game.playerStart`, else `game.startingRoom`, else #1. */
export async function startingRoom(s: {
  config: Config;
  objects: Pick<ObjectStore, "get" | "idsWithFlag">;
}): Promise<string> {
  for (const id of startCandidates(s.config)) {
    const room = await s.objects.get(id);
    if (room?.flags.includes("room")) return id;
  }
  const rooms = await s.objects.idsWithFlag("room", 1);
  return rooms[0] ?? "1";
}

/** The rooms startingRoom tries, in order: `game.playerStart`, `game.startingRoom`, #1. */
export function startCandidates(config: Config): string[] {
  const cfg = config.value.game;
  const ids: string[] = [];
  for (const ref of [cfg.playerStart, cfg.startingRoom, "1"]) {
    const id = normalizeId(ref ?? "");
    if (id) ids.push(id);
  }
  return ids;
}

/** startingRoom as the world in memory answers it (`isRoom`): the first candidate that is one. */
export function startingRoomNow(config: Config, isRoom: (id: string) => boolean): string {
  return startCandidates(config).find(isRoom) ?? "1";
}

/**
 * Where `obj` goes home to (MUX's HOME): its home when that is a room other than itself, else
 * `fallback` (the starting room, or where it stands).
 */
export function homeOf(obj: DbObject, isRoom: (id: string) => boolean, fallback: string): string {
  const home = normalizeId(String(obj.data.home ?? ""));
  return home && home !== obj.id && isRoom(home) ? home : fallback;
}
