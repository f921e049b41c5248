/**
 * Who may see and who may change an attribute: TinyMUX's rules, in the one module that REST,
 * commands, system scripts and the softcode evaluator all ask (docs/softcode.md, "Who sees and
 * changes attributes").
 *
 * - Seeing: a `hidden` attribute only staff; otherwise whoever controls the object, whoever owns
 *   the attribute, and anyone at all when it is `visual` (DESC, SEX, ALIAS and MONIKER always are)
 *   or the object is (the `visual` flag: MUX's Examinable).
 * - Changing a value or clearing it: whoever controls the object (MUX's Controls(), `controls`);
 *   a `wizard` attribute only staff; a `locked` one nobody but staff until it is unlocked.
 * - A name that starts with `_` is `wizard` and `hidden` by its name (MUX's rule): only staff
 *   see, create, change or flag it, whatever flags it holds.
 * - Flags: as changing, and `hidden` and `wizard` only staff; `locked` also by the attribute's
 *   owner, on any object.
 */
import type { ObjectHead } from "../types.ts";
import { controls, type ControlWorld, examines } from "../control.ts";
import { isStaff } from "../flags.ts";
import { type AttrFlag, STAFF_ONLY_ATTR_FLAGS } from "./flags.ts";
import type { Attribute, Refusal } from "./types.ts";

/** What the rules read of whoever acts (a player, or later an object running code). */
export type AttrActor = Pick<ObjectHead, "id" | "flags" | "owner">;
/** What the rules read of the object holding the attribute. */
export type AttrHolder = Pick<ObjectHead, "id" | "owner" | "flags">;

/** Names every reader may see, whatever their flags (MUX: DESC, SEX and LAST are always visual). */
export const ALWAYS_VISUAL: ReadonlySet<string> = new Set(["DESC", "SEX", "ALIAS", "MONIKER"]);

/** True for a name only staff see and set (`_NOTES`: MUX's wizard-and-hidden by name). */
export function staffOnlyName(name: string): boolean {
  return name.startsWith("_");
}

/** The player who owns what `actor` sets: itself for a player, else its owner (MUX's Owner()). */
export function attrOwnerOf(actor: AttrActor & Pick<ObjectHead, "flags">): string {
  return actor.flags.includes("player") || !actor.owner ? actor.id : actor.owner;
}

/** True when `actor` may read `attr` of `obj`. */
export function canSeeAttr(
  actor: AttrActor,
  obj: AttrHolder,
  attr: Attribute,
  world: ControlWorld | null,
): boolean {
  if (attr.flags.includes("hidden") || staffOnlyName(attr.name)) return isStaff(actor.flags);
  if (attr.flags.includes("visual") || ALWAYS_VISUAL.has(attr.name)) return true;
  if (obj.flags.includes("visual")) return true;
  return attr.owner === attrOwnerOf(actor) || examines(actor, obj, world);
}

const DENIED: Refusal = { kind: "permission", message: "Permission denied." };

/**
 * Why `actor` may not set or clear attribute `name` of `obj` (whose current attribute of that
 * name is `existing`), or null when it may.
 */
export function attrWriteRefusal(
  actor: AttrActor,
  obj: AttrHolder,
  name: string,
  existing: Attribute | null,
  world: ControlWorld | null,
): Refusal | null {
  if (!controls(actor, obj, world)) return DENIED;
  if (isStaff(actor.flags)) return null;
  if (staffOnlyName(name)) return DENIED;
  if (!existing) return null;
  if (existing.flags.includes("wizard")) return DENIED;
  if (existing.flags.includes("locked")) {
    return {
      kind: "permission",
      message:
        `${existing.name} is locked; its owner unlocks it with @unlock <object>/${existing.name}.`,
    };
  }
  return null;
}

/** Why `actor` may not set or clear `flag` on `attr` of `obj`, or null when it may. */
export function attrFlagRefusal(
  actor: AttrActor,
  obj: AttrHolder,
  attr: Attribute,
  flag: AttrFlag,
  world: ControlWorld | null,
): Refusal | null {
  const staff = isStaff(actor.flags);
  if (STAFF_ONLY_ATTR_FLAGS.includes(flag) && !staff) {
    return { kind: "permission", message: `Only staff may set or clear ${flag} on an attribute.` };
  }
  if (flag === "locked" && attr.owner === attrOwnerOf(actor) && !staffOnlyName(attr.name)) {
    return null;
  }
  return attrWriteRefusal(actor, obj, attr.name, attr, world);
}
