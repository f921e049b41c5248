/** Permission flags, their levels and who may set them. */
import { FLAG_LEVELS_TABLE } from "./flag_levels.ts";
import { lowerCase } from "../text/lower.ts";

/** Flags that mark staff for REST permission checks. */
export const STAFF_FLAGS: readonly string[] = ["superuser", "admin", "wizard"];

/** Flags any game object may carry that are not permissions. */
export const PLAIN_FLAGS: readonly string[] = [
  "dark",
  "haven",
  "opaque",
  "quiet",
  "safe",
  "sticky",
  "transparent",
  "unfindable",
  "ic",
  "ooc",
  // Softcode switches (docs/softcode.md): halt stops an object's $-commands and listening,
  // no_command its $-commands, monitor makes its ^-patterns hear its room.
  "halt",
  "monitor",
  "no_command",
  "visual",
  "parent_ok",
  // MUX's: anyone may `enter` a thing set enter_ok (not only its owner).
  "enter_ok",
  // MUX's: inherit lets an object act with its owner's powers (who may set it: below); puppet
  // makes a thing relay what it hears to its owner.
  "inherit",
  "puppet",
  // MUX's, for the locks they open (docs/commands.md, "Lock types"): a room set auditorium
  // checks its speech lock, jump_ok lets those who pass its teleport lock teleport in, open_ok
  // lets those who pass its open lock open exits in it.
  "auditorium",
  "jump_ok",
  "open_ok",
  // MUX's link_ok: anyone may use the object's semaphores (@wait, @notify). Rooms need it not
  // to be linked to: here every room may be (src/world/building.ts, mayLinkTo).
  "link_ok",
];

/** Other names MUX gives flags (`@set obj=halted`), by the engine's name. */
const FLAG_ALIASES: Readonly<Record<string, string>> = Object.freeze({ halted: "halt" });

/** The engine's name for a flag word (lower case; MUX's other names mapped). */
export function canonicalFlag(word: string): string {
  const f = lowerCase(word.trim());
  return Object.hasOwn(FLAG_ALIASES, f) ? FLAG_ALIASES[f] : f;
}

/** True when the flag list contains `flag` as a whole name (case-insensitive). */
export function hasFlag(flags: readonly string[], flag: string): boolean {
  const f = lowerCase(flag);
  // Indexed, not for-of: flag lists reach here as arrays of many kinds (frozen, copied, read
  // from storage), and over so many V8 runs for-of as the iterator protocol, allocating an
  // iterator and a result per flag (a +who listing's largest garbage after its own strings).
  for (let i = 0; i < flags.length; i++) if (lowerCase(flags[i]) === f) return true;
  return false;
}

/** The flag of a guest character (`connect guest`); set only when one is made, never by `@set`. */
export const GUEST_FLAG = "guest";

/** True for a guest character. */
export function isGuest(flags: readonly string[]): boolean {
  return hasFlag(flags, GUEST_FLAG);
}

/** True for admin, wizard or superuser. */
export function isStaff(flags: readonly string[]): boolean {
  // Indexed, as in hasFlag.
  for (let i = 0; i < flags.length; i++) if (STAFF_FLAGS.includes(lowerCase(flags[i]))) return true;
  return false;
}

/** Highest permission level among the flags (0 when none; entries that are not names count 0). */
export function levelOf(flags: readonly string[]): number {
  let max = 0;
  for (const f of flags) {
    // String(): lock subjects may come from stored data of any shape.
    const name = lowerCase(typeof f === "string" ? f : String(f));
    if (Object.hasOwn(FLAG_LEVELS_TABLE, name)) max = Math.max(max, FLAG_LEVELS_TABLE[name]);
  }
  return max;
}

/** True when the flags reach at least the level of `flag` (e.g. `builder`). */
export function atLeast(flags: readonly string[], flag: string): boolean {
  const name = flag.toLowerCase();
  return Object.hasOwn(FLAG_LEVELS_TABLE, name) && levelOf(flags) >= FLAG_LEVELS_TABLE[name];
}

/**
 * Why `actorFlags` may not set or clear `flag` (on an object of `targetFlags`, when known), or
 * null when allowed. superuser is never settable; admin and wizard only by a superuser;
 * storyteller and builder by an admin (or higher). Plain flags by whoever controls the object
 * (the caller checks control), with MUX's exceptions: `inherit` only by a player or an object
 * that inherits itself (MUX's Inherits()), `monitor` on a player only by staff (Can_Monitor).
 */
export function flagChangeProblem(
  actorFlags: readonly string[],
  flag: string,
  targetFlags: readonly string[] = [],
): string | null {
  const f = canonicalFlag(flag);
  if (f === "inherit" && !isStaff(actorFlags)) {
    if (!hasFlag(actorFlags, "player") && !hasFlag(actorFlags, "inherit")) {
      return "Only a player, or an object that has inherit itself, may set inherit.";
    }
  }
  if (f === "monitor" && hasFlag(targetFlags, "player") && !isStaff(actorFlags)) {
    return "Only staff may set monitor on a player.";
  }
  if (f === "superuser") return "The superuser flag cannot be set or cleared in-game.";
  if (f === "admin" || f === "wizard") {
    return hasFlag(actorFlags, "superuser") ? null : `Only the superuser may set ${f}.`;
  }
  if (f === "storyteller" || f === "builder") {
    return levelOf(actorFlags) >= 9 ? null : `Only an admin may set ${f}.`;
  }
  if (PLAIN_FLAGS.includes(f)) return null;
  // MUX's words; an object's type (player, room, thing, exit) is no flag there either.
  return UNKNOWN_FLAG;
}

/** MUX's answer to a word that names no flag one may set (flag_set). */
export const UNKNOWN_FLAG = "I do not understand that flag.";

/** Type flags every object carries one of. */
const TYPE_FLAGS: readonly string[] = ["player", "room", "thing", "exit"];

/**
 * True for a flag the engine knows (a permission flag, a plain flag, a type, `guest`): in a lock
 * being set, such a bare word is a flag test; any other word names an object (docs/commands.md, "Locks").
 */
export function isKnownFlag(word: string): boolean {
  const f = lowerCase(word);
  return Object.hasOwn(FLAG_LEVELS_TABLE, f) || PLAIN_FLAGS.includes(f) ||
    TYPE_FLAGS.includes(f) || f === GUEST_FLAG;
}

/** Every flag isKnownFlag knows, sorted (`@list flags`). */
export function knownFlags(): string[] {
  return [
    ...new Set([...Object.keys(FLAG_LEVELS_TABLE), ...PLAIN_FLAGS, ...TYPE_FLAGS, GUEST_FLAG]),
  ].sort();
}
