/**
 * Attribute lookup through the `@parent` chain (MUX's atr_pget): the object's own attribute, or
 * else the nearest ancestor's, up to MAX_PARENT_DEPTH parents. An ancestor's attribute flagged
 * `no_inherit` is skipped (its children do not see it; the object itself does). Every reader that
 * should see inherited attributes (softcode's `get()`, `u()`, `%=`, `$-commands`, `@trigger`) asks
 * here, so the rule lives in one place.
 */
import { MAX_PARENT_DEPTH, type ObjectLookup, parentOf } from "../parents.ts";
import type { Attribute } from "./types.ts";

/** What the lookup reads: objects, and one object's own attribute. */
export interface InheritSource extends ObjectLookup {
  /** The object's own attribute (canonical upper-case name), or null. */
  ownAttr(id: string, name: string): Attribute | null;
}

/** An attribute found through the chain, and the id of the object that holds it. */
export interface Inherited {
  attr: Attribute;
  holder: string;
}

/** True when children may see `attr` of an ancestor. */
export function inheritable(attr: Attribute): boolean {
  return !attr.flags.includes("no_inherit");
}

/** The attribute `name` of `id` or its nearest ancestor that passes it down, or null. */
export function inheritedAttr(src: InheritSource, id: string, name: string): Inherited | null {
  // The object's own attribute needs no walk (most reads: u() of the object's own code).
  const own = src.ownAttr(id, name);
  if (own) return { attr: own, holder: id };
  const first = src.object(id);
  const parent = first ? parentOf(first) : "";
  if (!parent) return null;
  const seen: string[] = [id];
  let cur: string = parent;
  for (let depth = 1; cur && depth <= MAX_PARENT_DEPTH && !seen.includes(cur); depth++) {
    seen.push(cur);
    const a = src.ownAttr(cur, name);
    if (a && inheritable(a)) return { attr: a, holder: cur };
    const o = src.object(cur);
    cur = o ? parentOf(o) : "";
  }
  return null;
}
