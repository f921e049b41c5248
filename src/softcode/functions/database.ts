/**
 * More functions about objects, as TinyMUX 2.12 has them: the first and next of a place's
 * contents and exits (con, exit, next), who may examine what (visible), parents (lparent,
 * lattrp), flags by name (lflags), home, rloc, fullname, valid() and doing(). What they reveal
 * follows the same rules as objects.ts's: who may see it.
 */
import { define } from "./define.ts";
import type { Frame, FunctionDef } from "../types.ts";
import type { Evaluation } from "../eval.ts";
import { dbrefId, found, matchError, matchThing, parseObjAttr } from "../match.ts";
import { typeOf } from "../../world/objects.ts";
import type { DbObject } from "../../world/types.ts";
import { objectNameProblem, playerNameProblem } from "../../world/names.ts";
import { passwordProblem } from "../../auth/passwords.ts";
import { MAX_DOING } from "../../commands/limits.ts";
import { toWire, visibleLength } from "../markup.ts";
import { ctimeText } from "./time.ts";
import { isRational, toInt } from "../numbers.ts";
import { validAttrName } from "./control.ts";
import { upperAscii } from "../compile.ts";
import { parentChain } from "../../world/parents.ts";
import { inheritable } from "../../world/attributes/inherit.ts";
import { examinable, listed, mayListContents, muxFlags, shownLoc, thing } from "./objects.ts";

/** Most levels rloc() climbs. */
const MAX_RLOC = 20;
/** Type flags, which lflags() leaves out as MUX does. */
const TYPES = new Set(["PLAYER", "ROOM", "EXIT", "THING"]);

function ref(id: string): string {
  return "#" + id;
}

/** What of `o`'s place the executor sees listed, of the same kind as `exits` says. */
function sameKind(ev: Evaluation, f: Frame, place: DbObject, exits: boolean): DbObject[] {
  return listed(ev, f, place).filter((c) => (typeOf(c) === "exit") === exits);
}

/** valid()'s rules, by category. */
const VALID: Record<string, (s: string) => boolean> = {
  name: (s) => objectNameProblem(s) === null,
  thingname: (s) => objectNameProblem(s) === null,
  roomname: (s) => objectNameProblem(s) === null,
  exitname: (s) => objectNameProblem(s) === null,
  playername: (s) => playerNameProblem(s) === null,
  attrname: (s) => validAttrName(s),
  password: (s) => passwordProblem(s) === null,
  doing: (s) => !/[\r\n]/.test(s) && visibleLength(s) <= MAX_DOING,
};

