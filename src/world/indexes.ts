/**
 * Which secondary index entries an object holds. One definition for the database's index keys
 * (src/world/objects.ts) and the in-memory world's indexes (src/world/live_world.ts), so the two
 * cannot disagree about where an object is listed.
 */
import type { DbObject, ObjectType } from "./types.ts";
import { OBJECT_TYPES } from "./types.ts";

/** Type of an object, read from its flags. */
export function typeOf(obj: Pick<DbObject, "flags">): ObjectType {
  // A loop, not find() with a closure: softcode asks this of every object it names.
  const flags = obj.flags;
  for (let i = 0; i < OBJECT_TYPES.length; i++) {
    if (flags.includes(OBJECT_TYPES[i])) return OBJECT_TYPES[i];
  }
  return "thing";
}

/** The secondary indexes an object is listed in (the unique player name and alias ones apart). */
export type IndexKind = "name" | "loc" | "locType" | "owner" | "dest" | "flag";

/** One entry of an object in a secondary index: the index and the bucket it is listed under. */
export interface Membership {
  kind: IndexKind;
  /** The lower-cased name, the location, the owner, the destination or the flag. */
  bucket: string;
  /** For `locType`: the object's type. */
  type?: ObjectType;
}

/** The secondary index entries an object holds. */
export function membershipsOf(o: DbObject): Membership[] {
  const out: Membership[] = [{ kind: "name", bucket: o.name.toLowerCase() }];
  if (o.location) {
    out.push({ kind: "loc", bucket: o.location });
    out.push({ kind: "locType", bucket: o.location, type: typeOf(o) });
  }
  if (o.owner) out.push({ kind: "owner", bucket: o.owner });
  const dest = o.data?.destination;
  if (typeof dest === "string" && dest && o.flags.includes("exit")) {
    out.push({ kind: "dest", bucket: dest });
  }
  for (const f of new Set(o.flags.map((x) => x.toLowerCase()))) {
    out.push({ kind: "flag", bucket: f });
  }
  return out;
}

/** Longest alias the alias index takes (player names are at most 32 characters). */
const MAX_ALIAS_KEY = 64;

/** The lower-cased name a player holds in the unique name index, or null for non-players. */
export function playerName(o: DbObject | null): string | null {
  return o?.flags.includes("player") ? o.name.toLowerCase() : null;
}

/**
 * The aliases a player holds in the unique alias index: `data.aliases`, trimmed, lower-cased,
 * without repeats or its own name. Other objects' `data.aliases` are names for room matching
 * only. The players service validates aliases; this only keeps index keys sane for any writer.
 */
export function playerAliases(o: DbObject | null): string[] {
  const own = playerName(o);
  const list = o?.data?.aliases;
  if (own === null || !Array.isArray(list)) return [];
  const out = new Set<string>();
  for (const a of list) {
    if (typeof a !== "string") continue;
    const lower = a.trim().toLowerCase();
    if (lower && lower !== own && lower.length <= MAX_ALIAS_KEY) out.add(lower);
  }
  return [...out];
}
