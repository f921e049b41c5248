/**
 * Database lookups TinyMUX 2.12 has that the engine lacked (issue 36): finding a player
 * (pfind), what links to a place (entrances, from the world's indexes of exits by destination
 * and of homes), the rooms around a room (lrooms), the $-commands an object holds (lattrcmds,
 * lcmds), a lock's text (lock), powers and quota. What they reveal follows who may see it, as
 * objects.ts's do; every list is bounded by the evaluation's output limit and its steps.
 */
import { define } from "./define.ts";
import type { Frame, FunctionDef } from "../types.ts";
import type { Evaluation } from "../eval.ts";
import { AMBIGUOUS, dbrefId, found, matchThing, NOTHING } from "../match.ts";
import { bool, toInt, truthy } from "../numbers.ts";
import { sepOf } from "../list.ts";
import { typeOf } from "../../world/objects.ts";
import type { DbObject } from "../../world/types.ts";
import { lockOf, lockTypeNamed } from "../../world/locks.ts";
import { quotaLeft } from "../../world/building.ts";
import { examinable, listed, thing } from "./objects.ts";

/** Deepest lrooms() goes (MUX's own bound). */
const MAX_LROOMS_DEPTH = 50;

/** Ids in dbref order (an index lists them in code-unit order). */
function byDbref(ids: Iterable<string>): string[] {
  return [...ids].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
}

/** `ids` as MUX's list of dbrefs, whole items up to the output limit. */
function dbrefs(ev: Evaluation, ids: readonly string[]): string {
  let out = "";
  for (const id of ids) {
    if (out.length + id.length + 2 > ev.lbuf) break;
    out += out === "" ? "#" + id : " #" + id;
  }
  return out;
}

/**
 * The player a word names as MUX's lookup_player reads it: `me` (the executor), `#dbref` (a
 * player's), `*name` or a name or alias; null when none.
 */
function lookupPlayer(ev: Evaluation, f: Frame, word: string): DbObject | null {
  const w = word.trim();
  if (w.toLowerCase() === "me") return ev.object(f.executor);
  const d = dbrefId(w);
  if (d !== null) {
    const o = ev.object(d);
    return o && typeOf(o) === "player" ? o : null;
  }
  const id = ev.ports.world.playerByName(w.replace(/^\*/, "").trim());
  return id === null ? null : ev.object(id);
}

/**
 * What a place's entrances are looked for at: `""` the executor's location (a room its own),
 * else the object named, noisily as MUX's match (the executor is told why); null when none.
 */
function entrancePlace(ev: Evaluation, f: Frame, name: string): DbObject | null {
  if (name === "") {
    const me = ev.object(f.executor);
    if (!me) return null;
    return me.location ? ev.object(me.location) : me;
  }
  const id = matchThing(ev.ports.world, f.executor, name);
  if (found(id)) return ev.object(id);
  ev.ports.delivery.toObject(
    f.executor,
    id === AMBIGUOUS ? "I don't know which one you mean!" : "I don't see that here.",
  );
  return null;
}

/** A dbref bound of entrances() (`#12` or `12`), or null when it names no dbref. */
function bound(text: string | undefined): number | null {
  if (text === undefined) return null;
  const n = toInt(text.startsWith("#") ? text.slice(1) : text);
  return n >= 0 ? n : null;
}

/** The types entrances() lists, from its letters; null for a letter it does not know. */
function entranceTypes(letters: string): Set<string> | null {
  const all = ["exit", "thing", "player", "room"];
  const want = new Set<string>();
  for (const c of letters.toLowerCase()) {
    if (c === "a") all.forEach((t) => want.add(t));
    else if (c === "e") want.add("exit");
    else if (c === "t") want.add("thing");
    else if (c === "p") want.add("player");
    else if (c === "r") want.add("room");
    else return null;
  }
  return want.size ? want : new Set(all);
}

