/**
 * Which `$-commands` a typed line runs, in TinyMUX's order (docs/commands.md): the actor's own,
 * those of the things in its room, the room's, those of what it carries; each object with its
 * parents' (a child's attribute of the same name hides the parent's, a `no_inherit` one is not
 * inherited), every match on every object running, in that order. Only when none matched there,
 * the zone master object of the room, then the actor's (src/world/zones.ts); only when none
 * matched there, the master room's contents and then the room itself (without parents, as MUX).
 * An object set `halt` or `no_command`, or whose `use` lock the actor fails, offers none; an
 * attribute set `no_command` runs nothing.
 */
import type { RegexpCache } from "../regexp_cache.ts";
import type { DbObject } from "../../world/types.ts";
import type { WorldReader } from "../../world/live_world.ts";
import type { LiveAttributes } from "../../world/attributes/store.ts";
import { hasFlag } from "../../world/flags.ts";
import { type LockWorld, passesObjectLock } from "../../world/locks.ts";
import { parentChain, parentOf } from "../../world/parents.ts";
import { zoneOf } from "../../world/zones.ts";
import type { ProgramIndex } from "./index.ts";
import { matchProgram, type ProgramEntry } from "./entries.ts";

/** One matched `$-command`: run `entry.action` as `executor` with `args` as `%0`–`%9`. */
export interface ProgramMatch {
  entry: ProgramEntry;
  /** The object the command was found on (a parent's runs as its child, as MUX). */
  executor: string;
  args: string[];
}

/** What matching reads. */
export interface MatchSources {
  world: WorldReader;
  attributes: Pick<LiveAttributes, "peek">;
  index: ProgramIndex;
  /** The softcode engine's compiled regular expressions. */
  regexps: RegexpCache;
  /** What use locks read (the engine's lock world). */
  locks: LockWorld | null;
  /** Whether there is time left to match more (Softcode.metered): false stops the matching. */
  more: () => boolean;
}

/** The line to match: as typed, and as evaluated (MUX matches that unless `no_parse`). */
export interface LineForms {
  raw: string;
  evaluated: string;
}

/** True when `obj` offers no `$-commands` at all (halted, or set no_command). */
function silenced(obj: DbObject): boolean {
  return hasFlag(obj.flags, "halt") || hasFlag(obj.flags, "no_command");
}

/** True when `actor` passes `obj`'s use lock (none: everyone), read in the lock world. */
export function mayUse(locks: LockWorld | null, obj: DbObject, actor: DbObject): boolean {
  return !obj.data?.locks?.use ||
    passesObjectLock(locks, obj, "use", {
      id: `#${actor.id}`,
      flags: actor.flags,
      connected: true,
    });
}

/**
 * The `$-commands` of `thing` (with its parents when `parents`) that `line` matches, appended
 * to `out`; answers whether any matched.
 */
function matchOn(
  src: MatchSources,
  thing: DbObject,
  actor: DbObject,
  line: LineForms,
  parents: boolean,
  out: ProgramMatch[],
): boolean {
  // Most objects near a player hold no program, have no parent and no use lock: passed over at
  // once. A use lock is tested even where no `$-command` is held, as MUX's atr_match1 tests it
  // before it reads any attribute: an evaluation key in it runs once a line either way.
  if (
    !src.index.holds(thing.id) && (!parents || !parentOf(thing)) && !thing.data?.locks?.use
  ) return false;
  if (silenced(thing)) return false;
  let found = false;
  const chain = parents ? objectsOf(src.world, parentChain(src.world, thing.id)) : [thing];
  for (const [level, obj] of chain.entries()) {
    // MUX stops at the first level whose use lock the actor fails.
    if (!mayUse(src.locks, obj, actor)) break;
    for (const e of candidates(line, (lower) => src.index.commands(obj.id, lower))) {
      if (e.off || (level > 0 && hidden(src, chain, level, e))) continue;
      if (!src.more()) return found;
      const args = matchProgram(e, e.raw ? line.raw : line.evaluated, src.regexps, src.more);
      if (args) {
        out.push({ entry: e, executor: thing.id, args });
        found = true;
      }
    }
  }
  return found;
}

