/**
 * Functions about objects: names, places, contents, flags, who is connected, finding and
 * searching (from indexes, bounded), time, and the side effects MUX allows from softcode that
 * the world takes at once (`set`, `pemit`, `remit`, `oemit`) under the engine's permission rules
 * (`create()` and `tel()` are in building.ts; `trigger()` comes with the command queue).
 * What they reveal follows who may see it.
 */
import { zoneOf } from "../../world/zones.ts";
import { define, plainResults, readsOnly } from "./define.ts";
import { EVAL_ARG, type Frame, type FunctionDef } from "../types.ts";
import type { Evaluation } from "../eval.ts";
import { genderOf, pronoun } from "../eval.ts";
import {
  AMBIGUOUS,
  dbrefId,
  found,
  matchError,
  matchObject,
  matchThing,
  NOTHING,
  parseObjAttr,
} from "../match.ts";
import { withInheritedRank } from "../../world/inherited_rank.ts";
import { inEmitReach, TOO_FAR } from "../../world/reach.ts";
import { attrFlagLetters } from "../../world/attributes/flags.ts";
import { bool, truthy } from "../numbers.ts";
import { splitList } from "../list.ts";
import { typeOf } from "../../world/objects.ts";
import { normalizeId } from "../../world/ids.ts";
import {
  hasMuxFlag,
  MUX_FLAG_LETTERS,
  MUX_TYPE_LETTERS,
  type MuxFlagTests,
} from "../../world/mux_flags.ts";
import { lowerCase } from "../../text/lower.ts";
import { type DbObject, OBJECT_TYPES, type ObjectType } from "../../world/types.ts";
import { canonicalFlag, PLAIN_FLAGS, STAFF_FLAGS } from "../../world/flags.ts";
import type { SoftAttr } from "../ports.ts";
import { toWire } from "../markup.ts";
import { VERSION_TEXT } from "../../version.ts";
import { validAttrName } from "./control.ts";
import { upperAscii } from "../compile.ts";
import { ctimeText } from "./time.ts";
import { lockOf, lockTypeNamed } from "../../world/locks.ts";
import { ownerOf } from "../../world/control.ts";
import {
  runSearch,
  searchClass,
  searchedShort,
  type Searcher,
  searchOwner,
  searchQuery,
  type SearchWorld,
  splitSearch,
} from "../../world/search.ts";
import { MAX_SEARCHED } from "../../commands/limits.ts";

function ref(id: string): string {
  return "#" + id;
}

/**
 * MUX's list of dbrefs (ItemToList): `ids` in dbref order, those `keep` passes, as whole items up
 * to the output limit, past which MUX stops without a word. `ids` is an index's list, whole and
 * not copied, ascending among the ids of one length (code-unit order, as the world keeps them,
 * or dbref order): read once per length, shortest first, it gives dbref order without a sort.
 */
function dbrefList(ev: Evaluation, ids: readonly string[], keep?: (id: string) => boolean): string {
  let shortest = Infinity, longest = 0;
  for (const id of ids) {
    if (id.length < shortest) shortest = id.length;
    if (id.length > longest) longest = id.length;
  }
  let out = "";
  for (let len = shortest; len <= longest; len++) {
    for (const id of ids) {
      if (id.length !== len || (keep !== undefined && !keep(id))) continue;
      if (out.length + id.length + (out === "" ? 1 : 2) > ev.lbuf) return out;
      out += out === "" ? "#" + id : " #" + id;
    }
  }
  return out;
}

/** The object `name` names for the executor, or an error text. */
export function thing(ev: Evaluation, f: Frame, name: string): DbObject | string {
  // A plain `#123` (a list's item, `%#`) is found without the rest of the match.
  const at = ev.objectAt(name);
  if (at !== undefined) return at ?? matchError(NOTHING);
  const o = matchObject(ev.ports.world, f.executor, name);
  return typeof o === "string" ? matchError(o) : o;
}

/**
 * MUX's `<object>/<attribute>` form of owner() and flags(): the object with the attribute the
 * executor may read there (a parent's included), or null for none; the object's match error; or
 * undefined when `text` names no attribute (no slash).
 */
function slashAttr(
  ev: Evaluation,
  f: Frame,
  text: string,
): { on: DbObject; attr: SoftAttr | null } | string | undefined {
  const p = parseObjAttr(ev.ports.world, f.executor, text);
  if (!p.slash) return undefined;
  const id = p.id ?? "#-1";
  const on = found(id) ? ev.object(id) : null;
  if (!on) return matchError(id);
  return { on, attr: p.attr ? ev.readableAttr(f.executor, on.id, p.attr) : null };
}

/** The location the executor may be shown of `o` (its own and the enactor's always), or "". */
export function shownLoc(ev: Evaluation, f: Frame, o: DbObject): string {
  const me = ev.object(f.executor);
  if (!me) return "";
  if (me.id === o.id || o.id === f.enactor) return o.location;
  return ev.ports.access.shownLocation(me, o);
}

/** What of `container`'s contents the executor may see listed. */
export function listed(ev: Evaluation, f: Frame, container: DbObject): DbObject[] {
  const me = ev.object(f.executor);
  if (!me) return [];
  const contents: DbObject[] = [];
  for (const id of ev.ports.world.contents(container.id)) {
    const o = ev.object(id);
    if (o) contents.push(o);
  }
  return ev.ports.access.visibleContents(me, container, contents);
}

/**
 * The executor may list what `o` holds (MUX's con() and lcon()): it may examine `o`, stands in it,
 * or `o` is the enactor. A place refused answers `#-1 PERMISSION DENIED`.
 */
export function mayListContents(ev: Evaluation, f: Frame, o: DbObject): boolean {
  if (o.id === f.enactor || examinable(ev, f, o)) return true;
  return ev.object(f.executor)?.location === o.id;
}

/** The executor may examine `o` (staff, controls it, or it is visual: MUX's Examinable). */
export function examinable(ev: Evaluation, f: Frame, o: DbObject): boolean {
  if (o.flags.includes("visual")) return true;
  const me = ev.object(f.executor);
  return !!me && ev.ports.access.examines(me, o);
}