/**
 * MUX's room_list: the rooms reached through the exits of `room` that the executor may see,
 * depth first, each room once (the first path that reaches it gives its level); those at the
 * last level (or at every level with `all`) that the executor may examine, stands in, or is the
 * enactor, go in `report`. Each room visited is a step of the evaluation.
 */
function roomList(
  ev: Evaluation,
  f: Frame,
  room: DbObject,
  level: number,
  max: number,
  all: boolean,
  seen: Set<string>,
  report: Set<string>,
): boolean {
  if (!ev.tick()) return false;
  const me = ev.object(f.executor);
  if (
    (level === max || all) &&
    (examinable(ev, f, room) || me?.location === room.id || room.id === f.enactor)
  ) report.add(room.id);
  if (level >= max) return true;
  for (const exit of listed(ev, f, room)) {
    if (typeOf(exit) !== "exit") continue;
    const to = exit.data.destination;
    if (typeof to !== "string" || seen.has(to)) continue;
    const next = ev.object(to);
    if (!next) continue;
    seen.add(to);
    if (!roomList(ev, f, next, level + 1, max, all, seen, report)) return false;
  }
  return true;
}

/**
 * The $-commands (or ^-listens) of an object's attributes the executor may read, matching the
 * wildcard after a slash (all without one): each attribute's name and value, in name order, or
 * null when the object is not found (MUX's parse_attrib_wild).
 */
function commandAttrs(
  ev: Evaluation,
  f: Frame,
  ref: string,
  kind: "$" | "^",
): { name: string; value: string }[] | null {
  const slash = ref.indexOf("/");
  const id = matchThing(ev.ports.world, f.executor, slash < 0 ? ref : ref.slice(0, slash));
  if (!found(id) || !ev.object(id)) return null;
  const pattern = slash < 0 ? "*" : ref.slice(slash + 1).trim() || "*";
  const out: { name: string; value: string }[] = [];
  for (const name of ev.ports.attributes.names(id)) {
    if (!ev.tick()) break;
    if (!ev.wild(pattern, name)) continue;
    const a = ev.ports.attributes.get(id, name);
    if (!a || a.value[0] !== kind || !ev.mayRead(f.executor, id, a)) continue;
    out.push({ name, value: a.value });
  }
  return out;
}

/**
 * The pattern of a `$pattern:action` (or `^pattern:action`) value, lower-cased, up to its first
 * colon not escaped by a backslash (MUX's lcmds); null when it has none or an empty pattern.
 */
function commandPattern(value: string): string | null {
  if (value[1] === ":") return null;
  let escaped = false;
  for (let i = 1; i < value.length; i++) {
    const c = value[i];
    if (c === "\\") escaped = !escaped;
    else if (c === ":" && !escaped) return value.slice(1, i).toLowerCase();
    else escaped = false;
  }
  return null;
}

