/**
 * Layout 2 (docs/upgrades.md): system scripts' `u.attr` used to keep its values in the object's
 * `data.state`, which is also the REST client's JSON; it now reads and writes attributes. So that
 * a game's script data (`+finger` fields, say) is still there after the upgrade, each key of
 * every object's `data.state` that makes a valid attribute name becomes an attribute of that
 * name (upper-cased; a string as is, other JSON as its JSON text), unless the object already has
 * one. `data.state` itself is left as it was: it stays the REST client's. Keys that are no
 * attribute name (`1st`, `a b`), values past 8,000 characters, and a second key that upper-cases
 * to the same name are left in `data.state` alone, and counted in the log. The attributes belong
 * to the object's owner and count on their quota. Safe to run again: it never overwrites.
 */
import { keys } from "../../storage/keys.ts";
import { isPlainObject } from "../../config/load.ts";
import type { DbObject } from "../types.ts";
import { attrBytes, canonicalAttrName, MAX_ATTR_VALUE } from "./names.ts";
import { FIELD_ATTRIBUTES } from "./fields.ts";
import type { StoredAttribute } from "./types.ts";

/** What the step did. */
export interface StateMigration {
  objects: number;
  attributes: number;
  skipped: number;
}

/** Copies `data.state` keys into attributes (layout 2). */
export async function stateToAttributes(
  kv: Deno.Kv,
  log: (line: string) => void = () => {},
): Promise<StateMigration> {
  const done: StateMigration = { objects: 0, attributes: 0, skipped: 0 };
  for await (const e of kv.list<DbObject>({ prefix: keys.objects() })) {
    const o = e.value;
    const state = o?.data?.state;
    if (!o || typeof o.id !== "string" || !isPlainObject(state)) continue;
    const owner = o.flags?.includes("player") || !o.owner ? o.id : o.owner;
    const taken = new Set<string>();
    const op = kv.atomic();
    let bytes = 0;
    let added = 0;
    for (const [k, v] of Object.entries(state)) {
      const name = canonicalAttrName(k);
      const value = typeof v === "string" ? v : JSON.stringify(v) ?? "";
      if (!name || FIELD_ATTRIBUTES.has(name) || taken.has(name) || !value) {
        done.skipped++;
        continue;
      }
      if (value.length > MAX_ATTR_VALUE) {
        done.skipped++;
        continue;
      }
      taken.add(name);
      const key = keys.attribute(o.id, name);
      const stored: StoredAttribute = { value, owner };
      // Only where no attribute of that name exists, so a second run changes nothing.
      op.check({ key, versionstamp: null }).set(key, stored);
      bytes += attrBytes(name, value);
      added++;
    }
    if (!added) continue;
    op.sum(keys.attributeBytes(owner), BigInt(bytes));
    if ((await op.commit()).ok) {
      done.objects++;
      done.attributes += added;
      continue;
    }
    // Some already exist (a run cut short, or set since): add the rest one by one.
    for (const name of taken) {
      const value = valueOf(state, name);
      const key = keys.attribute(o.id, name);
      const res = await kv.atomic().check({ key, versionstamp: null })
        .set(key, { value, owner } satisfies StoredAttribute)
        .sum(keys.attributeBytes(owner), BigInt(attrBytes(name, value)))
        .commit();
      if (res.ok) done.attributes++;
      else done.skipped++;
    }
    done.objects++;
  }
  log(
    `storage: ${done.attributes} attribute(s) of ${done.objects} object(s) made from data.state` +
      (done.skipped ? ` (${done.skipped} key(s) left in data.state alone)` : ""),
  );
  return done;
}

/** The attribute value the state key that upper-cases to `name` holds (the first such key). */
function valueOf(state: Record<string, unknown>, name: string): string {
  for (const [k, v] of Object.entries(state)) {
    if (canonicalAttrName(k) !== name) continue;
    return typeof v === "string" ? v : JSON.stringify(v) ?? "";
  }
  return "";
}
