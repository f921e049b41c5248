/**
 * MUX's search language, `[<player>] [<class>=<restriction>[,<low>[,<high>]]]` (`@search`, and
 * the same words TinyMUX's search() takes): reading a query, and answering it from the world's
 * indexes. The candidates come from the narrowest index the query names (the owner's objects, a
 * parent's children, a zone's objects, a flag's or a type's objects); what no index answers (a
 * name's prefix, an evaluation) is tested on those candidates only, at most `cap` of them.
 */
import type { WorldReader } from "./live_world.ts";
import type { DbObject, ObjectType } from "./types.ts";
import { hasMuxFlag, MUX_FLAG_LETTERS, MUX_TYPE_LETTERS, type MuxFlagTests } from "./mux_flags.ts";
import { typeOf } from "./indexes.ts";
import { ownerOf } from "./control.ts";
import { parentOf } from "./parents.ts";
import { zoneOf } from "./zones.ts";

/** A query as typed, split into its parts (names not yet looked up). */
export interface SearchWords {
  /** The player whose objects are searched, as typed (lower case; "" when none was given). */
  player: string;
  /** The class as typed (lower case; "" for none). */
  cls: string;
  /** The restriction after `=` (without the range). */
  restriction: string;
  /** The lowest and highest dbref searched (numbers; `high` Infinity when not given). */
  low: number;
  high: number;
}

/** What a class asks of the objects, before its names are looked up. */
export interface SearchClass {
  type: ObjectType | null;
  /** The start of the name (lower case), or null. */
  name: string | null;
  /** Flags every object must have (the engine's names, lower case; MUX's letters read). */
  flags: readonly string[];
  /** Softcode run for each object (`##` its dbref); a true result keeps it. */
  evaluate: string | null;
  /** `parent` and `zone`: the object they name (looked up by the caller). */
  parent: string | null;
  zone: string | null;
  /** True when the class searches every owner's objects when no player is named (MUX's). */
  anyOwner: boolean;
}

/** A query ready to run: names looked up. */
export interface SearchQuery {
  /** Whose objects (a player id), or null for anyone's. */
  owner: string | null;
  type: ObjectType | null;
  name: string | null;
  flags: readonly string[];
  parent: string | null;
  zone: string | null;
  evaluate: string | null;
  low: number;
  high: number;
}

/** What searching reads: the in-memory world's indexes. */
export type SearchWorld = Pick<
  WorldReader,
  "object" | "ownedBy" | "withFlag" | "children" | "zoned"
>;

/** What a search needs besides the world: MUX's derived flags (mux_flags.ts), evaluation. */
export interface SearchTests extends MuxFlagTests {
  /**
   * Runs an evaluation class's code for one object (`##` replaced): true keeps it, false drops
   * it, null means the evaluation time is spent and the search stops there.
   */
  evaluate?(code: string): boolean | null;
}

/** What a search found. */
export interface SearchResult {
  /** Ids found, in dbref order. */
  ids: string[];
  /** Candidates the indexes gave (in the range) and how many of them were tested. */
  candidates: number;
  tested: number;
  /** True when the evaluation time ran out before every candidate was tested. */
  stopped: boolean;
}

/** The engine's object types, in MUX's listing order (rooms, exits, things, players). */
export const SEARCH_TYPES: readonly ObjectType[] = ["room", "exit", "thing", "player"];

/** Type letters of `flags=` (MUX's object_types): a type, not a flag. */
const TYPE_LETTERS: Readonly<Record<string, ObjectType>> = Object.fromEntries(
  SEARCH_TYPES.filter((t) => MUX_TYPE_LETTERS[t] !== "").map((t) => [MUX_TYPE_LETTERS[t], t]),
);

/** Splits `text` at commas outside (), [] and {} (MUX's parse_to): `gt(money(##),10),5`. */
function topLevelCommas(text: string): string[] {
  const out: string[] = [];
  let depth = 0, from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === "(" || c === "[" || c === "{") depth++;
    else if ((c === ")" || c === "]" || c === "}") && depth > 0) depth--;
    else if (c === "," && depth === 0) {
      out.push(text.slice(from, i));
      from = i + 1;
    }
  }
  out.push(text.slice(from));
  return out;
}

