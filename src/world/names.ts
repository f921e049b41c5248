/** Name rules for players and other objects. */
import { stripColour } from "../text/colour.ts";
import { nameCharProblem } from "../text/sanitize.ts";
import type { DbObject } from "./types.ts";

const PLAYER_NAME = /^[A-Za-z][A-Za-z0-9_'-]{1,31}$/;

/** Why a player name is unacceptable, or null when it is fine. */
export function playerNameProblem(name: unknown): string | null {
  if (typeof name !== "string" || name.length === 0) return "name is required";
  if (name.length > 32) return "name must be 32 characters or fewer";
  if (!PLAYER_NAME.test(name)) {
    return "name must be 2 to 32 characters: a letter, then letters, digits, _ ' or -";
  }
  if (/^(here|me|home)$/i.test(name)) return `'${name}' is a reserved word`;
  return null;
}

/** Why an object (room, thing, exit) name is unacceptable, or null when it is fine. */
export function objectNameProblem(name: unknown): string | null {
  if (typeof name !== "string" || name.trim().length === 0) return "name is required";
  if (name.length > 64) return "name must be 64 characters or fewer";
  // Player names are ASCII by their pattern; other names may use any script, but nothing
  // invisible or reordering (src/text/sanitize.ts).
  const chars = nameCharProblem(name);
  if (chars) return chars;
  if (/[=]/.test(name) || name.trim().startsWith("#")) {
    return "name must not contain '=' or start with '#'";
  }
  return null;
}

/** First part of a MUSH-style `Name;alias;alias` exit name. */
export function exitName(obj: Pick<DbObject, "name">): string {
  const i = obj.name.indexOf(";");
  return i === -1 ? obj.name : obj.name.slice(0, i);
}

/** True when a colour-coded moniker spells `name` once its colour codes are removed. */
export function monikerSpells(moniker: string, name: string): boolean {
  return stripColour(moniker).trim().toLowerCase() === name.trim().toLowerCase();
}

/**
 * Renames an object in place (inside an `ObjectStore.update`). A moniker that no longer spells
 * the name is dropped, so a renamed player cannot go on showing the old name to others; a
 * player renamed to one of its own aliases loses that alias (it is now the name).
 */
export function rename(o: DbObject, name: string): void {
  o.name = name;
  const m = o.data.moniker;
  if (typeof m === "string" && !monikerSpells(m, name)) delete o.data.moniker;
  const aliases = o.data.aliases;
  if (o.flags.includes("player") && Array.isArray(aliases)) {
    const rest = aliases.filter((a) => String(a).toLowerCase() !== name.toLowerCase());
    if (rest.length) o.data.aliases = rest;
    else delete o.data.aliases;
  }
}
