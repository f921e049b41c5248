/** Who may see and who may change an object. */
import type { DbObject } from "./types.ts";
import type { ObjectStore } from "./objects.ts";
import { isStaff } from "./flags.ts";

export { controls, mayActOn } from "./control.ts";
import type { ControlWorld } from "./control.ts";
import { canSeeWithin } from "./visibility.ts";

/**
 * True when `viewer` may see `obj` (read it by id: REST, `examine`, scripts): staff and owners
 * see everything; others see rooms and players (a dark or unfindable player without its
 * location), and a thing or exit that is not hidden from them in a container they see inside
 * (their room, their hands, something not opaque there). Reads the container when it is
 * neither the viewer nor its room (from the object cache).
 */
export async function canSee(
  objects: Pick<ObjectStore, "get">,
  viewer: DbObject,
  obj: DbObject,
  world: ControlWorld | null,
): Promise<boolean> {
  return await canSeeSoon(objects, viewer, obj, world);
}

/**
 * `canSee`, answered at once when no container has to be read (the object is the viewer's,
 * in the viewer's room, or a room), else a promise: for callers that must not wait needlessly
 * (a script's sandbox goes on in the same turn of the event loop).
 */
export function canSeeSoon(
  objects: Pick<ObjectStore, "get">,
  viewer: DbObject,
  obj: DbObject,
  world: ControlWorld | null,
): boolean | Promise<boolean> {
  const near = !obj.location || obj.location === viewer.location || obj.location === viewer.id;
  if (near) return canSeeWithin(viewer, obj, null, world);
  return objects.get(obj.location).then((container) => canSeeWithin(viewer, obj, container, world));
}

/** Objects the viewer may see, filtered by flags, paged; uses indexes, never a whole-store scan for players. */
export async function listVisible(
  objects: Pick<ObjectStore, "idsWithFlag" | "idsOwnedBy" | "contents" | "getMany" | "get">,
  viewer: DbObject,
  flags: string[],
  limit: number,
  offset: number,
  world: ControlWorld | null,
): Promise<DbObject[]> {
  const wanted = flags.map((f) => f.toLowerCase());
  let candidates: string[];
  if (wanted.length) {
    candidates = await objects.idsWithFlag(wanted[0], 10_000);
  } else if (isStaff(viewer.flags)) {
    candidates = (await objects.idsWithFlag("room", 10_000))
      .concat(await objects.idsWithFlag("player", 10_000))
      .concat(await objects.idsWithFlag("thing", 10_000))
      .concat(await objects.idsWithFlag("exit", 10_000));
    candidates.sort((a, b) => Number(a) - Number(b));
  } else {
    const here = viewer.location ? [viewer.location] : [];
    const near = [
      ...(await objects.idsOwnedBy(viewer.id, 10_000)),
      ...here,
      ...(viewer.location ? await objects.contents(viewer.location, 1000) : []).map((o) => o.id),
      ...(await objects.contents(viewer.id, 1000)).map((o) => o.id),
    ];
    candidates = [...new Set([viewer.id, ...near])].sort((a, b) => Number(a) - Number(b));
  }
  const out: DbObject[] = [];
  let skipped = 0;
  for (let i = 0; i < candidates.length && out.length < limit; i += 50) {
    for (const o of await objects.getMany(candidates.slice(i, i + 50))) {
      if (!wanted.every((f) => o.flags.includes(f))) continue;
      if (!(await canSee(objects, viewer, o, world))) continue;
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