/** A bound of the range: `#12` or `12`; NaN when it is not a number. */
function bound(text: string): number {
  const t = text.trim().replace(/^#/, "");
  return /^\d+$/.test(t) ? Number(t) : NaN;
}

/**
 * Splits a query as MUX's search_setup does: the player is what comes before the class (the
 * last word before `=`), the range the second and third comma-separated parts after it. No `=`:
 * the whole text names the player (none: oneself).
 */
export function splitSearch(text: string): SearchWords | { error: string } {
  const eq = text.indexOf("=");
  let player = (eq < 0 ? text : text.slice(0, eq)).trim().toLowerCase();
  const rest = eq < 0 ? "" : text.slice(eq + 1);
  let cls = "";
  if (rest.trim() !== "") {
    const space = player.lastIndexOf(" ");
    if (space >= 0) {
      cls = player.slice(space + 1);
      player = player.slice(0, space).trim();
    } else {
      cls = player;
      player = "";
    }
  } else if (player === "") player = "me";
  if (player.length > 1 && player.startsWith('"') && player.endsWith('"')) {
    player = player.slice(1, -1);
  }
  // A player named as elsewhere, `*Alice` (MUX's lookup_player drops the stars).
  if (/^\*+[^*]/.test(player)) player = player.replace(/^\*+/, "");
  const [restriction, lowText, highText] = topLevelCommas(rest);
  const low = lowText === undefined || lowText.trim() === "" ? 0 : bound(lowText);
  const high = highText === undefined || highText.trim() === "" ? Infinity : bound(highText);
  if (Number.isNaN(low) || Number.isNaN(high)) {
    return { error: "The range must be dbrefs: <class>=<restriction>,<low>,<high>." };
  }
  return { player, cls, restriction: restriction.trim(), low, high };
}

/** True when `typed` is a prefix of `word` (MUX's string_prefix: `t` for `type`). */
function abbreviates(typed: string, word: string): boolean {
  return typed !== "" && word.startsWith(typed);
}

/**
 * What a class asks (MUX's class names, each by any prefix, checked in MUX's order: `e` is
 * `exits`, `p` `players`, `t` `type`); an error in MUX's words for an unknown class, type or
 * flag.
 */
export function searchClass(cls: string, restriction: string): SearchClass | { error: string } {
  const q: SearchClass = {
    type: null,
    name: null,
    flags: [],
    evaluate: null,
    parent: null,
    zone: null,
    anyOwner: false,
  };
  const named = (type: ObjectType | null) => ({ ...q, type, name: restriction.toLowerCase() });
  const evaluated = (type: ObjectType | null) => ({ ...q, type, evaluate: restriction });
  const c = cls.toLowerCase();
  if (c === "") return q;
  if (abbreviates(c, "exits")) return named("exit");
  if (abbreviates(c, "evaluate")) return evaluated(null);
  if (abbreviates(c, "eplayer")) return evaluated("player");
  if (abbreviates(c, "eroom")) return evaluated("room");
  if (abbreviates(c, "eobject") || abbreviates(c, "ething")) return evaluated("thing");
  if (abbreviates(c, "eexit")) return evaluated("exit");
  if (abbreviates(c, "flags")) return flagsClass(restriction, q);
  if (abbreviates(c, "name")) return named(null);
  if (abbreviates(c, "type")) {
    const r = restriction.toLowerCase();
    if (r === "") return q;
    const type = (["room", "exit", "object", "thing", "player"] as const)
      .find((t) => abbreviates(r, `${t}s`));
    if (!type) return { error: `${restriction}: unknown type` };
    const t = type === "object" ? "thing" : type;
    return { ...q, type: t, anyOwner: t === "player" };
  }
  if (abbreviates(c, "objects") || abbreviates(c, "things")) return named("thing");
  if (abbreviates(c, "players")) return { ...named("player"), anyOwner: true };
  if (abbreviates(c, "parent")) return { ...q, parent: restriction, anyOwner: true };
  if (abbreviates(c, "rooms")) return named("room");
  if (abbreviates(c, "zone")) return { ...q, zone: restriction, anyOwner: true };
  return { error: `${cls}: unknown class` };
}

/**
 * `flags=`: MUX's letters (`PWc`: connected wizard players), or the engine's flag names
 * separated by spaces (`flags=builder dark`) for the flags that have no letter.
 */
function flagsClass(restriction: string, q: SearchClass): SearchClass | { error: string } {
  const words = restriction.trim().split(/\s+/).filter((w) => w !== "");
  const letters = words.length === 1 &&
    [...words[0]].every((ch) => ch in MUX_FLAG_LETTERS || ch in TYPE_LETTERS);
  if (!letters) {
    const flags = words.map((w) => w.toLowerCase());
    const type = flags.find((f) => (SEARCH_TYPES as readonly string[]).includes(f));
    return {
      ...q,
      type: (type as ObjectType | undefined) ?? null,
      flags: flags.filter((f) => f !== type),
      anyOwner: type === "player",
    };
  }
  let type: ObjectType | null = null;
  const flags: string[] = [];
  for (const ch of words[0]) {
    const t = TYPE_LETTERS[ch];
    if (t) {
      if (type !== null && type !== t) return { error: `${ch}: Conflicting type specifications.` };
      type = t;
    } else flags.push(MUX_FLAG_LETTERS[ch]);
  }
  // MUX's help: `flags=P` lists players, anyone's (its code keeps a player to its own).
  return { ...q, type, flags, anyOwner: type === "player" };
}

/** Who searches: staff search anyone's objects (MUX's Search()); `owner` is whose "me" names. */
export interface Searcher {
  staff: boolean;
  /** The searcher's owner: a player's own id, a thing's owner. */
  owner: string;
}

/** MUX's refusal of a search of another's objects by a mortal. */
export const SEARCH_WARRANT = "You need a search warrant to do that!";

/**
 * Whose objects a query searches, before any name is looked up: the searcher's (no player and a
 * mortal, or `me`), anyone's (null: staff, or a class that lists anyone's), or undefined when the
 * player named must be looked up (MUX's search_setup).
 */
export function searchOwner(
  player: string,
  anyOwner: boolean,
  s: Searcher,
): string | null | undefined {
  if (player === "") return s.staff || anyOwner ? null : s.owner;
  if (player === "me") return s.owner;
  return undefined;
}

/**
 * The query to run, its names looked up (`owner` from searchOwner or the player named; `parent`
 * and `zone` objects the searcher controls), or MUX's refusal: a mortal searches only its own
 * objects, but for lists of players and the children or zone of what it controls.
 */
export function searchQuery(
  words: SearchWords,
  cls: SearchClass,
  found: { owner: string | null; parent: string | null; zone: string | null },
  s: Searcher,
): SearchQuery | { error: string } {
  const { owner } = found;
  if (!s.staff && cls.type !== "player" && owner !== s.owner && owner !== null) {
    return { error: SEARCH_WARRANT };
  }
  return {
    owner,
    type: cls.type,
    name: cls.name,
    flags: cls.flags,
    parent: found.parent,
    zone: found.zone,
    evaluate: cls.evaluate,
    low: words.low,
    high: words.high,
  };
}

/** Flags the flag index answers (the others are MUX's names for what the engine derives). */
function indexed(flag: string): boolean {
  return flag !== "wizard" && flag !== "royalty" && flag !== "staff" && flag !== "connected";
}

/** The ids to test: the shortest list of an index the query names, else every object. */
function candidates(w: SearchWorld, q: SearchQuery): readonly string[] {
  const lists: (readonly string[])[] = [];
  if (q.owner !== null) lists.push(w.ownedBy(q.owner));
  if (q.parent !== null) lists.push(w.children(q.parent));
  if (q.zone !== null) lists.push(w.zoned(q.zone));
  if (q.type !== null) lists.push(w.withFlag(q.type));
  for (const f of q.flags) if (indexed(f)) lists.push(w.withFlag(f));
  if (lists.length === 0) return SEARCH_TYPES.flatMap((t) => w.withFlag(t));
  return lists.reduce((a, b) => (b.length < a.length ? b : a));
}

/**
 * Answers a query: the objects that pass every part of it, in dbref order, testing at most
 * `cap` candidates in the range (the rest are counted, not tested). Candidates are ids in the
 * world's own lists, never copied but to narrow them to a range.
 */
export function runSearch(
  w: SearchWorld,
  q: SearchQuery,
  tests: SearchTests,
  cap: number,
): SearchResult {
  // Not sorted: past the cap, the objects tested are the first in the index's own order.
  const all = candidates(w, q);
  const inRange = q.low === 0 && q.high === Infinity ? all : all.filter((id) => {
    const n = Number(id);
    return n >= q.low && n <= q.high;
  });
  const ids: string[] = [];
  let tested = 0, stopped = false;
  for (const id of inRange) {
    if (tested >= cap) break;
    tested++;
    const o = w.object(id);
    if (!o || !matches(o, q, tests)) continue;
    if (q.evaluate !== null) {
      const kept = tests.evaluate ? tests.evaluate(q.evaluate.split("##").join(`#${id}`)) : false;
      if (kept === null) {
        stopped = true;
        tested--;
        break;
      }
      if (!kept) continue;
    }
    ids.push(id);
  }
  ids.sort((a, b) => Number(a) - Number(b));
  return { ids, candidates: inRange.length, tested, stopped };
}

/** What a search that tested fewer than its candidates says of it, or null when it tested all. */
export function searchedShort(r: SearchResult): string | null {
  if (r.tested >= r.candidates) return null;
  const why = r.stopped
    ? "the evaluation's time ran out"
    : "narrow it with a player, a type or a range";
  return `Searched the first ${r.tested} of ${r.candidates} objects; ${why}.`;
}

/** Every part of a query but the evaluation. */
function matches(o: DbObject, q: SearchQuery, tests: SearchTests): boolean {
  if (q.type !== null && typeOf(o) !== q.type) return false;
  if (q.owner !== null && ownerOf(o) !== q.owner) return false;
  if (q.parent !== null && parentOf(o) !== q.parent) return false;
  if (q.zone !== null && zoneOf(o) !== q.zone) return false;
  for (const f of q.flags) if (!hasMuxFlag(o, f, tests)) return false;
  return q.name === null || o.name.toLowerCase().startsWith(q.name);
}
