/** Who may see and who may change an object. */
import type { DbObject } from "./types.ts";
import type { Services } from "../services.ts";
import { isStaff } from "./flags.ts";

export { canControl, mayActOn } from "./control.ts";
import { canControl } from "./control.ts";

/** Who is looking: an object (a player), or null for an anonymous caller. */
export type Viewer = Pick<ObjectHead, "id" | "flags"> | null;

/**
 * True when `obj` is hidden from `viewer` wherever objects are listed or located: a `dark`
 * player, thing or exit is seen only by whoever controls it (itself, its owner, staff). The one
 * rule behind `who`, `GET /api/v1/players/online`, `look`, `examine`, REST contents and
 * locations, and scripts' SDK; softcode's `lcon()`, `loc()` and the like are to use it too.
 */
export function hiddenFrom(
  viewer: Viewer,
  obj: Pick<ObjectHead, "id" | "owner" | "flags">,
): boolean {
  if (!hasFlag(obj.flags, "dark") || hasFlag(obj.flags, "room")) return false;
  return viewer === null || !canControl(viewer, obj);
}

/**
 * The location `viewer` may be shown of `obj`: its container's id, or "" when hidden. A dark
 * object's is hidden (as the object is), and so is an `unfindable` one's, from whoever does not
 * control it.
 */
export function shownLocation(
  viewer: Viewer,
  obj: Pick<ObjectHead, "id" | "owner" | "flags"> & { location: string },
): string {
  if (hiddenFrom(viewer, obj)) return "";
  if (hasFlag(obj.flags, "unfindable") && (viewer === null || !canControl(viewer, obj))) return "";
  return obj.location;
}

/**
 * True when `viewer` may see what `container` holds: the container is not hidden from it, and
 * the viewer controls it, or it is the viewer's room, or it is something not `opaque` in the
 * viewer's room or hands.
 */
export function seesInside(viewer: DbObject, container: DbObject): boolean {
  if (hiddenFrom(viewer, container)) return false;
  if (canControl(viewer, container) || container.id === viewer.location) return true;
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
): DbObject[] {
  const inside = seesInside(viewer, container);
  return contents.filter((o) => {
    if (hiddenFrom(viewer, o)) return false;
    if (inside || canControl(viewer, o) || hasFlag(o.flags, "room")) return true;
    return hasFlag(o.flags, "player") && shownLocation(viewer, o) !== "";
  });
}

/**
 * True when `viewer` may see `obj` (read it by id: REST, `examine`, scripts): staff and owners
 * see everything; others see rooms and players (a dark or unfindable player without its
 * location), and a thing or exit that is not hidden from them in a container they see inside
 * (their room, their hands, something not opaque there). Reads the container when it is
 * neither the viewer nor its room (from the object cache).
 */
export async function canSee(s: Services, viewer: DbObject, obj: DbObject): Promise<boolean> {
  const near = !obj.location || obj.location === viewer.location || obj.location === viewer.id;
  const container = near ? null : await s.objects.get(obj.location);
  return canSeeWithin(viewer, obj, container);
}

/**
 * `canSee` for a caller that holds the world in memory (softcode): `container` is the object
 * `obj` is in, or null when that is the viewer, the viewer's room, nothing or unknown.
 */
export function canSeeWithin(viewer: DbObject, obj: DbObject, container: DbObject | null): boolean {
  if (canControl(viewer, obj)) return true;
  if (hasFlag(obj.flags, "room") || hasFlag(obj.flags, "player")) return true;
  if (hiddenFrom(viewer, obj) || !obj.location) return false;
  if (obj.location === viewer.location || obj.location === viewer.id) return true;
  return container !== null && container.id === obj.location && seesInside(viewer, container);
}

/** Objects the viewer may see, filtered by flags, paged; uses indexes, never a whole-store scan for players. */
export async function listVisible(
  s: Services,
  viewer: DbObject,
  flags: string[],
  limit: number,
  offset: number,
): Promise<DbObject[]> {
  const wanted = flags.map((f) => f.toLowerCase());
  let candidates: string[];
  if (wanted.length) {
    candidates = await s.objects.idsWithFlag(wanted[0], 10_000);
  } else if (isStaff(viewer.flags)) {
    candidates = (await s.objects.idsWithFlag("room", 10_000))
      .concat(await s.objects.idsWithFlag("player", 10_000))
      .concat(await s.objects.idsWithFlag("thing", 10_000))
      .concat(await s.objects.idsWithFlag("exit", 10_000));
    candidates.sort((a, b) => Number(a) - Number(b));
  } else {
    const here = viewer.location ? [viewer.location] : [];
    const near = [
      ...(await s.objects.idsOwnedBy(viewer.id, 10_000)),
      ...here,
      ...(viewer.location ? await s.objects.contents(viewer.location, 1000) : []).map((o) => o.id),
      ...(await s.objects.contents(viewer.id, 1000)).map((o) => o.id),
    ];
    candidates = [...new Set([viewer.id, ...near])].sort((a, b) => Number(a) - Number(b));
  }
  const out: DbObject[] = [];
  let skipped = 0;
  for (let i = 0; i < candidates.length && out.length < limit; i += 50) {
    for (const o of await s.objects.getMany(candidates.slice(i, i + 50))) {
      if (!wanted.every((f) => o.flags.includes(f))) continue;
      if (!(await canSee(s, viewer, o))) continue;
      if (skipped < offset) {
        skipped++;
        continue;
      }
      out.push(o);
      if (out.length >= limit) break;
    }
  }
  return out;
}
