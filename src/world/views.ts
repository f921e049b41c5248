/** Public JSON views of objects: what clients may see, never credentials. */
import type { DbObject } from "./types.ts";
import { dbref } from "./ids.ts";
import { shownLocation, type Viewer } from "./visibility.ts";
import type { ControlWorld } from "./control.ts";

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

/**
 * The game object view of `GET /api/v1/dbobj/:id` as `viewer` may see it: the location only
 * where the world's rule shows it (visibility.ts), and `contents` when given (filter them with
 * `visibleContents` first).
 */
export function objectView(
  o: DbObject,
  viewer: Viewer,
  world: ControlWorld | null,
  contents?: DbObject[],
) {
  return {
    id: o.id,
    dbref: dbref(o.id),
    name: o.name,
    location: shownLocation(viewer, o, world),
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