/** The bytes `o` takes, its own attributes included (objmem(); playmem() sums them). */
export function objectBytes(ev: Evaluation, o: DbObject): number {
  let bytes = JSON.stringify(o).length;
  for (const n of ev.ports.attributes.names(o.id)) {
    bytes += n.length + (ev.ports.attributes.get(o.id, n)?.value.length ?? 0);
  }
  return bytes;
}

/** True when the executor controls `o`. */
export function controls(ev: Evaluation, f: Frame, o: DbObject): boolean {
  const me = ev.object(f.executor);
  return !!me && ev.ports.access.controls(me, o);
}

/** The zone lists: each function, the type it lists (null: every type), and what it gives. */
const ZONE_LISTS: readonly [string, string | null, string][] = [
  ["inzone", "room", "The rooms"],
  ["zwho", "player", "The players"],
  ["zrooms", "room", "The rooms (as inzone())"],
  ["zthings", "thing", "The things"],
  ["zexits", "exit", "The exits"],
  ["zchildren", null, "Everything (rooms, things, exits and players)"],
];

/**
 * The members of `zmo`'s zone of one type (null: all), in dbref order, for the ZMO's controller or
 * staff (MUX's scan_zone), from the zone index.
 */
function zoneMembers(ev: Evaluation, f: Frame, zmo: string, type: string | null): string {
  const o = thing(ev, f, zmo);
  if (typeof o === "string") return o;
  if (!controls(ev, f, o)) return "#-1 PERMISSION DENIED";
  const w = ev.ports.world;
  return dbrefList(
    ev,
    w.zoned(o.id, Infinity),
    type === null ? undefined : (id) => !!w.object(id)?.flags.includes(type),
  );
}

/** MUX's names for the types (constants: type() is asked of every player sortby() compares). */
const TYPE_NAMES: Readonly<Record<ObjectType, string>> = {
  player: "PLAYER",
  room: "ROOM",
  exit: "EXIT",
  thing: "THING",
};

/** MUX's name for an object's type. */
function typeName(o: DbObject): string {
  return TYPE_NAMES[typeOf(o)];
}

/**
 * MUX's derived flags as the executor may see them (src/world/mux_flags.ts): STAFF its rank,
 * CONNECTED a player online, a dark one only to whoever may see it (as lwho() and conn()). One
 * small object per flag function's call, its methods shared (a listing asks hasflag() per row).
 */
class ExecutorFlags implements MuxFlagTests {
  constructor(readonly ev: Evaluation, readonly executor: string) {}
  staff(o: DbObject): boolean {
    return this.ev.ports.access.isStaff(o);
  }
  connected(o: DbObject): boolean {
    const ev = this.ev;
    if (!ev.ports.presence.isOnline(o.id)) return false;
    const me = ev.object(this.executor);
    return !!me && !ev.ports.access.hiddenFrom(me, o);
  }
}

function flagTests(ev: Evaluation, f: Frame): MuxFlagTests {
  return new ExecutorFlags(ev, f.executor);
}

/**
 * The tests flag `lower` asks of the game: made only for the two flags hasMuxFlag derives from it
 * (STAFF, CONNECTED); a listing's other tests (dark, unfindable, wizard...) read the object's own
 * flags and make nothing.
 */
function testsFor(ev: Evaluation, f: Frame, lower: string): MuxFlagTests {
  return lower === "staff" || lower === "connected" ? flagTests(ev, f) : OWN_FLAGS_ONLY;
}

/** Tests for the flags that ask none (hasMuxFlag asks them only for staff and connected). */
const OWN_FLAGS_ONLY: MuxFlagTests = { staff: () => false, connected: () => false };

/**
 * The engine's flag names (and MUX's types), keyed by their upper case: softcode often spells a
 * flag so (`hasflag(loc(##),UNFINDABLE)`, `JUMP_OK`), and each call made a lower-cased copy.
 */
const UPPER_FLAG_NAMES: ReadonlyMap<string, string> = new Map(
  [...Object.values(MUX_FLAG_LETTERS), ...PLAIN_FLAGS, ...STAFF_FLAGS, ...OBJECT_TYPES]
    .map((n) => [n.toUpperCase(), n]),
);

/** Flags as softcode names them, from the engine's: staff ranks map to MUX's. */
export function muxFlags(ev: Evaluation, f: Frame, o: DbObject): Set<string> {
  const out = new Set<string>();
  for (const flag of o.flags) out.add(flag.toUpperCase());
  // MUX's name for halt.
  if (out.delete("HALT")) out.add("HALTED");
  if (out.has("SUPERUSER")) out.add("WIZARD");
  if (out.has("ADMIN")) out.add("ROYALTY");
  const tests = flagTests(ev, f);
  if (tests.staff(o)) out.add("STAFF");
  if (hasMuxFlag(o, "connected", tests)) out.add("CONNECTED");
  return out;
}

/** The letter flags() gives an object's type first. */
const TYPE_LETTER: Readonly<Record<string, string>> = MUX_TYPE_LETTERS;

/** MUX's flag letters (flags(), orflags(), andflags()), in flags()'s order. */
const LETTERS: readonly (readonly [string, string])[] = Object.entries(MUX_FLAG_LETTERS);

function flagLetters(ev: Evaluation, f: Frame, o: DbObject): string {
  const tests = flagTests(ev, f);
  let out = TYPE_LETTER[typeOf(o)];
  for (const [letter, name] of LETTERS) if (hasMuxFlag(o, name, tests)) out += letter;
  return out;
}

function hasFlagNamed(ev: Evaluation, f: Frame, o: DbObject, name: string): boolean {
  const t = name.trim();
  // The name upper-cased then lower-cased, as the flag test always read it; an ASCII name (every
  // flag's) gives its lower case at once: itself when it is already (`dark`), a known flag's
  // name when it is all upper case (`UNFINDABLE`), else a copy.
  const c = asciiCase(t);
  const n = c === LOWER
    ? t
    : c === UPPER_TOO
    ? UPPER_FLAG_NAMES.get(t) ?? t.toLowerCase()
    : lowerCase(t.toUpperCase());
  // MUX's types are not flags: hasflag(me,player) is 0 (hastype() asks for a type).
  if (n === "player" || n === "room" || n === "exit" || n === "thing") return false;
  // MUX's other names for the engine's flags (HALTED is halt).
  const flag = canonicalFlag(n);
  return hasMuxFlag(o, flag, testsFor(ev, f, flag));
}

