/**
 * MUX's names for the engine's flags: the letters softcode's flags() gives and `@search flags=`
 * takes, and the names MUX has for what the engine derives (WIZARD is the superuser too, ROYALTY
 * an admin, STAFF a staff rank, CONNECTED a player online). One rule for softcode
 * (src/softcode/functions/objects.ts) and `@search` (src/world/search.ts).
 */
import type { DbObject, ObjectType } from "./types.ts";
import { hasFlag } from "./flags.ts";
import { typeOf } from "./indexes.ts";

/**
 * MUX's flag letters by the name (lower case) the flag tests take, in flags()'s order: MUX's
 * (decode_flags) is the alphabetical order of its flags' names (HALTED is the engine's halt).
 */
export const MUX_FLAG_LETTERS: Readonly<Record<string, string>> = {
  b: "auditorium",
  c: "connected",
  D: "dark",
  e: "enter_ok",
  h: "halt",
  H: "haven",
  I: "inherit",
  J: "jump_ok",
  L: "link_ok",
  M: "monitor",
  n: "no_command",
  O: "opaque",
  z: "open_ok",
  Y: "parent_ok",
  p: "puppet",
  Q: "quiet",
  Z: "royalty",
  s: "safe",
  w: "staff",
  S: "sticky",
  t: "transparent",
  U: "unfindable",
  V: "visual",
  W: "wizard",
};

/** MUX's letters for the types: flags() gives one first, `@search flags=` reads it as a type. */
export const MUX_TYPE_LETTERS: Readonly<Record<ObjectType, string>> = {
  player: "P",
  room: "R",
  exit: "E",
  thing: "",
};

/** What MUX's derived flags ask of the game, besides an object's own flags. */
export interface MuxFlagTests {
  /** MUX's STAFF: `o` ranks as staff. */
  staff(o: DbObject): boolean;
  /**
   * MUX's CONNECTED: the player `o` is online as the one asking may see it (MUX shows no dark
   * wizard connected to mortals; here a dark player is connected only to whoever may see it,
   * as in `who` and lwho()).
   */
  connected(o: DbObject): boolean;
}

/** True when `o` has the flag MUX calls `lower` (lower case, as the engine's flags are). */
export function hasMuxFlag(o: DbObject, lower: string, tests: MuxFlagTests): boolean {
  switch (lower) {
    case "wizard":
      if (hasFlag(o.flags, "superuser")) return true;
      break;
    case "royalty":
      if (hasFlag(o.flags, "admin")) return true;
      break;
    case "staff":
      if (tests.staff(o)) return true;
      break;
    case "connected":
      // Derived only: a stored flag of that name is no one's connection.
      return typeOf(o) === "player" && tests.connected(o);
  }
  return hasFlag(o.flags, lower);
}
