/**
 * What looking does, as MUX's `look_in` and `look_simple` have it: the view (room_view.ts) with
 * the description evaluated as the object (`%#` the viewer), the inside description `@idesc`
 * for who is inside a thing (and `@descformat`, `@nameformat`, `@conformat`, `@exitformat`
 * where set), a room's `@succ` or `@fail` by its lock; for the others where the
 * viewer stands the `@odesc` and `@osucc`/`@ofail`; and the object's `@adesc` and
 * `@asucc`/`@afail` actions.
 */
import type { DbObject, ObjectHead } from "../world/types.ts";
import { controls } from "../world/access.ts";
import type { Outbound } from "../hub/types.ts";
import type { CommandPorts } from "./types.ts";
import { passesObjectLock } from "../world/locks.ts";
import { objectLook, roomView } from "./room_view.ts";
import {
  actionAttr,
  didIt,
  type DidItPorts,
  evaluateAs,
  evaluated,
  messageOf,
  runAction,
  tellOthers,
} from "./did_it.ts";
import { subjectOf } from "./sdk.ts";

/** What looking needs: the view's ports and the actions'. */
export type LookPorts = DidItPorts & Pick<CommandPorts, "presence" | "objects" | "locks">;

/**
 * The description `viewer` sees of `thing`: its attribute `what` (DESC or IDESC) evaluated, ""
 * when unset, or what its `@descformat` makes of that (`%0` the text, `%1` the attribute's name);
 * as stored when nothing is evaluated (no world in memory).
 */
function described(p: LookPorts, viewer: DbObject, thing: DbObject, what: string): string {
  if (!p.attributes.live) return thing.data.description ?? "";
  const a = actionAttr(p, thing.id, what);
  const format = actionAttr(p, thing.id, "DESCFORMAT");
  if (!format) return a ? evaluateAs(p, thing.id, viewer.id, a.value) : "";
  const text = a ? evaluated(p, thing.id, viewer.id, a.value) : "";
  return evaluateAs(p, thing.id, viewer.id, format.value, [text, what]);
}

/** `loc`'s attribute `name` as a format for `viewer` (a function of its arguments), or null. */
function formatOf(p: LookPorts, viewer: DbObject, loc: DbObject, name: string) {
  const a = actionAttr(p, loc.id, name);
  return a ? (args: string[]) => evaluateAs(p, loc.id, viewer.id, a.value, args) : null;
}

/**
 * Whether `viewer` is shown an object in a list (MUX's can_see): what it controls always,
 * anything else when it passes the object's visible lock.
 */
function visibleTo(p: LookPorts, viewer: DbObject): (o: ObjectHead) => boolean {
  const subject = subjectOf(viewer);
  return (o) => {
    if (controls(viewer, o, p.locks)) return true;
    const held = p.locks.object(o.id);
    return !held || passesObjectLock(p.locks, held, "visible", subject);
  };
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
  // MUX's formats: the name line, the contents (%0 their ids, %1 "Contents:") and the exits.
  const name = formatOf(p, viewer, loc, "NAMEFORMAT");
  const contents = formatOf(p, viewer, loc, "CONFORMAT");
  const exits = formatOf(p, viewer, loc, "EXITFORMAT");
  const view = await roomView(p, viewer, loc, width, {
    description,
    visible: visibleTo(p, viewer),
    message,
    name: name && name([]),
    contents: contents && ((ids) => contents([ids.join(" "), "Contents:"])),
    exits: exits && ((ids) => exits([ids.join(" ")])),
  });
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
  const view = await objectLook(p, viewer, obj, width, {
    description,
    visible: visibleTo(p, viewer),
  });
  didIt(p, viewer, obj, viewer.location, { owhat: "ODESC", awhat: "ADESC" });
  return view;
}