/** asciiCase()'s answers: ASCII without upper case, ASCII with some, anything else. */
const LOWER = 0, UPPER_TOO = 1, NOT_ASCII = 2;

/** Whether `s` is ASCII, and then whether it holds upper-case letters. */
function asciiCase(s: string): number {
  let upper = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x7f) return NOT_ASCII;
    if (c >= 65 && c <= 90) upper = true;
  }
  return upper ? UPPER_TOO : LOWER;
}

/** Whether `o` has the flag or type MUX writes as `letter` (tests made only where one asks). */
function letterFlag(ev: Evaluation, f: Frame, o: DbObject, letter: string): boolean {
  if (letter === "P" || letter === "R" || letter === "E") return TYPE_LETTER[typeOf(o)] === letter;
  const name = MUX_FLAG_LETTERS[letter];
  return name !== undefined && hasMuxFlag(o, name, testsFor(ev, f, name));
}

/** Ids of connected players the executor may see (a dark one only by whoever controls it). */
function visibleOnline(ev: Evaluation, f: Frame): string[] {
  const me = ev.object(f.executor);
  if (!me) return [];
  return ev.ports.presence.online().filter((id) => {
    const p = ev.object(id);
    return !!p && !ev.ports.access.hiddenFrom(me, p);
  });
}

/**
 * The connected player conn() and idle() name, when the executor may see it (one of
 * visibleOnline()'s, asked of that player alone), or null.
 */
function visibleOnlinePlayer(ev: Evaluation, f: Frame, name: string): string | null {
  let p = ev.objectAt(name);
  if (p === undefined) {
    const id = dbrefId(name) ?? ev.ports.world.playerByName(name.replace(/^\*/, ""));
    p = id ? ev.object(id) : null;
  }
  if (!p || !ev.ports.presence.isOnline(p.id)) return null;
  const me = ev.object(f.executor);
  return me && !ev.ports.access.hiddenFrom(me, p) ? p.id : null;
}

/** MUX's answer of search() to a query it refuses (the executor is told why). */
const SEARCH_ERROR = "#-1 ERROR DURING SEARCH";

/** The world's lists search walks, whole (the search caps what it tests, not what it is given). */
function searchWorld(ev: Evaluation): SearchWorld {
  const w = ev.ports.world;
  return {
    object: (id) => w.object(id),
    ownedBy: (id) => w.ownedBy(id, Infinity),
    withFlag: (flag) => w.withFlag(flag, Infinity),
    children: (id) => w.children(id, Infinity),
    zoned: (id) => w.zoned(id, Infinity),
  };
}

/** The object `ref` names that the executor controls (MUX's match_controlled), or why not. */
function searchControlled(ev: Evaluation, f: Frame, ref: string): string | { error: string } {
  const o = thing(ev, f, ref);
  if (typeof o === "string") return { error: "I don't see that here." };
  return controls(ev, f, o) ? o.id : { error: "Permission denied." };
}

/**
 * search(): `@search`'s query (src/world/search.ts) read and refused by the same rules, as the
 * executor; the dbrefs found, or MUX's #-1 with the reason told to the executor.
 */
function searchFor(ev: Evaluation, f: Frame, text: string): string {
  const me = ev.object(f.executor);
  if (!me) return SEARCH_ERROR;
  const refused = (why: string) => {
    ev.ports.delivery.toObject(f.executor, why);
    return SEARCH_ERROR;
  };
  const words = splitSearch(text);
  if ("error" in words) return refused(words.error);
  const cls = searchClass(words.cls, words.restriction);
  if ("error" in cls) return refused(cls.error);
  const s: Searcher = { staff: ev.ports.access.isStaff(me), owner: ownerOf(me) };
  let owner = searchOwner(words.player, cls.anyOwner, s);
  if (owner === undefined) {
    const id = dbrefId(words.player) ?? ev.ports.world.playerByName(words.player);
    const p = id === null ? null : ev.object(id);
    if (!p || typeOf(p) !== "player") return refused(`${words.player}: No such player`);
    owner = p.id;
  }
  const parent = cls.parent === null ? null : searchControlled(ev, f, cls.parent);
  if (parent !== null && typeof parent !== "string") return refused(parent.error);
  const zone = cls.zone === null ? null : searchControlled(ev, f, cls.zone);
  if (zone !== null && typeof zone !== "string") return refused(zone.error);
  const q = searchQuery(words, cls, { owner, parent, zone }, s);
  if ("error" in q) return refused(q.error);
  const tests = flagTests(ev, f);
  const found = runSearch(searchWorld(ev), q, {
    staff: (o) => tests.staff(o),
    connected: (o) => tests.connected(o),
    // Within the evaluation's time: when it is spent, the search stops there. Each object's
    // test counts its function calls apart (MUX's search_perform), or a search over a few
    // hundred objects ran out of calls where MUX's finds them all.
    evaluate: (code) => (ev.tick() ? ev.sc.apart(() => truthy(ev.eval(f, code, EVAL_ARG))) : null),
  }, MAX_SEARCHED);
  // MUX walks the whole database; past the cap the executor is told, as @search's reply says.
  const short = searchedShort(found);
  if (short !== null) ev.ports.delivery.toObject(f.executor, `search(): ${short}`);
  return dbrefList(ev, found.ids);
}

/** The object functions whose results are dbrefs, numbers, truth values or flag letters. */
const PLAIN: ReadonlySet<string> = new Set([
  "NUM",
  "LOC",
  "WHERE",
  "ROOM",
  "OWNER",
  "PARENT",
  "TYPE",
  "HASTYPE",
  "HASFLAG",
  "HASPOWER",
  "ORFLAGS",
  "ANDFLAGS",
  "FLAGS",
  "LCON",
  "LEXITS",
  "LWHO",
  "CONN",
  "IDLE",
  "WIDTH",
  "PMATCH",
  "LOCATE",
  "CONTROLS",
  "ISDBREF",
  "FINDABLE",
  "NEARBY",
  "BITTYPE",
  "ELOCK",
]);

