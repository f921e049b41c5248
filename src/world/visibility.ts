/**
 * What a viewer may see of objects: the one rule for contents and locations, behind `who`,
 * `GET /api/v1/players/online`, `look`, `examine`, REST objects and scripts' SDK (and softcode's
 * `lcon()`, `loc()` and the like to come). Pure: the caller reads the objects; `canSee` in
 * access.ts reads an object's container for it.
 */
import type { DbObject, ObjectHead } from "./types.ts";
import { hasFlag } from "./flags.ts";
import { type ControlWorld, examines } from "./control.ts";

/** Who is looking: an object (a player), or null for an anonymous caller. */
export type Viewer = Pick<ObjectHead, "id" | "flags" | "owner"> | null;

/**
 * True when `obj` is hidden from `viewer` wherever objects are listed or located: a `dark`
 * player, thing or exit is seen only by whoever controls it (itself, its owner) and staff. The one
 * rule behind `who`, `GET /api/v1/players/online`, `look`, `examine`, REST contents and
 * locations, and scripts' SDK; softcode's `lcon()`, `loc()` and the like are to use it too.
 */
export function hiddenFrom(
  viewer: Viewer,
  obj: Pick<ObjectHead, "id" | "owner" | "flags">,
  world: ControlWorld | null,
): boolean {
  if (!hasFlag(obj.flags, "dark") || hasFlag(obj.flags, "room")) return false;
  return viewer === null || !examines(viewer, obj, world);
}

/**
 * The location `viewer` may be shown of `obj`: its container's id, or "" when hidden. A dark
 * object's is hidden (as the object is), and so is an `unfindable` one's, from whoever does not
 * control it.
 */
export function shownLocation(
  viewer: Viewer,
  obj: Pick<ObjectHead, "id" | "owner" | "flags"> & { location: string },
  world: ControlWorld | null,
): string {
  if (hiddenFrom(viewer, obj, world)) return "";
  if (hasFlag(obj.flags, "unfindable") && (viewer === null || !examines(viewer, obj, world))) {
    return "";
  }
  return obj.location;
}

/**
 * True when `viewer` may see what `container` holds: the container is not hidden from it, and
 * the viewer controls it, or it is the viewer's room, or it is something not `opaque` in the
 * viewer's room or hands.
 */
export function seesInside(
  viewer: DbObject,
  container: DbObject,
  world: ControlWorld | null,
): boolean {
  if (hiddenFrom(viewer, container, world)) return false;
  if (examines(viewer, container, world) || container.id === viewer.location) return true;
  if (hasFlag(container.flags, "opaque")) return false;
  return container.location === viewer.id ||
    (viewer.location !== "" && container.location === viewer.location);
}

/**
 * What of `contents` (read from `container`) `viewer` may see listed: nothing hidden from it;
 * everything else when it sees inside, and otherwise what it could fetch anyway and whose
 * presence there it may know (its own things; rooms; players whose location it is shown).
 */
export function visibleContents(
  viewer: DbObject,
  container: DbObject,
  contents: readonly DbObject[],
  world: ControlWorld | null,
): DbObject[] {
  const inside = seesInside(viewer, container, world);
  return contents.filter((o) => {
    if (hiddenFrom(viewer, o, world)) return false;
    if (inside || examines(viewer, o, world) || hasFlag(o.flags, "room")) return true;
    return hasFlag(o.flags, "player") && shownLocation(viewer, o, world) !== "";
  });
}

/**
 * `canSee` for a caller that holds the world in memory (softcode): `container` is the object
 * `obj` is in, or null when that is the viewer, the viewer's room, nothing or unknown.
 */
export function canSeeWithin(
  viewer: DbObject,
  obj: DbObject,
  container: DbObject | null,
  world: ControlWorld | null,
): boolean {
  if (examines(viewer, obj, world)) return true;
  if (hasFlag(obj.flags, "room") || hasFlag(obj.flags, "player")) return true;
  if (hiddenFrom(viewer, obj, world) || !obj.location) return false;
  if (obj.location === viewer.location || obj.location === viewer.id) return true;
  return container !== null && container.id === obj.location &&
    seesInside(viewer, container, world);
}
