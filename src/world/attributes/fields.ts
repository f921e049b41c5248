/**
 * Well-known attributes kept in the object record. MUX keeps an object's description, its
 * player alias and its moniker in attributes (DESC, ALIAS, MONIKER); this engine has long kept
 * them as fields that the room view, the player indexes, the hub's player cards and REST read.
 * Each stays in its field (one source of truth): these names read and write the field, so
 * `@desc me=x` and `&DESC me=x` are one value. Their flags are fixed (always visual) and their
 * bytes are the object's, not the attribute quota's. docs/softcode.md lists them.
 */
import type { DbObject } from "../types.ts";
import type { Attribute } from "./types.ts";

/** A well-known attribute kept in a field of the object record. */
export interface FieldAttribute {
  /** The attribute's name (canonical). */
  name: string;
  /** The field, as documented (`data.description`). */
  field: string;
  /** The value the field holds ("" when unset). */
  read(o: DbObject): string;
}

function text(v: unknown): string {
  return typeof v === "string" ? v : "";
}

/** The well-known attributes kept in fields, by name. */
export const FIELD_ATTRIBUTES: ReadonlyMap<string, FieldAttribute> = new Map(
  [
    { name: "DESC", field: "data.description", read: (o: DbObject) => text(o.data.description) },
    {
      name: "ALIAS",
      field: "data.aliases",
      read: (o: DbObject) =>
        Array.isArray(o.data.aliases)
          ? o.data.aliases.filter((a) => typeof a === "string").join(";")
          : "",
    },
    { name: "MONIKER", field: "data.moniker", read: (o: DbObject) => text(o.data.moniker) },
  ].map((f) => [f.name, f]),
);

/** Field attributes read from one record, cached per (frozen, replaced-on-write) record. */
export class FieldReader {
  readonly #cache = new WeakMap<DbObject, Map<string, Attribute | null>>();

  /** The attribute `name` of `o` when `name` is kept in a field: null when the field is empty. */
  read(o: DbObject, name: string): Attribute | null {
    const f = FIELD_ATTRIBUTES.get(name);
    if (!f) return null;
    let held = this.#cache.get(o);
    if (!held) this.#cache.set(o, held = new Map());
    if (held.has(name)) return held.get(name)!;
    const value = f.read(o);
    const attr = value
      ? Object.freeze({ name, value, owner: o.owner || o.id, flags: VISUAL })
      : null;
    held.set(name, attr);
    return attr;
  }

  /** The names of `o`'s field attributes that hold a value. */
  names(o: DbObject): string[] {
    return [...FIELD_ATTRIBUTES.keys()].filter((n) => this.read(o, n) !== null);
  }
}

const VISUAL = Object.freeze(["visual"] as const);