/**
 * The object functions that run no softcode and keep no reference to their arguments
 * (FunctionDef.reads): a `+who` row's flag tests, locations, names and times, each called with
 * its node's kept argument array instead of a new one.
 */
const INERT = [
  "hasflag",
  "orflags",
  "andflags",
  "loc",
  "room",
  "name",
  "idle",
  "conn",
  "type",
];

/** The object family, before INERT's are marked. */
const objectDefs: FunctionDef[] = plainResults([
  define("name", 1, 2, {
    family: "database",
    args: "name(<object>)",
    summary: "The object's name (an exit's first name).",
    example: { think: "name(me)", gives: "Wizard" },
  }, (ev, f, args) => {
    if (args.length > 1) return "#-1 PERMISSION DENIED";
    if (args[0] === "") return "";
    const o = thing(ev, f, args[0]);
    if (typeof o === "string") return o;
    return typeOf(o) === "exit" ? o.name.split(";")[0] : o.name;
  }),
  define("moniker", 0, 1, {
    family: "database",
    args: "moniker([<object>])",
    summary: "The object's (or your) coloured name (@moniker), or its name.",
    example: { think: "moniker(me)", gives: "Wizard" },
  }, (ev, f, args) => {
    const o = args.length ? thing(ev, f, args[0]) : ev.object(f.executor) ?? "#-1 NOT FOUND";
    return typeof o === "string" ? o : ev.monikerOf(o.id);
  }),
  define("num", 1, 1, {
    family: "database",
    args: "num(<object>)",
    summary: "The object's dbref: #-1 when nothing matches, #-2 when several do.",
    example: { think: "num(me)", gives: "#1" },
  }, (ev, f, args) => {
    const r = matchThing(ev.ports.world, f.executor, args[0]);
    return found(r) ? ref(r) : r === AMBIGUOUS ? "#-2" : "#-1";
  }),
  define("loc", 1, 1, {
    family: "database",
    args: "loc(<object>)",
    summary:
      "The object's location (#-1 when you may not know it); an exit's destination (where() is the room it leaves from).",
    example: { think: "loc(me)", gives: "#0" },
  }, (ev, f, args) => {
    const o = thing(ev, f, args[0]);
    if (typeof o === "string") return o;
    const at = shownLoc(ev, f, o);
    if (!at) return "#-1";
    // MUX keeps an exit's destination where other objects keep their location (fun_loc).
    if (typeOf(o) === "exit") {
      const dest = normalizeId(String(o.data?.destination ?? ""));
      return dest ? ref(dest) : "#-1";
    }
    return ref(at);
  }),
  define("where", 1, 1, {
    family: "database",
    args: "where(<object>)",
    summary: "The object's true location: an exit's source room, #-1 for a room.",
    example: { think: "where(box)", gives: "#0" },
  }, (ev, f, args) => {
    const o = thing(ev, f, args[0]);
    if (typeof o === "string") return o;
    const at = shownLoc(ev, f, o);
    return at ? ref(at) : "#-1";
  }),
  define("room", 1, 1, {
    family: "database",
    args: "room(<object>)",
    summary: "The room the object is in, however deeply it is carried (#-1 for a room).",
    example: { think: "room(box)", gives: "#0" },
  }, (ev, f, args) => {
    const o = thing(ev, f, args[0]);
    if (typeof o === "string") return o;
    // As MUX, the walk starts at the object's location: a room is in no room.
    if (typeOf(o) === "room") return "#-1";
    let cur: DbObject | null = o;
    // MUX keeps an exit's destination as its location (loc()), so an exit's room is the room
    // it leads to.
    if (typeOf(o) === "exit") {
      if (!shownLoc(ev, f, o)) return "#-1 PERMISSION DENIED";
      const dest = normalizeId(String(o.data?.destination ?? ""));
      cur = dest ? ev.object(dest) : null;
    }
    for (let i = 0; i < 20 && cur; i++) {
      if (typeOf(cur) === "room") return ref(cur.id);
      const at = shownLoc(ev, f, cur);
      if (!at) return "#-1 PERMISSION DENIED";
      cur = ev.object(at);
    }
    return "#-1";
  }),
  define("owner", 1, 1, {
    family: "database",
    args: "owner(<object>[/<attribute>])",
    summary: "The object's owner, or the attribute's (#-1 when it has none you may see).",
    example: { think: "owner(box)", gives: "#1" },
  }, (ev, f, args) => {
    const slashed = slashAttr(ev, f, args[0]);
    if (typeof slashed === "string") return slashed;
    if (slashed) {
      // MUX's atr_pget_info: the attribute may be a parent's.
      const { on, attr } = slashed;
      return attr ? ref(attr.owner || on.owner || on.id) : "#-1";
    }
    const o = thing(ev, f, args[0]);
    if (typeof o === "string") return o;
    return o.owner ? ref(o.owner) : ref(o.id);
  }),
  define("parent", 1, 2, {
    family: "database",
    args: "parent(<object>)",
    summary: "The object's parent, or #-1.",
    example: { think: "parent(box)", gives: "#-1" },
  }, (ev, f, args) => {
    if (args.length > 1) return "#-1 PERMISSION DENIED";
    const o = thing(ev, f, args[0]);
    if (typeof o === "string") return o;
    if (!controls(ev, f, o) && o.id !== f.enactor && !o.flags.includes("visual")) {
      return "#-1 PERMISSION DENIED";
    }
    const p = o.data?.parent;
    return typeof p === "string" && p ? ref(p) : "#-1";
  }),
  define("type", 1, 1, {
    family: "database",
    args: "type(<object>)",
    summary: "PLAYER, ROOM, EXIT or THING.",
    example: { think: "type(here)", gives: "ROOM" },
  }, (ev, f, args) => {
    const o = thing(ev, f, args[0]);
    return typeof o === "string" ? "#-1 NOT FOUND" : typeName(o);
  }),
  define("hastype", 2, 2, {
    family: "database",
    args: "hastype(<object>, <type>)",
    summary: "1 when the object is of the type.",
    example: { think: "hastype(box,thing)", gives: "1" },
  }, (ev, f, args) => {
    const o = thing(ev, f, args[0]);
    if (typeof o === "string") return o;
    const t = args[1].trim().toUpperCase();
    if (!["PLAYER", "ROOM", "EXIT", "THING"].includes(t)) return "#-1 NO SUCH TYPE";
    return bool(typeName(o) === t);
  }),
  define("hasflag", 2, 2, {
    family: "database",
    args: "hasflag(<object>, <flag>)",
    summary: "1 when the object has the flag (a type is not a flag: see hastype()).",
    example: { think: "hasflag(me,wizard)", gives: "1" },
  }, (ev, f, args) => {
    const o = thing(ev, f, args[0]);
    if (typeof o === "string") return o;
    return bool(hasFlagNamed(ev, f, o, args[1]));
  }),
  define("haspower", 2, 2, {
    family: "database",
    args: "haspower(<object>, <power>)",
    summary: "1 when the object has the power (staff hold every power).",
    example: { think: "haspower(*Alice,boot)", gives: "0" },
  }, (ev, f, args) => {
    const o = thing(ev, f, args[0]);
    if (typeof o === "string") return o;
    // The engine's powers are its staff ranks: staff hold every power a package asks for.
    return bool(ev.ports.access.isStaff(o));
  }),
  define("orflags", 2, 2, {
    family: "database",
    args: "orflags(<object>, <letters>)",
    summary:
      "1 when the object has any of the flags given by their letters (flags()); ! before a letter: lacks it.",
    example: { think: "orflags(me,Wc)", gives: "1" },
  }, (ev, f, args) => {
    // MUX answers 0, not an error, for an object it cannot find.
    const o = thing(ev, f, args[0]);
    if (typeof o === "string") return "0";
    return bool(orNot(ev, f, o, args[1]));
  }),
  define("andflags", 2, 2, {
    family: "database",
    args: "andflags(<object>, <letters>)",
    summary:
      "1 when the object has all of the flags given by their letters; ! before a letter: lacks it.",
    example: { think: "andflags(me,P!D)", gives: "1" },
  }, (ev, f, args) => {
    const o = thing(ev, f, args[0]);
    if (typeof o === "string") return "0";
    let negate = false;
    const spec = args[1];
    for (let i = 0; i < spec.length; i += charLength(spec, i)) {
      const c = spec[i];
      if (c === "!") {
        negate = true;
        continue;
      }
      if (letterFlag(ev, f, o, c) === negate) return "0";
      negate = false;
    }
    return "1";
  }),
  define("flags", 1, 1, {
    family: "database",
    args: "flags(<object>[/<attribute>])",
    summary:
      "The object's flags, by their letters (P player, R room, E exit, W wizard, D dark, c connected...), or the attribute's.",
    example: { think: "flags(*Alice)", gives: "Pc" },
  }, (ev, f, args) => {
    const slashed = slashAttr(ev, f, args[0]);
    if (typeof slashed === "string") return slashed;
    // As MUX: an attribute you may not see, or none, has no flags.
    if (slashed) return slashed.attr ? attrFlagLetters(slashed.attr.flags) : "";
    const o = thing(ev, f, args[0]);
    if (typeof o === "string") return o;
    return flagLetters(ev, f, o);
  }),
  define("lcon", 1, 2, {
    family: "database",
    args: "lcon(<object>[, <type>])",
    summary: "What the object contains that you may see (of the type, when given).",
    example: { think: "lcon(here)", gives: "#1 #2 #3" },
  }, (ev, f, args) => {
    const o = thing(ev, f, args[0]);
    if (typeof o === "string") return o;
    // An exit holds nothing (MUX: #-1); a place the executor may not list is refused.
    if (typeOf(o) === "exit") return "#-1";
    if (!mayListContents(ev, f, o)) return "#-1 PERMISSION DENIED";
    const want = (args[1] ?? "").toLowerCase().replace(/s$/, "").replace("object", "thing");
    return listed(ev, f, o).filter((c) => {
      const t = typeOf(c);
      return t !== "exit" && (!want || t.startsWith(want));
    }).map((c) => ref(c.id)).join(" ");
  }),
  define("lexits", 1, 1, {
    family: "database",
    args: "lexits(<object>)",
    summary: "The exits out of a room that you may see.",
    example: { think: "lexits(here)", gives: "#4" },
  }, (ev, f, args) => {
    const o = thing(ev, f, args[0]);
    if (typeof o === "string") return o;
    return listed(ev, f, o).filter((c) => typeOf(c) === "exit").map((c) => ref(c.id)).join(" ");
  }),
  define("lwho", 0, 1, {
    family: "database",
    args: "lwho()",
    summary: "The connected players you may see.",
    example: { think: "lwho()", gives: "#1 #2" },
  }, (ev, f) => visibleOnline(ev, f).map(ref).join(" ")),
  define("conn", 1, 1, {
    family: "database",
    args: "conn(<player>)",
    summary: "Seconds the player has been connected, or -1.",
    example: { think: "conn(*Alice)", gives: "60", varies: true },
  }, (ev, f, args) => {
    const id = visibleOnlinePlayer(ev, f, args[0]);
    return id ? String(ev.ports.presence.connectedSeconds(id)) : "-1";
  }),
  define("idle", 1, 1, {
    family: "database",
    args: "idle(<player>)",
    summary: "Seconds since the player last sent a command, or -1 when not connected.",
    example: { think: "idle(*Alice)", gives: "5", varies: true },
  }, (ev, f, args) => {
    const id = visibleOnlinePlayer(ev, f, args[0]);
    return id ? String(ev.ports.presence.idleSeconds(id)) : "-1";
  }),
  define("width", 1, 1, {
    family: "database",
    args: "width(<player>)",
    summary: "The player's screen width (78 when unknown).",
    example: { think: "width(me)", gives: "78" },
  }, (ev, f, args) => {
    const id = matchThing(ev.ports.world, f.executor, args[0]);
    if (!found(id)) return "78";
    return String(ev.ports.presence.width(id));
  }),
  define("pmatch", 1, 1, {
    family: "database",
    args: "pmatch(<player>)",
    summary:
      "The player's dbref, by name or alias (or a connected player by the start of the name).",
    example: { think: "pmatch(Alice)", gives: "#2" },
  }, (ev, f, args) => {
    const want = args[0].trim().replace(/^\*/, "");
    // MUX's lookup_player reads "me" as the executor.
    if (want.toLowerCase() === "me") {
      const me = ev.object(f.executor);
      return me && typeOf(me) === "player" ? ref(me.id) : "#-1 NO MATCH";
    }
    const d = dbrefId(want);
    if (d) {
      const o = ev.object(d);
      return o && typeOf(o) === "player" ? ref(d) : "#-1 NO MATCH";
    }
    const id = ev.ports.world.playerByName(want);
    if (id) return ref(id);
    const hits = ev.ports.presence.online().filter((p) =>
      ev.nameOf(p).toLowerCase().startsWith(want.toLowerCase())
    );
    if (hits.length === 1) return ref(hits[0]);
    return hits.length > 1 ? "#-2" : "#-1 NO MATCH";
  }),
  define("locate", 3, 3, {
    family: "database",
    args: "locate(<looker>, <name>, <where>)",
    summary:
      "What the name matches as the looker sees it; where's letters E, P, R, T keep only exits, players, rooms, things.",
    example: { think: "locate(me,box,T)", gives: "#3" },
  }, (ev, f, args) => {
    const looker = matchThing(ev.ports.world, f.executor, args[0]);
    if (!found(looker)) return "#-1";
    const lo = ev.object(looker);
    if (!lo || (!controls(ev, f, lo) && looker !== f.executor)) return "#-1";
    const r = matchThing(ev.ports.world, looker, args[1]);
    if (r === AMBIGUOUS) return "#-2";
    if (!found(r)) return "#-1";
    const o = ev.object(r);
    const flags = args[2];
    if (o && /[EPRT]/.test(flags)) {
      const t = typeOf(o);
      const ok = (flags.includes("E") && t === "exit") || (flags.includes("P") && t === "player") ||
        (flags.includes("R") && t === "room") || (flags.includes("T") && t === "thing");
      if (!ok) return "#-1";
    }
    return ref(r);
  }),
  define("controls", 2, 2, {
    family: "database",
    args: "controls(<object>, <victim>)",
    summary: "1 when the object may change the victim.",
    example: { think: "controls(me,box)", gives: "1" },
  }, (ev, f, args) => {
    const a = thing(ev, f, args[0]);
    if (typeof a === "string") return "#-1 NOT FOUND (ARG1)";
    const b = thing(ev, f, args[1]);
    if (typeof b === "string") return "#-1 NOT FOUND (ARG2)";
    return bool(ev.ports.access.controls(a, b));
  }),
  define("isdbref", 0, 1, {
    family: "database",
    args: "isdbref(<text>)",
    summary: "1 when the text is the dbref of an object that exists.",
    example: { think: "isdbref(#3)", gives: "1" },
  }, (ev, _f, args) => {
    const id = dbrefId(args[0] ?? "");
    return bool(!!id && !!ev.object(id));
  }),
  define("children", 1, 1, {
    family: "database",
    args: "children(<object>)",
    summary: "The objects whose parent it is.",
    more:
      "In dbref order, from the index of children (never a walk of the database), as many whole dbrefs as the output holds, as MUX's.",
    example: { think: "children(box)", gives: "" },
  }, (ev, f, args) => {
    const o = thing(ev, f, args[0]);
    if (typeof o === "string") return o;
    if (!controls(ev, f, o)) return "#-1 PERMISSION DENIED";
    return dbrefList(ev, ev.ports.world.children(o.id, Infinity));
  }),
  define(
    "search",
    0,
    1,
    {
      family: "database",
      args: "search([<player>] [<class>=<restriction>[,<low>[,<high>]]])",
      summary: "Dbrefs of the objects @search finds with the same query, in dbref order.",
      example: { think: "search(type=room)", gives: "#0" },
      more:
        "The query is @search's (help @search): a player whose objects are searched, a class (type, name, rooms, exits, things, players, flags, parent, zone, eval, eplayer, eroom, eexit, ething; each may be shortened) and a range of dbrefs, under the same rules: without a player, staff search everything and others what they own. A query @search refuses gives #-1 ERROR DURING SEARCH, and the executor is told why. A name or an evaluation is tested on at most 20,000 objects (past that the executor is told how many were left); an evaluation class's test of each object counts its function calls apart, as MUX's, all within the evaluation's time. The dbrefs are listed whole, as many as the output holds. Escape [ ] in an evaluation class: search(eval=\\[gt(money(##),10)\\]).",
    },
    (ev, f, args) => searchFor(ev, f, (args[0] ?? "").trim()),
    { parse: 1 },
  ),
  define("findable", 2, 2, {
    family: "database",
    args: "findable(<looker>, <object>)",
    summary: "1 when the looker may find where the object is.",
    example: { think: "findable(*Alice,me)", gives: "1" },
  }, (ev, f, args) => {
    const a = thing(ev, f, args[0]);
    if (typeof a === "string") return "#-1 NOT FOUND (ARG1)";
    const b = thing(ev, f, args[1]);
    if (typeof b === "string") return "#-1 NOT FOUND (ARG2)";
    return bool(ev.ports.access.controls(a, b) || !b.flags.includes("unfindable"));
  }),
  define("subj", 1, 1, {
    family: "database",
    args: "subj(<object>)",
    summary: "The subjective pronoun by the object's SEX: he, she, they or it.",
    example: { think: "subj(*Alice)", gives: "she" },
  }, (ev, f, args) => pron(ev, f, args, "s")),
  define("obj", 1, 1, {
    family: "database",
    args: "obj(<object>)",
    summary: "The objective pronoun: him, her, them or it.",
    example: { think: "obj(*Alice)", gives: "her" },
  }, (ev, f, args) => pron(ev, f, args, "o")),
  define("poss", 1, 1, {
    family: "database",
    args: "poss(<object>)",
    summary: "The possessive pronoun: his, her, their or its.",
    example: { think: "poss(*Alice)", gives: "her" },
  }, (ev, f, args) => pron(ev, f, args, "p")),
  define("aposs", 1, 1, {
    family: "database",
    args: "aposs(<object>)",
    summary: "The absolute possessive pronoun: his, hers, theirs or its.",
    example: { think: "aposs(*Alice)", gives: "hers" },
  }, (ev, f, args) => pron(ev, f, args, "a")),
  define("objmem", 1, 1, {
    family: "database",
    args: "objmem(<object>)",
    summary: "The bytes the object takes, its attributes included.",
    example: { think: "objmem(box)", gives: "120", varies: true },
  }, (ev, f, args) => {
    const o = thing(ev, f, args[0]);
    if (typeof o === "string") return o;
    if (!controls(ev, f, o)) return "#-1 PERMISSION DENIED";
    return String(objectBytes(ev, o));
  }),
  define("nearby", 2, 2, {
    family: "database",
    args: "nearby(<object>, <object>)",
    summary: "1 when one holds the other or both are in the same place.",
    example: { think: "nearby(me,box)", gives: "1" },
  }, (ev, f, args) => {
    const a = thing(ev, f, args[0]);
    if (typeof a === "string") return "#-1 NOT FOUND (ARG1)";
    const b = thing(ev, f, args[1]);
    if (typeof b === "string") return "#-1 NOT FOUND (ARG2)";
    const near = a.location === b.location || a.location === b.id || b.location === a.id;
    return bool(near);
  }),
  define("zone", 1, 1, {
    family: "database",
    args: "zone(<object>)",
    summary: "The object's zone master object (@chzone), or #-1.",
    example: { think: "zone(me)", gives: "#-1" },
  }, (ev, f, args) => {
    const o = thing(ev, f, args[0]);
    if (typeof o === "string") return o;
    // MUX shows it to whoever may examine the object.
    if (!examinable(ev, f, o)) return "#-1";
    const z = zoneOf(o);
    return z ? ref(z) : "#-1";
  }),
  ...ZONE_LISTS.map(([name, type, what]) =>
    define(name, 1, 1, {
      family: "database",
      args: `${name}(<object>)`,
      summary: `${what} in the zone of a zone master object (its controller or staff).`,
      example: { think: `${name}(box)`, gives: "" },
    }, (ev, f, args) => zoneMembers(ev, f, args[0], type))
  ),
  define("bittype", 0, 1, {
    family: "database",
    args: "bittype(<object>)",
    summary:
      "The object's rank (its owner's when set inherit): 7 superuser, 5 wizard, 4 admin, 3 builder, 1 others.",
    example: { think: "bittype(me)", gives: "5" },
  }, (ev, f, args) => {
    const o = thing(ev, f, args[0] || "me");
    return typeof o === "string" ? "#-1" : String(bitType(ev, o));
  }),
  define("elock", 2, 2, {
    family: "database",
    args: "elock(<object>[/<lock>], <victim>)",
    summary: "1 when the victim passes the object's lock (default, or the one named).",
    example: { think: "elock(box,*Alice)", gives: "1" },
  }, (ev, f, args) => {
    const slash = args[0].indexOf("/");
    const which = slash < 0 ? "basic" : lockTypeNamed(args[0].slice(slash + 1));
    if (!which) return "#-1 NO SUCH LOCK";
    const o = thing(ev, f, slash < 0 ? args[0] : args[0].slice(0, slash));
    if (typeof o === "string") return o;
    const victim = thing(ev, f, args[1]);
    if (typeof victim === "string") return victim;
    // Only those who control the object may read its locks other than the default one; to
    // others such a lock fails (MUX's elock() answers 0 for a lock attribute it may not read).
    if (which !== "basic" && !controls(ev, f, o)) return "0";
    return bool(ev.ports.access.passesLock(lockOf(o, which), victim, o.id));
  }),
  define("grep", 3, 3, {
    family: "attributes",
    args: "grep(<object>, <attribute pattern>, <text>)",
    summary: "The names of the object's attributes whose value holds the text.",
    example: { setup: ["&NOTE me=hello"], think: "grep(me,*,ell)", gives: "NOTE" },
  }, (ev, f, args) => grep(ev, f, args, false)),
  define("grepi", 3, 3, {
    family: "attributes",
    args: "grepi(<object>, <attribute pattern>, <text>)",
    summary: "grep(), in any case.",
    example: { setup: ["&NOTE me=hello"], think: "grepi(me,*,ELL)", gives: "NOTE" },
  }, (ev, f, args) => grep(ev, f, args, true)),
  define("mudname", 0, 0, {
    family: "game",
    args: "mudname()",
    summary: "The game's name.",
    example: { think: "mudname()", gives: "TestMUSH" },
  }, (ev) => ev.ports.gameName()),
  define("version", 0, 0, {
    family: "game",
    args: "version()",
    summary: "The server's version, in MUX's form (its first word is MUX, which packages test).",
    example: { think: "version()", gives: "MUX 2.12.0.10 #1 [UrsaMU 1.0.0]", varies: true },
  }, () => VERSION_TEXT),
  define("ctime", 0, 1, {
    family: "database",
    args: "ctime(<object>)",
    summary: "When the object was created, in time()'s form.",
    example: { think: "ctime(box)", gives: "Thu Jan 01 12:00:00 2026", varies: true },
  }, (ev, f, args) => {
    if (!args.length || args[0] === "") return ctimeText(ev.ports.now());
    const o = thing(ev, f, args[0]);
    if (typeof o === "string") return o;
    if (!controls(ev, f, o)) return "#-1 PERMISSION DENIED";
    return ctimeText(o.createdAt);
  }),
  define("set", 2, 2, {
    family: "effects",
    args: "set(<object>, <attribute>:<value>)",
    summary: "Sets an attribute (an empty value clears it), as & does; gives nothing.",
    example: { think: "[set(me,MOOD:happy)][get(me/mood)]", gives: "happy" },
  }, (ev, f, args) => {
    const o = thing(ev, f, args[0]);
    if (typeof o === "string") return o;
    const colon = args[1].indexOf(":");
    if (colon <= 0) return "#-1 PERMISSION DENIED";
    const name = args[1].slice(0, colon).trim();
    if (!validAttrName(name)) return "#-1 BAD ATTRIBUTE NAME";
    const err = ev.ports.attributes.set(
      f.executor,
      o.id,
      upperAscii(name),
      args[1].slice(colon + 1),
    );
    return err ? "#-1 PERMISSION DENIED" : "";
  }),
  define("pemit", 2, 2, {
    family: "effects",
    args: "pemit(<objects>, <message>)",
    summary: "Sends the message to each object of the list, as @pemit does; gives nothing.",
    example: { think: "pemit(*Alice,Hello!)", gives: "" },
  }, (ev, f, args) => {
    const msg = toWire(args[1]);
    const me = ev.object(f.executor);
    if (!me) return "";
    const controls = (a: DbObject, t: DbObject) => ev.ports.access.controls(a, t);
    for (const word of splitList(args[0], " ")) {
      const r = matchThing(ev.ports.world, f.executor, word);
      if (!found(r)) continue;
      // As @pemit, and MUX's pemit(): no further than the actor's reach.
      const target = ev.object(r);
      if (!target || !inEmitReach(me, target, controls)) {
        ev.ports.delivery.toObject(f.executor, TOO_FAR);
        continue;
      }
      ev.ports.delivery.tell(r, msg, f.executor);
    }
    return "";
  }),
  define("remit", 2, 2, {
    family: "effects",
    args: "remit(<room>, <message>)",
    summary: "Sends the message to everyone in the room; gives nothing.",
    example: { think: "remit(here,A bell rings.)", gives: "" },
  }, (ev, f, args) => {
    const msg = toWire(args[1]);
    const me = ev.object(f.executor);
    for (const word of splitList(args[0], " ")) {
      const r = matchThing(ev.ports.world, f.executor, word);
      // As MUX, the executor is told of a target not found.
      if (!found(r)) {
        ev.ports.delivery.toObject(f.executor, "Emit to whom?");
        continue;
      }
      const room = ev.object(r);
      if (!room || !me) continue;
      // As MUX's remit() (do_pemit_single): out of reach is too far; in reach but neither the
      // room the executor stands in nor its own (a thing beside it) is not permitted.
      const controls = (a: DbObject, t: DbObject) => ev.ports.access.controls(a, t);
      if (!inEmitReach(me, room, controls)) {
        ev.ports.delivery.toObject(f.executor, TOO_FAR);
        continue;
      }
      if (!controls(me, room) && me.location !== room.id) {
        ev.ports.delivery.toObject(f.executor, "Permission denied.");
        continue;
      }
      ev.ports.delivery.toRoom(room.id, msg, [], me.id);
    }
    return "";
  }),
  define("oemit", 2, 2, {
    family: "effects",
    args: "oemit(<object>, <message>)",
    summary: "Sends the message to everyone in the object's room but the object; gives nothing.",
    example: { think: "oemit(me,Wizard waves.)", gives: "" },
  }, (ev, f, args) => {
    const o = thing(ev, f, args[0]);
    if (typeof o === "string") {
      ev.ports.delivery.toObject(f.executor, "Emit except to whom?");
      return "";
    }
    // As @oemit, and MUX's oemit(): only around what is in the actor's reach.
    const me = ev.object(f.executor);
    if (!me || !inEmitReach(me, o, (a, t) => ev.ports.access.controls(a, t))) {
      ev.ports.delivery.toObject(f.executor, TOO_FAR);
      return "";
    }
    if (!o.location) return "";
    ev.ports.delivery.toRoom(o.location, toWire(args[1]), [o.id], f.executor);
    return "";
  }),
], (name) => PLAIN.has(name));

