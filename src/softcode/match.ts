/**
 * Finding an object by what a softcode writer names it, as MUX's match_thing does: `me`,
 * `here`, `#dbref`, `*player`, a player's name, then what the looker carries, what is in its
 * room and the room's exits, by exact name (or alias), then by unique prefix. Reads memory only.
 */
import type { WorldView } from "./ports.ts";
import type { DbObject } from "../world/types.ts";

/** No such object (MUX's NOTHING). */
export const NOTHING = "#-1";
/** Several objects matched (MUX's AMBIGUOUS). */
export const AMBIGUOUS = "#-2";

/** MUX's text for a failed match. */
export function matchError(code: string): string {
  return code === AMBIGUOUS ? "#-2 AMBIGUOUS" : "#-1 NOT FOUND";
}

/** True when a match result is an object id (not NOTHING or AMBIGUOUS). */
export function found(r: string): boolean {
  return r[0] !== "#";
}

/**
 * The id of a plain `#123` (no spaces, no leading zero), or null: the form lists and `%#` give,
 * read without a regular expression or a number round trip.
 */
export function plainDbref(s: string): string | null {
  const n = s.length;
  if (n < 2 || n > 16 || s.charCodeAt(0) !== 35) return null;
  if (s.charCodeAt(1) === 48 && n > 2) return null;
  for (let i = 1; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return null;
  }
  return s.slice(1);
}

/** A `#123` dbref's id, or null. */
export function dbrefId(s: string): string | null {
  const plain = plainDbref(s);
  if (plain !== null) return plain;
  const m = /^\s*#(\d{1,15})\s*$/.exec(s);
  return m ? String(Number(m[1])) : null;
}

/** Names an object answers to: its name and its aliases, lower-cased. */
function namesOf(world: WorldView, id: string): string[] {
  const o = world.object(id);
  if (!o) return [];
  const out = [o.name.toLowerCase()];
  // MUX exits carry aliases after `;` in the name; here they are a list.
  if (o.name.includes(";")) out.push(...o.name.toLowerCase().split(";").map((s) => s.trim()));
  const aliases = o.data?.aliases;
  if (Array.isArray(aliases)) {
    for (const a of aliases) if (typeof a === "string") out.push(a.toLowerCase());
  }
  return out;
}

/**
 * The object `name` names for `lookerId`, or NOTHING or AMBIGUOUS: matchThing's answer with the
 * object itself, read once (a plain `#123` is found without the rest of the match).
 */
export function matchObject(
  world: WorldView,
  lookerId: string,
  name: string,
): DbObject | typeof NOTHING | typeof AMBIGUOUS {
  const plain = plainDbref(name);
  if (plain !== null) return world.object(plain) ?? NOTHING;
  const r = matchThing(world, lookerId, name);
  return found(r) ? world.object(r) ?? NOTHING : r as typeof NOTHING | typeof AMBIGUOUS;
}

/** Finds `name` for `lookerId`: an object id, NOTHING or AMBIGUOUS. */
export function matchThing(world: WorldView, lookerId: string, name: string): string {
  const plain = plainDbref(name);
  if (plain !== null) return world.object(plain) ? plain : NOTHING;
  const want = name.trim();
  if (!want) return NOTHING;
  const lower = want.toLowerCase();
  if (lower === "me") return lookerId;
  const looker = world.object(lookerId);
  if (lower === "here") return looker?.location || NOTHING;
  const id = dbrefId(want);
  if (id !== null) return world.object(id) ? id : NOTHING;
  if (want[0] === "*") return world.playerByName(want.slice(1).trim()) ?? NOTHING;
  const candidates: string[] = [];
  candidates.push(...world.contents(lookerId));
  if (looker?.location) candidates.push(...world.contents(looker.location));
  const exact = new Set<string>();
  const partial = new Set<string>();
  for (const c of candidates) {
    const names = namesOf(world, c);
    if (names.includes(lower)) exact.add(c);
    else if (names.some((n) => n.startsWith(lower))) partial.add(c);
  }
  if (exact.size === 1) return [...exact][0];
  if (exact.size > 1) return AMBIGUOUS;
  const player = world.playerByName(want);
  if (player) return player;
  if (partial.size === 1) return [...partial][0];
  return partial.size > 1 ? AMBIGUOUS : NOTHING;
}

/** Splits `obj/attr` at the first `/`: the object's id (or null) and the attribute name. */
export function parseObjAttr(
  world: WorldView,
  lookerId: string,
  ref: string,
): { id: string | null; attr: string; slash: boolean } {
  const at = ref.indexOf("/");
  if (at < 0) return { id: lookerId, attr: ref.trim(), slash: false };
  const r = matchThing(world, lookerId, ref.slice(0, at));
  return { id: found(r) ? r : null, attr: ref.slice(at + 1).trim(), slash: true };
}
