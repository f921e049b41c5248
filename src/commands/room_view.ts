/** What `look` shows of a room or an object, as text for the width and data for web clients. */
import type { DbObject, ObjectHead } from "../world/types.ts";
import type { Outbound, Presence } from "../hub/types.ts";
import type { ObjectStore } from "../world/objects.ts";
import { hiddenFrom, visibleContents } from "../world/visibility.ts";

/** What `look` reads: who is in the room (from memory), its things and exits, objects. */
export interface ViewDeps {
  presence: Pick<Presence, "playersIn" | "playerCard">;
  objects: Pick<ObjectStore, "contentsOfType" | "exitsIn" | "get" | "getMany" | "contents">;
}
import { normalizeId } from "../world/ids.ts";
import { wrapText } from "../text/colour.ts";
import { clampWidth, exitName, labelled, nameFor } from "./format.ts";
import { displayName } from "../world/players.ts";

/** Most names listed per section; a busy room shows a count for the rest. */
const MAX_LISTED = 200;

function brief(o: ObjectHead, name = o.name) {
  return { id: o.id, name };
}

function withMore(names: string[], total: number): string[] {
  return total > names.length ? [...names, `and ${total - names.length} more`] : names;
}

/** The room as the viewer sees it: name, description, players present, contents, exits. */
export async function roomView(
  s: ViewDeps,
  viewer: DbObject,
  room: DbObject,
  width: number,
): Promise<Outbound> {
  const w = clampWidth(width);
  const playerIds = s.presence.playersIn(room.id);
  // Players present come from the hub's cards: a crowded room costs no database reads.
  const players: ObjectHead[] = [];
  for (const id of playerIds.slice(0, MAX_LISTED)) {
    const card = s.presence.playerCard(id);
    if (card) players.push(card);
  }
  const [things, exits] = await Promise.all([
    s.objects.contentsOfType(room.id, "thing", MAX_LISTED),
    s.objects.exitsIn(room.id),
  ]);
  const visThings = things.filter((o) => !hiddenFrom(viewer, o));
  const visExits = exits.filter((o) => !hiddenFrom(viewer, o));
  const visPlayers = players.filter((o) => !hiddenFrom(viewer, o));
  const others = visPlayers.filter((p) => p.id !== viewer.id);
  const description = room.data.description ?? "";
  const lines = [`%ch${nameFor(viewer, room)}%cn`];
  if (description) lines.push(wrapText(description, w));
  if (others.length) {
    const total = others.length + Math.max(0, playerIds.length - MAX_LISTED);
    lines.push(labelled("Players", withMore(others.map((p) => nameFor(viewer, p)), total), w));
  }
  if (visThings.length) {
    lines.push(labelled("Contents", visThings.map((o) => nameFor(viewer, o)), w));
  }
  if (visExits.length) lines.push(labelled("Exits", visExits.map((o) => nameFor(viewer, o)), w));
  return {
    msg: lines.join("\n"),
    data: {
      type: "room",
      id: room.id,
      name: room.name,
      description,
      // `to`: the room the exit leads to (null when unlinked), for maps and GMCP Room.Info.
      exits: visExits.map((o) => ({
        ...brief(o, exitName(o)),
        to: normalizeId(String(o.data.destination ?? "")),
      })),
      players: visPlayers.map((p) => ({ ...brief(p), moniker: displayName(p) })),
      contents: visThings.map((o) => brief(o)),
    },
  };
}

/** An object (not a room) as the viewer sees it: name, description and what it carries. */
export async function objectLook(
  s: ViewDeps,
  viewer: DbObject,
  obj: DbObject,
  width: number,
): Promise<Outbound> {
  const w = clampWidth(width);
  const description = obj.data.description ?? "";
  const lines = [`%ch${nameFor(viewer, obj)}%cn`];
  lines.push(description ? wrapText(description, w) : "You see nothing special.");
  let carried: DbObject[] = [];
  if (!obj.flags.includes("exit") && !obj.flags.includes("opaque")) {
    carried = visibleContents(
      viewer,
      obj,
      await s.objects.contentsOfType(obj.id, "thing", MAX_LISTED),
    );
    if (carried.length) lines.push(labelled("Carrying", carried.map((o) => nameFor(viewer, o)), w));
  }
  return {
    msg: lines.join("\n"),
    data: {
      type: "look",
      id: obj.id,
      name: obj.flags.includes("exit") ? exitName(obj) : obj.name,
      description,
      contents: carried.map((o) => brief(o)),
    },
  };
}