/** The entries an index offers for either form of the line, in its order, each once. */
function candidates(
  line: LineForms,
  lookup: (lower: string) => readonly ProgramEntry[],
): readonly ProgramEntry[] {
  const raw = line.raw.toLowerCase();
  const first = lookup(raw);
  if (line.evaluated === line.raw) return first;
  const evaluated = line.evaluated.toLowerCase();
  if (evaluated === raw) return first;
  const second = lookup(evaluated);
  if (!first.length) return second;
  if (!second.length) return first;
  return [...new Set([...first, ...second])];
}

function objectsOf(world: WorldReader, ids: readonly string[]): DbObject[] {
  const out: DbObject[] = [];
  for (const id of ids) {
    const o = world.object(id);
    if (o) out.push(o);
  }
  return out;
}

/** A parent's program its child does not see: not inherited, or hidden by a nearer attribute. */
function hidden(src: MatchSources, chain: DbObject[], level: number, e: ProgramEntry): boolean {
  if (e.private) return true;
  for (let i = 0; i < level; i++) if (src.attributes.peek(chain[i].id, e.attr)) return true;
  return false;
}

/** The `$-commands` `line` runs for `actor` in `room` (see the module comment), in order. */
export function matchCommands(
  src: MatchSources,
  actor: DbObject,
  room: DbObject | null,
  line: LineForms,
): ProgramMatch[] {
  const out: ProgramMatch[] = [];
  if (!src.index.active) return out;
  const { world } = src;
  matchOn(src, actor, actor, line, true, out);
  if (room) {
    // Only what could offer one (ProgramIndex.offerersIn): not each of a room's many players.
    for (const id of src.index.offerersIn(room.id)) {
      if (id === actor.id) continue;
      const o = world.object(id);
      if (o) matchOn(src, o, actor, line, true, out);
    }
    matchOn(src, room, actor, line, true, out);
  }
  for (const id of src.index.offerersIn(actor.id)) {
    const o = world.object(id);
    if (o) matchOn(src, o, actor, line, true, out);
  }
  if (out.length) return out;
  // MUX's zones: the zone of the actor's room, then the actor's own zone, before the master room.
  const zones = [room ? zoneOf(room) : "", zoneOf(actor)];
  if (zones[1] === zones[0]) zones.pop();
  for (const zone of zones) {
    if (zone && matchZone(src, zone, actor, line, out)) return out;
  }
  matchMaster(src, actor, line, out);
  return out;
}

/**
 * The `$-commands` of zone master object `zone` that `line` matches: its own (with its parents),
 * or when it is a room ("parent room"), those of what is in it.
 */
function matchZone(
  src: MatchSources,
  zone: string,
  actor: DbObject,
  line: LineForms,
  out: ProgramMatch[],
): boolean {
  const zmo = src.world.object(zone);
  if (!zmo) return false;
  if (!hasFlag(zmo.flags, "room")) return matchOn(src, zmo, actor, line, true, out);
  let found = false;
  for (const id of src.index.offerersIn(zmo.id)) {
    const o = id === actor.id ? null : src.world.object(id);
    if (o && matchOn(src, o, actor, line, true, out)) found = true;
  }
  return found;
}

/** The master room's `$-commands` (contents, then the room), from the index over all of them. */
function matchMaster(src: MatchSources, actor: DbObject, line: LineForms, out: ProgramMatch[]) {
  const allowed = new Map<string, boolean>();
  for (const e of candidates(line, (lower) => src.index.masterCommands(lower))) {
    if (e.off || e.objectId === actor.id) continue;
    let ok = allowed.get(e.objectId);
    if (ok === undefined) {
      const o = src.world.object(e.objectId);
      ok = !!o && !silenced(o) && mayUse(src.locks, o, actor);
      allowed.set(e.objectId, ok);
    }
    if (!ok) continue;
    if (!src.more()) return;
    const args = matchProgram(e, e.raw ? line.raw : line.evaluated, src.regexps, src.more);
    if (args) out.push({ entry: e, executor: e.objectId, args });
  }
}
