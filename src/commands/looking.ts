/**
 * What looking does, as MUX's `look_in` and `look_simple` have it: the view (room_view.ts) with
 * the description evaluated as the object (`%#` the viewer), the inside description `@idesc`
 * for who is inside a thing, a room's `@succ` or `@fail` by its lock; for the others where the
 * viewer stands the `@odesc` and `@osucc`/`@ofail`; and the object's `@adesc` and
 * `@asucc`/`@afail` actions.
 */
import type { DbObject } from "../world/types.ts";
import type { Outbound } from "../hub/types.ts";
import type { CommandPorts } from "./types.ts";
import { passesObjectLock } from "../world/locks.ts";
import { objectLook, roomView } from "./room_view.ts";
import { actionAttr, didIt, type DidItPorts, messageOf, runAction, tellOthers } from "./did_it.ts";
import { subjectOf } from "./sdk.ts";

/** What looking needs: the view's ports and the actions'. */
export type LookPorts = DidItPorts & Pick<CommandPorts, "presence" | "objects" | "locks">;

/**
 * The description `viewer` sees of `thing`: its attribute `what` (DESC or IDESC) evaluated, ""
 * when unset; as stored when nothing is evaluated (no world in memory).
 */
function described(p: LookPorts, viewer: DbObject, thing: DbObject, what: string): string {
  if (!p.attributes.live) return thing.data.description ?? "";
  return messageOf(p, viewer, thing, what, "") ?? "";
}

/**
 * The view of `loc` (a room, or the thing the viewer is in) for `viewer`, with its messages; the
 * others where the viewer stands are told `@odesc` and `@osucc`/`@ofail`, and the actions
 * queued. The caller sends the view.
 */
export async function lookIn(
  p: LookPorts,
  viewer: DbObject,
  loc: DbObject,
  width: number,
): Promise<Outbound> {
  const isRoom = loc.flags.includes("room");
  // Who is inside a thing sees its inside description, when it has one.
  const inside = !isRoom && viewer.location === loc.id && actionAttr(p, loc.id, "IDESC") !== null;
  const descAttr = inside ? "IDESC" : "DESC";
  const description = described(p, viewer, loc, descAttr);
  let message: string | null = null;
  let verb: { o: string; a: string } | null = null;
  if (isRoom) {
    const ok = passesObjectLock(p.locks, loc, "basic", subjectOf(viewer));
    message = messageOf(p, viewer, loc, ok ? "SUCC" : "FAIL");
    verb = ok ? { o: "OSUCC", a: "ASUCC" } : { o: "OFAIL", a: "AFAIL" };
  }
  const view = await roomView(p, viewer, loc, width, { description, message });
  // MUX tells the others only when there is a description to look at.
  if (inside || actionAttr(p, loc.id, "DESC") !== null) {
    tellOthers(p, viewer, loc, viewer.location, "ODESC");
    runAction(p, viewer, loc, "ADESC");
  }
  if (verb) {
    tellOthers(p, viewer, loc, viewer.location, verb.o);
    runAction(p, viewer, loc, verb.a);
  }
  return view;
}

/**
 * The view of `obj` (a thing, player or exit) for `viewer`: its description evaluated; the
 * others where the viewer stands are told its `@odesc`, and its `@adesc` is queued. The caller
 * sends the view.
 */
export async function lookAt(
  p: LookPorts,
  viewer: DbObject,
  obj: DbObject,
  width: number,
): Promise<Outbound> {
  const description = described(p, viewer, obj, "DESC");
  const view = await objectLook(p, viewer, obj, width, { description });
  didIt(p, viewer, obj, viewer.location, { owhat: "ODESC", awhat: "ADESC" });
  return view;
}