/** The object family. */
export const objectFunctions: FunctionDef[] = readsOnly(objectDefs, INERT, "world");

/** MUX's bit types (RhostMUSH's): 7 superuser, 5 wizard, 4 admin, 3 builder/storyteller, else 1. */
function bitType(ev: Evaluation, o: DbObject): number {
  // As MUX's Wizard(): an object's own flags, its owner's rank only through inherit.
  const f = withInheritedRank(ev.ports.world, o).flags;
  if (f.includes("superuser")) return 7;
  if (f.includes("wizard")) return 5;
  if (f.includes("admin")) return 4;
  if (f.includes("builder") || f.includes("storyteller")) return 3;
  return 1;
}

/** Names of the attributes of an object matching a pattern whose value holds a text. */
function grep(ev: Evaluation, f: Frame, args: string[], caseless: boolean): string {
  // As MUX 2.12: the object first, then an attribute pattern and a text, both needed.
  if (args[1] === "" || args[2] === "") {
    const o = thing(ev, f, args[0]);
    if (typeof o === "string") return o;
    return args[1] === "" ? "#-1 NO SUCH ATTRIBUTE" : "#-1 INVALID GREP PATTERN";
  }
  const want = caseless ? args[2].toLowerCase() : args[2];
  return grepAttrs(ev, f, args[0], args[1], (v) => (caseless ? v.toLowerCase() : v).includes(want));
}

