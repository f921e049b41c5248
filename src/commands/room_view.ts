/** What `look` shows of a room or an object, as text for the width and data for web clients. */
import type { DbObject, ObjectHead } from "../world/types.ts";
import type { Outbound, Presence } from "../hub/types.ts";
import type { ObjectStore } from "../world/objects.ts";
import { hiddenFrom, visibleContents } from "../world/visibility.ts";
import type { ControlWorld } from "../world/control.ts";

import type { AttributeStore } from "../world/attributes/store.ts";
import { normalizeId } from "../world/ids.ts";
import { stripColour, wrapText } from "../text/colour.ts";
import { clampWidth, exitName, labelled, nameFor, namesOf } from "./format.ts";
import { displayName } from "../world/players.ts";

/** What `look` reads: who is in the room (from memory), its things and exits, objects. */
export interface ViewDeps {
  presence: Pick<Presence, "playersIn" | "playerCard">;
  objects: Pick<ObjectStore, "contentsOfType" | "exitsIn" | "get" | "getMany" | "contents">;
  /** A room's AREA, ENVIRONMENT and COORDS (docs/telnet.md, "Room"). */
  attributes: Pick<AttributeStore, "get">;
  /** What control reads (the engine's lock world): who sees what is dark. */
  locks: ControlWorld | null;
}

/** What a room's `area` and `environment` are when no builder set them. */
export const UNKNOWN_PLACE = "Unknown";

/** Longest area or environment name sent, in characters. */
const MAX_PLACE = 100;

/** Parents followed for a room's place attributes (MUX's parent chain, as softcode's). */
const MAX_PARENTS = 10;

/** Where a room is, for maps: area, environment, and grid coordinates when set. */
export interface RoomPlace {
  area: string;
  environment: string;
  coords: { x: number; y: number; z: number } | null;
}

/**
 * What the viewer is shown of an object's text, made by looking (src/commands/looking.ts): its
 * description as evaluated, and the room's `@succ` or `@fail` message after it.
 */
export interface Shown {
  description: string;
  message?: string | null;
  /** The name line as the room's `@nameformat` makes it, instead of the name. */
  name?: string | null;
  /**
   * The players and things listed, as the room's `@conformat` makes them of their ids (`#12`),
   * instead of the Players and Contents lines.
   */
  contents?: ((ids: string[]) => string) | null;
  /** The exits listed, as the room's `@exitformat` makes them of their ids. */
  exits?: ((ids: string[]) => string) | null;
  /** Whether the viewer may be shown an object that is not dark (MUX's VisibleLock). */
  visible?: (o: ObjectHead) => boolean;
}

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
  shown?: Shown,
): Promise<Outbound> {
  const w = clampWidth(width);
  const playerIds = s.presence.playersIn(room.id);
  // Players present come from the hub's cards: a crowded room costs no database reads.
  const players: ObjectHead[] = [];
  for (const id of playerIds.slice(0, MAX_LISTED)) {
    const card = s.presence.playerCard(id);
    if (card) players.push(card);
  }
  const [things, exits, place] = await Promise.all([
    s.objects.contentsOfType(room.id, "thing", MAX_LISTED),
    s.objects.exitsIn(room.id),
    roomPlace(s, room),
  ]);
  const seen = (o: ObjectHead) => !hiddenFrom(viewer, o, s.locks) && (shown?.visible?.(o) ?? true);
  // A thing looking (a puppet) is not among what it sees, as MUX's can_see has it.
  const visThings = things.filter((o) => o.id !== viewer.id && seen(o));
  const visExits = exits.filter(seen);
  const visPlayers = players.filter(seen);
  const others = visPlayers.filter((p) => p.id !== viewer.id);
  const description = shown ? shown.description : room.data.description ?? "";
  const lines = [shown?.name ?? `%ch${nameFor(viewer, room)}%cn`];
  if (description) lines.push(wrapText(description, w));
  if (shown?.message) lines.push(wrapText(shown.message, w));
  const ids = (list: readonly ObjectHead[]) => list.map((o) => `#${o.id}`);
  if (shown?.contents) {
    lines.push(shown.contents([...ids(others), ...ids(visThings)]));
  } else {
    if (others.length) {
      const total = others.length + Math.max(0, playerIds.length - MAX_LISTED);
      lines.push(labelled("Players", withMore(others.map((p) => nameFor(viewer, p)), total), w));
    }
    if (visThings.length) {
      lines.push(labelled("Contents", visThings.map((o) => nameFor(viewer, o)), w));
    }
  }
  // MUX asks @exitformat only where there are exits.
  if (shown?.exits && exits.length) lines.push(shown.exits(ids(visExits)));
  else if (visExits.length) {
    lines.push(labelled("Exits", visExits.map((o) => nameFor(viewer, o)), w));
  }
  return {
    msg: lines.filter((l) => l !== "").join("\n"),
    data: {
      type: "room",
      id: room.id,
      name: room.name,
      // The viewer stands here (a move, a login, `look`), not looking from afar (`look #12`,
      // `look` at a room as its controller): telnet clients send GMCP Room.Info only for this,
      // as a mapper takes every Room.Info for the player's position.
      here: room.id === viewer.location,
      description,
      ...place,
      // `to`: the room the exit leads to (null when unlinked), for maps and GMCP Room.Info;
      // `aliases`: its other names (`n` of `North;n`), from which mappers learn directions.
      exits: visExits.map((o) => ({
        ...brief(o, exitName(o)),
        to: normalizeId(String(o.data.destination ?? "")),
        aliases: namesOf(o).slice(1, 10),
      })),
      players: visPlayers.map((p) => ({ ...brief(p), moniker: displayName(p) })),
      contents: visThings.map((o) => brief(o)),
    },
  };
}

