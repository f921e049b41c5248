/**
 * A lock as a player types it, made ready to store: the names in it (`me`, `here`, `*player`,
 * a thing or exit nearby, a player's name) become dbrefs, as MUX does when a lock is set, so the
 * stored lock keeps naming the same objects wherever they go. A bare word that is a flag the
 * engine knows stays a flag test (docs/commands.md, "Locks").
 */
import type { DbObject } from "../world/types.ts";
import { LockSyntaxError, parseLock, validLock } from "../world/locks.ts";
import { isKnownFlag } from "../world/flags.ts";
import { ValidationError } from "../errors.ts";
import { CommandError } from "./errors.ts";
import { NOT_HERE } from "./target.ts";

/** Most distinct names one lock may hold (each is one lookup). */
const MAX_LOCK_NAMES = 20;

/**
 * The stored form of `expr` set by the actor whose `target` resolves names: names turned into
 * dbrefs ("" for an empty lock). The one parser of locks being set, in game (`@lock`) and through
 * REST and plugins (`PluginWorld.settableLock`); softcode's `lock()` resolves names its own way
 * and shares lockNames and storedLock. Throws ValidationError for bad syntax, too many names, or
 * a name that matches nothing (or several things).
 */
export async function settableLock(
  u: { target(ref: string): Promise<DbObject> },
  expr: string,
): Promise<string> {
  const ids = new Map<string, string>();
  for (const name of lockNames(expr)) {
    try {
      ids.set(name, (await u.target(name)).id);
    } catch (e) {
      if (e instanceof CommandError) throw new ValidationError(`${e.message} (${name})`);
      throw e;
    }
  }
  return storedLock(expr, ids);
}

/**
 * The names a lock being set holds, each to be resolved to an object; throws ValidationError for
 * bad syntax or too many names.
 */
export function lockNames(expr: string): Set<string> {
  if (typeof expr !== "string") throw new ValidationError("A lock must be a string.");
  const names = new Set<string>();
  try {
    // The names are collected (each answers a placeholder) while the syntax is checked.
    parseLock(String(expr ?? "").trim() || "#true", (word) => {
      names.add(word);
      return "0";
    }, isKnownFlag);
  } catch (e) {
    if (e instanceof LockSyntaxError) throw new ValidationError(e.message);
    throw e;
  }
  if (names.size > MAX_LOCK_NAMES) {
    throw new ValidationError(`A lock may name at most ${MAX_LOCK_NAMES} objects.`);
  }
  return names;
}

/** The stored form of `expr`, its names (lockNames) replaced by the ids `ids` gives them. */
export function storedLock(expr: string, ids: ReadonlyMap<string, string>): string {
  return validLock(expr, (word) => ids.get(word) ?? null, isKnownFlag);
}

/**
 * `settableLock` with names found at once by `resolve` (an id, or null for none), for softcode's
 * `lock()`, which cannot wait; throws ValidationError as settableLock does.
 */
export function settableLockNow(expr: string, resolve: (name: string) => string | null): string {
  const ids = new Map<string, string>();
  for (const name of lockNames(expr)) {
    const id = resolve(name);
    if (id === null) throw new ValidationError(`${NOT_HERE} (${name})`);
    ids.set(name, id);
  }
  return storedLock(expr, ids);
}