/**
 * The names of the attributes of `ref` matching the wildcard `pattern` (all when empty) whose
 * values pass `test`, among those the executor may read (grep(), regrep()).
 */
export function grepAttrs(
  ev: Evaluation,
  f: Frame,
  ref: string,
  pattern: string,
  test: (value: string) => boolean,
): string {
  const o = thing(ev, f, ref);
  if (typeof o === "string") return o;
  const out: string[] = [];
  for (const name of ev.ports.attributes.names(o.id)) {
    if (!ev.tickNow()) break;
    if (!ev.wild(pattern || "*", name)) continue;
    const a = ev.ports.attributes.get(o.id, name);
    if (!a || !ev.mayRead(f.executor, o.id, a)) continue;
    if (test(a.value)) out.push(name);
  }
  return out.join(" ");
}

function pron(ev: Evaluation, f: Frame, args: string[], kind: string): string {
  const o = thing(ev, f, args[0]);
  if (typeof o === "string") return o;
  return pronoun(kind, genderOf(ev.attrValue(o.id, "SEX")));
}

/**
 * Code units the character at `i` takes (2 for a surrogate pair): flag letters are read by
 * index rather than with for-of, which made a string iterator and a string for each letter, and
 * a character beyond the BMP stays one step (it names no flag, its halves neither).
 */
function charLength(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff || i + 1 >= s.length) return 1;
  const d = s.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
}

function orNot(ev: Evaluation, f: Frame, o: DbObject, spec: string): boolean {
  let negate = false;
  for (let i = 0; i < spec.length; i += charLength(spec, i)) {
    const c = spec[i];
    if (c === "!") {
      negate = true;
      continue;
    }
    if (letterFlag(ev, f, o, c) !== negate) return true;
    negate = false;
  }
  return false;
}