/**
 * A room's area, environment and coordinates: its AREA, ENVIRONMENT and COORDS attributes, or
 * its parents' (a parent room sets them for a whole region, as MUX builders do), else the
 * defaults (`Unknown`, no coordinates). COORDS is `x y z` or `x,y,z` (z may be left out).
 */
export async function roomPlace(s: Pick<ViewDeps, "attributes" | "objects">, room: DbObject) {
  const [area, environment, coords] = await Promise.all(
    ["AREA", "ENVIRONMENT", "COORDS"].map((name) => inherited(s, room, name)),
  );
  const place: RoomPlace = {
    area: placeName(area),
    environment: placeName(environment),
    coords: parseCoords(coords),
  };
  return place;
}

/** An attribute's value on the room or the nearest parent that has it, or "". */
async function inherited(
  s: Pick<ViewDeps, "attributes" | "objects">,
  room: DbObject,
  name: string,
): Promise<string> {
  let cur: DbObject | null = room;
  for (let depth = 0; cur !== null && depth < MAX_PARENTS; depth++) {
    const a = await s.attributes.get(cur.id, name);
    if (a) return a.value;
    const parent = normalizeId(String(cur.data.parent ?? ""));
    cur = parent && parent !== cur.id ? await s.objects.get(parent) : null;
  }
  return "";
}

function placeName(value: string): string {
  const plain = stripColour(value).trim().slice(0, MAX_PLACE);
  return plain === "" ? UNKNOWN_PLACE : plain;
}

/** `x y z` / `x,y,z` (integers; z defaults to 0), else null. */
export function parseCoords(value: string): RoomPlace["coords"] {
  const parts = value.trim().split(/\s*[,\s]\s*/);
  if (parts.length < 2 || parts.length > 3 || value.length > 64) return null;
  const n = parts.map((p) => /^-?\d{1,9}$/.test(p) ? Number(p) : NaN);
  if (n.some((x) => Number.isNaN(x))) return null;
  return { x: n[0], y: n[1], z: n[2] ?? 0 };
}

/** An object (not a room) as the viewer sees it: name, description and what it carries. */
export async function objectLook(
  s: ViewDeps,
  viewer: DbObject,
  obj: DbObject,
  width: number,
  shown?: Shown,
): Promise<Outbound> {
  const w = clampWidth(width);
  const description = shown ? shown.description : obj.data.description ?? "";
  const lines = [`%ch${nameFor(viewer, obj)}%cn`];
  lines.push(description ? wrapText(description, w) : "You see nothing special.");
  let carried: DbObject[] = [];
  if (!obj.flags.includes("exit") && !obj.flags.includes("opaque")) {
    carried = visibleContents(
      viewer,
      obj,
      await s.objects.contentsOfType(obj.id, "thing", MAX_LISTED),
      s.locks,
    ).filter((o) => shown?.visible?.(o) ?? true);
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