/** The lookups. */
export const lookupFunctions: FunctionDef[] = [
  define("pfind", 1, 1, {
    family: "database",
    args: "pfind(<player>)",
    summary: "The dbref of a player by name or alias (*name, me); a #dbref is given back as it is.",
    example: { think: "pfind(alice) [pfind(*Wizard)]", gives: "#2 #1" },
  }, (ev, f, args) => {
    const name = args[0];
    // MUX's pfind(): a dbref is found as any object, and not checked to be a player.
    if (name[0] === "#") {
      const r = matchThing(ev.ports.world, f.executor, name);
      return found(r) ? "#" + r : r;
    }
    const p = lookupPlayer(ev, f, name.replace(/^\*/, ""));
    return p ? "#" + p.id : "#-1 NO MATCH";
  }),
  define("entrances", 0, 4, {
    family: "database",
    args: "entrances([<object>[, <types>[, <low>[, <high>]]]])",
    summary:
      "What links to the object (your location when empty): exits leading there, and players and things whose home it is.",
    example: { think: "entrances(here,e)", gives: "#4" },
    more: "Types are letters: e exits, t things, p players, r rooms (rooms link nowhere here), " +
      "a all (the default). Only dbrefs from <low> to <high> are listed, and only what you may " +
      "examine, unless you may examine the object. Found from the world's indexes of exits by " +
      "destination and of homes, not by a search.",
  }, (ev, f, args) => {
    const low = bound(args[2]) ?? 0;
    const high = bound(args[3]) ?? Infinity;
    const types = entranceTypes(args[1] ?? "");
    if (!types) return "#-1 INVALID TYPE";
    const place = entrancePlace(ev, f, args[0] ?? "");
    if (!place) return NOTHING;
    const w = ev.ports.world;
    const ids: string[] = [];
    if (types.has("exit")) ids.push(...w.exitsTo(place.id, Infinity));
    if (types.has("thing") || types.has("player")) {
      // A place can be home to thousands: each is a step of work, under the evaluation's limits.
      for (const id of w.homedAt(place.id, Infinity)) {
        if (!ev.tick()) break;
        const o = w.object(id);
        if (o && types.has(typeOf(o))) ids.push(id);
      }
    }
    const mayAll = examinable(ev, f, place);
    const keep: string[] = [];
    for (const id of byDbref(ids)) {
      if (!ev.tick()) break;
      const n = Number(id);
      if (n < low || n > high) continue;
      const o = w.object(id);
      if (o && (mayAll || examinable(ev, f, o))) keep.push(id);
    }
    return dbrefs(ev, keep);
  }),
  define("powers", 1, 1, {
    family: "database",
    args: "powers(<object>)",
    summary: "The object's powers by name: none, since the engine's powers are its staff ranks.",
    example: { think: "powers(me)", gives: "" },
    more: "haspower() is true for staff, who hold every power by their rank (see flags()).",
  }, (ev, f, args) => {
    const o = thing(ev, f, args[0]);
    return typeof o === "string" ? o : "";
  }),
  define("lrooms", 1, 3, {
    family: "database",
    args: "lrooms(<room>[, <depth>[, <all>]])",
    summary:
      "The rooms reached from the room through exits you may see, up to <depth> steps (default 1, at most 50).",
    example: { think: "lrooms(here)", gives: "" },
    more: "With <all> 0, only the rooms exactly <depth> steps away. Only rooms you may examine " +
      "(or stand in) are listed, in dbref order; the room itself is not.",
  }, (ev, f, args) => {
    const room = thing(ev, f, args[0]);
    if (typeof room === "string") return room;
    if (typeOf(room) !== "room") return "#-1 FIRST ARGUMENT MUST BE A ROOM";
    const depth = args.length >= 2 ? toInt(args[1]) : 1;
    if (depth < 0) return "#-1 SECOND ARGUMENT MUST BE A POSITIVE NUMBER";
    if (depth > MAX_LROOMS_DEPTH) return "#-1 SECOND ARGUMENT IS TOO LARGE";
    const all = args.length === 3 ? truthy(args[2]) : true;
    const report = new Set<string>();
    roomList(ev, f, room, 0, depth, all, new Set([room.id]), report);
    report.delete(room.id);
    return dbrefs(ev, byDbref(report));
  }),
  define("lattrcmds", 1, 1, {
    family: "attributes",
    args: "lattrcmds(<object>[/<pattern>])",
    summary: "The names of the object's attributes that hold $-commands (and that you may read).",
    example: { setup: ["&CMD_HI me=$hi:think Hi!"], think: "lattrcmds(me)", gives: "CMD_HI" },
  }, (ev, f, args) => {
    const attrs = commandAttrs(ev, f, args[0], "$");
    if (!attrs) return "#-1 NO MATCH";
    return joinWhole(ev, attrs.map((a) => a.name), " ");
  }),
  define("lcmds", 1, 3, {
    family: "attributes",
    args: "lcmds(<object>[/<pattern>][, <osep>[, <type>]])",
    summary:
      "The $-command patterns on the object, lower-cased (type ^: its ^-listen patterns instead).",
    example: {
      setup: ["&CMD_HI me=$Hi *:think Hi %0!"],
      think: "lcmds(me,|)",
      gives: "hi *",
    },
  }, (ev, f, args) => {
    const osep = sepOf(args[1], { allowNull: true });
    if (typeof osep !== "string") return osep.error;
    const kind = args.length === 3 && args[2][0] === "^" ? "^" : "$";
    const attrs = commandAttrs(ev, f, args[0], kind);
    if (!attrs) return "#-1 NO MATCH";
    const patterns: string[] = [];
    for (const a of attrs) {
      const p = commandPattern(a.value);
      if (p !== null) patterns.push(p);
    }
    return joinWhole(ev, patterns, osep);
  }),
  define("lock", 1, 2, {
    family: "database",
    args: "lock(<object>[/<lock>][, <key>])",
    summary: "The text of the object's lock (default, or the one named), if you may examine it; " +
      "with a key, sets the lock first, as @lock does (an empty key removes it).",
    example: { think: "[lock(box/enter,me)][lock(box/enter)]", gives: "#1#1" },
    more: "Setting is later MUX's form (2.12 only reads) under @lock's rules: you must control " +
      "the object (else #-1 PERMISSION DENIED); a key @lock would refuse gives " +
      "#-1 I DON'T UNDERSTAND THAT KEY and tells you why. A lock name the engine does not " +
      "know gives #-1 LOCK NOT FOUND.",
  }, (ev, f, args) => {
    const slash = args[0].indexOf("/");
    let o = thing(ev, f, slash < 0 ? args[0] : args[0].slice(0, slash));
    if (typeof o === "string") return o;
    const type = slash < 0 ? "basic" : lockTypeNamed(args[0].slice(slash + 1));
    if (!type) return "#-1 LOCK NOT FOUND";
    if (args.length === 2) {
      const w = ev.ports.world;
      const r = ev.ports.changes.lock(f.executor, o.id, type, args[1], (name) => {
        const id = matchThing(w, f.executor, name);
        return found(id) ? id : null;
      });
      if (typeof r !== "string") {
        if (r.permission) return "#-1 PERMISSION DENIED";
        ev.ports.delivery.toObject(f.executor, r.refused);
        return "#-1 I DON'T UNDERSTAND THAT KEY";
      }
      o = ev.object(o.id) ?? o;
    }
    return examinable(ev, f, o) ? lockOf(o, type) : "";
  }),
  define("hasquota", 2, 3, {
    family: "database",
    args: "hasquota(<player>, <count>[, <type>])",
    summary: "1 when the player may still own <count> more objects under the object quota.",
    example: { think: "hasquota(me,10)", gives: "#-1 Quotas are not enabled." },
    more: "Yourself, or anyone for staff (else #-1 PERMISSION DENIED). Staff have no quota. " +
      "Without an object quota (game.objectQuota 0) it answers as MUX without quotas.",
  }, (ev, f, args) => {
    const quota = ev.ports.objectQuota();
    if (quota <= 0) return "#-1 Quotas are not enabled.";
    const who = lookupPlayer(ev, f, args[0]);
    if (!who) return "#-1 NOT FOUND";
    const me = ev.object(f.executor);
    if (!me) return "#-1 NOT FOUND";
    if ((me.owner || me.id) !== who.id && !ev.ports.access.isStaff(me)) {
      return "#-1 PERMISSION DENIED";
    }
    const left = quotaLeft(who, ev.ports.world.ownedCount(who.id), quota);
    return bool(left === null || left >= toInt(args[1]));
  }),
];

/** Words joined by `sep`, whole words up to the output limit. */
function joinWhole(ev: Evaluation, words: readonly string[], sep: string): string {
  let out = "";
  for (const [i, w] of words.entries()) {
    const next = i === 0 ? w : sep + w;
    if (out.length + next.length > ev.lbuf) break;
    out += next;
  }
  return out;
}