/** The database family's second part. */
export const databaseFunctions: FunctionDef[] = [
  define("con", 1, 1, {
    family: "database",
    args: "con(<object>)",
    summary: "The first thing the object contains that you may see, or #-1.",
    example: { think: "con(here)", gives: "#1" },
  }, (ev, f, args) => {
    const o = thing(ev, f, args[0]);
    if (typeof o === "string") return o;
    if (typeOf(o) === "exit") return "#-1";
    if (!mayListContents(ev, f, o)) return "#-1 PERMISSION DENIED";
    const first = sameKind(ev, f, o, false)[0];
    return first ? ref(first.id) : "#-1";
  }),
  define("exit", 1, 1, {
    family: "database",
    args: "exit(<object>)",
    summary: "The first exit out of the object that you may see, or #-1.",
    example: { think: "exit(here)", gives: "#4" },
  }, (ev, f, args) => {
    const o = thing(ev, f, args[0]);
    if (typeof o === "string") return o;
    const first = sameKind(ev, f, o, true)[0];
    return first ? ref(first.id) : "#-1";
  }),
  define("next", 1, 1, {
    family: "database",
    args: "next(<object>)",
    summary:
      "The next exit after an exit in its room, or the next thing after a thing where it is; #-1 after the last.",
    example: { think: "next(con(here))", gives: "#2" },
  }, (ev, f, args) => {
    const o = thing(ev, f, args[0]);
    if (typeof o === "string") return o;
    const at = shownLoc(ev, f, o);
    const place = at ? ev.object(at) : null;
    if (!place || typeOf(o) === "room") return "#-1";
    // MUX's fun_next: the place must be examinable, the executor or where the executor is.
    const me = ev.object(f.executor);
    if (!examinable(ev, f, place) && place.id !== f.executor && place.id !== me?.location) {
      return "#-1 PERMISSION DENIED";
    }
    const exit = typeOf(o) === "exit";
    const list = sameKind(ev, f, place, exit);
    const i = list.findIndex((c) => c.id === o.id);
    if (i >= 0 && i + 1 < list.length) return ref(list[i + 1].id);
    // After the last exit MUX finds none (NOT FOUND); after the last thing, its Next is nothing.
    return exit ? "#-1 NOT FOUND" : "#-1";
  }),
  define("visible", 2, 2, {
    family: "database",
    args: "visible(<looker>, <object>[/<attribute>])",
    summary:
      "1 when the looker may examine the object (or read the attribute on it; a missing attribute as the object), else 0.",
    example: { think: "visible(*Alice,box)", gives: "0" },
  }, (ev, f, args) => {
    const a = matchThing(ev.ports.world, f.executor, args[0]);
    const looker = found(a) ? ev.object(a) : null;
    if (!looker) return "#-1 NOT FOUND (ARG1)";
    const p = parseObjAttr(ev.ports.world, f.executor, args[1]);
    const b = p.slash ? p.id ?? "#-1" : matchThing(ev.ports.world, f.executor, args[1]);
    const target = found(b) ? ev.object(b) : null;
    if (!target) return "#-1 NOT FOUND (ARG2)";
    const as: Frame = { ...f, executor: looker.id };
    const attr = p.slash && p.attr ? ev.ports.attributes.get(target.id, upperAscii(p.attr)) : null;
    if (attr) return ev.ports.access.canSeeAttr(looker, target, attr) ? "1" : "0";
    return examinable(ev, as, target) ? "1" : "0";
  }),
  define("lparent", 1, 1, {
    family: "database",
    args: "lparent(<object>)",
    summary: "The object and its parent, grandparent...: as far as you may examine them.",
    example: { think: "lparent(box)", gives: "#3" },
  }, (ev, f, args) => {
    const o = thing(ev, f, args[0]);
    if (typeof o === "string") return o;
    // Each parent is listed only while the one below it may be examined.
    const chain = parentChain(ev.ports.world, o.id);
    let shown = 1;
    while (shown < chain.length && examinable(ev, f, ev.object(chain[shown - 1])!)) shown++;
    return chain.slice(0, shown).map(ref).join(" ");
  }),
  define("lattrp", 1, 1, {
    family: "attributes",
    args: "lattrp(<object>[/<pattern>])",
    summary:
      "The names of the attributes of the object and its parents that you may see (those matching the pattern).",
    example: { setup: ["&NOTE me=hello"], think: "lattrp(me/N*)", gives: "NOTE" },
  }, (ev, f, args) => {
    const p = parseObjAttr(ev.ports.world, f.executor, args[0]);
    const r = p.slash ? (p.id ?? "#-1") : matchThing(ev.ports.world, f.executor, args[0]);
    // As lattr(), and MUX: an object not found is no match.
    if (!found(r)) return "#-1 NO MATCH";
    const pattern = p.slash && p.attr ? p.attr : "*";
    const seen = new Set<string>();
    const out: string[] = [];
    let len = 0;
    for (const [depth, cur] of parentChain(ev.ports.world, r).entries()) {
      for (const n of ev.ports.attributes.names(cur)) {
        if (seen.has(n) || !ev.wild(pattern, n)) continue;
        const a = ev.ports.attributes.get(cur, n);
        // An ancestor's no_inherit attribute is not the child's (MUX's atr_pget).
        if (!a || (depth > 0 && !inheritable(a)) || !ev.mayRead(f.executor, cur, a)) continue;
        seen.add(n);
        len += n.length + 1;
        if (len > ev.lbuf) return out.join(" ");
        out.push(n);
      }
    }
    return out.join(" ");
  }),
  define("lflags", 1, 1, {
    family: "database",
    args: "lflags(<object>[/<attribute>])",
    summary: "The object's flags (or the attribute's) by their full names.",
    example: { think: "lflags(*Alice)", gives: "CONNECTED" },
  }, (ev, f, args) => {
    const p = parseObjAttr(ev.ports.world, f.executor, args[0]);
    if (p.slash) {
      const id = p.id ?? "#-1";
      const o = found(id) ? ev.object(id) : null;
      if (!o) return matchError(id);
      const a = p.attr ? ev.ports.attributes.get(o.id, upperAscii(p.attr)) : null;
      if (!a) return "";
      const me = ev.object(f.executor);
      if (!me || !ev.ports.access.canSeeAttr(me, o, a)) return "#-1 PERMISSION DENIED";
      return a.flags.map((x) => x.toUpperCase()).sort().join(" ");
    }
    const o = thing(ev, f, args[0]);
    if (typeof o === "string") return o;
    return [...muxFlags(ev, f, o)].filter((x) => !TYPES.has(x)).sort().join(" ");
  }),
  define("home", 1, 1, {
    family: "database",
    args: "home(<object>)",
    summary:
      "The home of a player or thing (the starting room once its room is destroyed), the room an exit leaves from; #-1 for a room.",
    example: { think: "home(box)", gives: "#-1" },
  }, (ev, f, args) => {
    const o = thing(ev, f, args[0]);
    if (typeof o === "string") return o;
    if (!examinable(ev, f, o) && o.id !== f.enactor) return "#-1 PERMISSION DENIED";
    const t = typeOf(o);
    if (t === "room") return "#-1";
    if (t === "exit") return o.location ? ref(o.location) : "#-1";
    const h = o.data?.home;
    if (typeof h !== "string" || !h) return "#-1";
    // A home whose room was destroyed leads to the starting room, as going home does (MUX's
    // @dbck resets such a home to the default one; dbrefs are never reused here).
    const room = ev.ports.world.object(h);
    return ref(room && typeOf(room) === "room" ? h : ev.ports.game.startingRoom());
  }),
  define("rloc", 2, 2, {
    family: "database",
    args: "rloc(<object>, <levels>)",
    summary:
      "The location's location... levels up (0 the object itself), stopping at a room; an exit's destination.",
    example: { think: "rloc(box,2)", gives: "#0" },
  }, (ev, f, args) => {
    const o = thing(ev, f, args[0]);
    if (typeof o === "string") return o;
    const levels = Math.min(MAX_RLOC, toInt(args[1]));
    let cur = o;
    for (let i = 0; i < levels; i++) {
      if (typeOf(cur) === "room") break;
      const next = typeOf(cur) === "exit"
        ? (typeof cur.data?.destination === "string" ? cur.data.destination : "")
        : shownLoc(ev, f, cur);
      const n = next ? ev.object(next) : null;
      if (!n) return "#-1";
      cur = n;
    }
    return ref(cur.id);
  }),
  define("fullname", 1, 1, {
    family: "database",
    args: "fullname(<object>)",
    summary: "The object's whole name: an exit's with all its aliases.",
    example: { think: "fullname(north)", gives: "North;n" },
  }, (ev, f, args) => {
    const o = thing(ev, f, args[0]);
    if (typeof o === "string") return o;
    const aliases = Array.isArray(o.data?.aliases) ? o.data.aliases : [];
    return [o.name, ...aliases].join(";");
  }),
  define("valid", 2, 2, {
    family: "database",
    args: "valid(<category>, <text>)",
    summary:
      "1 when the text is allowed as a name, thingname, roomname, exitname, playername, attrname, password or doing; else 0.",
    example: { think: "[valid(attrname,FOO)] [valid(attrname,a b)]", gives: "1 0" },
  }, (_ev, _f, args) => {
    const rule = VALID[args[0].trim().toLowerCase()];
    if (!rule) return "#-1";
    return rule(args[1]) ? "1" : "0";
  }),
  define("attrcnt", 1, 1, {
    family: "attributes",
    args: "attrcnt(<object>[/<pattern>])",
    summary: "How many attributes of the object you may see (those matching the pattern).",
    example: { setup: ["&NOTE me=hello", "&NICK me=Wiz"], think: "attrcnt(me/N*)", gives: "2" },
  }, (ev, f, args) => {
    const p = parseObjAttr(ev.ports.world, f.executor, args[0]);
    const r = p.slash ? (p.id ?? "#-1") : matchThing(ev.ports.world, f.executor, args[0]);
    if (!found(r)) return "#-1 NO MATCH";
    const pattern = p.slash && p.attr ? p.attr : "*";
    let n = 0;
    for (const name of ev.ports.attributes.names(r)) {
      if (!ev.wild(pattern, name)) continue;
      const a = ev.ports.attributes.get(r, name);
      if (a && ev.mayRead(f.executor, r, a)) n++;
    }
    return String(n);
  }),
  define("mtime", 0, 1, {
    family: "database",
    args: "mtime([<object>])",
    summary:
      "When the object (or you) was last changed, as MUX writes it (time()'s form, with microseconds).",
    example: { think: "mtime(me)", gives: "Thu Jan 01 12:00:00.000000 2026", varies: true },
  }, (ev, f, args) => {
    const o = args.length ? thing(ev, f, args[0]) : ev.object(f.executor) ?? "#-1 NOT FOUND";
    if (typeof o === "string") return o;
    if (!examinable(ev, f, o)) return "#-1 PERMISSION DENIED";
    const ms = o.updatedAt ?? o.createdAt ?? 0;
    const [head, year] = [ctimeText(ms).slice(0, -5), ctimeText(ms).slice(-4)];
    return `${head}.${String(ms % 1000).padStart(3, "0")}000 ${year}`;
  }),
  define("restarttime", 0, 0, {
    family: "time",
    args: "restarttime()",
    summary: "When the game last started or restarted, in time()'s form.",
    example: { think: "restarttime()", gives: "Thu Jan 01 11:00:00 2026", varies: true },
  }, (ev) => ctimeText(ev.ports.startedAt)),
  define("emit", 1, 1, {
    family: "effects",
    args: "emit(<message>)",
    summary: "Sends the message to everyone in your location (as @emit); gives nothing.",
    example: { think: "emit(A bell rings.)", gives: "" },
  }, (ev, f, args) => {
    const me = ev.object(f.executor);
    if (me?.location) ev.ports.delivery.toRoom(me.location, toWire(args[0]), [], me.id);
    return "";
  }),
  define("doing", 1, 1, {
    family: "database",
    args: "doing(<player>)",
    summary: "What a connected player is doing (@doing), as who shows it.",
    example: { think: "doing(*Alice)", gives: "" },
  }, (ev, f, args) => {
    // MUX reads a number as a connection's socket (none here); a name as lookup_player does.
    if (isRational(args[0])) return "#-1";
    const name = args[0].trim().replace(/^\*/, "");
    const d = name.toLowerCase() === "me" ? f.executor : dbrefId(name);
    const id = d ?? ev.ports.world.playerByName(name);
    const p = id ? ev.object(id) : null;
    if (!p) return "#-1 PLAYER DOES NOT EXIST";
    const me = ev.object(f.executor);
    if (!me || !ev.ports.presence.isOnline(p.id) || ev.ports.access.hiddenFrom(me, p)) {
      return "#-1 NOT A CONNECTED PLAYER";
    }
    return typeof p.data?.doing === "string" ? p.data.doing : "";
  }),
];
