/**
 * MUX's counts of objects by type (`@stats`, softcode's `stats()`), from the world's indexes: the
 * whole world's from the flag index, an owner's from the owner index (bounded by its holdings,
 * never the whole world).
 */
import type { WorldReader } from "./live_world.ts";
import { typeOf } from "./indexes.ts";

/** How many objects of each type; destroyed objects leave nothing behind, so no garbage. */
export interface ObjectCounts {
  total: number;
  rooms: number;
  exits: number;
  things: number;
  players: number;
}

/** The counts of the whole world (`owner` null) or of what `owner` owns. */
export function objectCounts(
  world: Pick<WorldReader, "flagCount" | "ownedBy" | "object">,
  owner: string | null,
): ObjectCounts {
  const n = { room: 0, exit: 0, thing: 0, player: 0 };
  if (owner === null) {
    for (const t of ["room", "exit", "thing", "player"] as const) n[t] = world.flagCount(t);
  } else {
    for (const id of world.ownedBy(owner)) {
      const o = world.object(id);
      if (o) n[typeOf(o)]++;
    }
  }
  return {
    total: n.room + n.exit + n.thing + n.player,
    rooms: n.room,
    exits: n.exit,
    things: n.thing,
    players: n.player,
  };
}
