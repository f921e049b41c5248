/**
 * `@search` (TinyMUX's): the objects of a player, or of a class (type, name, flags, parent,
 * zone, an evaluation), listed by type with MUX's headings and counts. The query language and
 * the index walk are src/world/search.ts.
 */
import type { CommandSdk, CommandSpec } from "../types.ts";
import type { DbObject } from "../../world/types.ts";
import { controls, ownerOf } from "../../world/control.ts";
import { isStaff } from "../../world/flags.ts";
import { typeOf } from "../../world/indexes.ts";
import { hiddenFrom } from "../../world/visibility.ts";
import {
  runSearch,
  SEARCH_TYPES,
  searchClass,
  searchedShort,
  type Searcher,
  searchOwner,
  type SearchQuery,
  searchQuery,
  type SearchResult,
  splitSearch,
} from "../../world/search.ts";
import { truthy } from "../../softcode/numbers.ts";
import { CommandError } from "../errors.ts";
import { nameFor } from "../format.ts";
import { MAX_FOUND, MAX_SEARCHED } from "../limits.ts";

/** MUX's headings, in its order. */
const HEADINGS: Readonly<Record<string, string>> = {
  room: "ROOMS:",
  exit: "EXITS:",
  thing: "OBJECTS:",
  player: "PLAYERS:",
};

/** The searcher as MUX's search rules see it. */
function searcher(u: CommandSdk): Searcher {
  return { staff: isStaff(u.me.flags), owner: ownerOf(u.me) };
}

/** MUX's match_controlled: an object the actor names and controls. */
async function controlled(u: CommandSdk, ref: string): Promise<string> {
  const o = await u.target(ref);
  if (!controls(u.me, o, u.locks)) throw new CommandError("Permission denied.");
  return o.id;
}

/** Reads `@search`'s argument into a query, with MUX's refusals. */
async function queryOf(u: CommandSdk, text: string): Promise<SearchQuery> {
  const words = splitSearch(text);
  if ("error" in words) throw new CommandError(words.error);
  const cls = searchClass(words.cls, words.restriction);
  if ("error" in cls) throw new CommandError(cls.error);
  const s = searcher(u);
  let owner = searchOwner(words.player, cls.anyOwner, s);
  if (owner === undefined) {
    const found = await u.players.find(words.player, u.me);
    if (!found) throw new CommandError(`${words.player}: No such player`);
    owner = found.id;
  }
  const q = searchQuery(words, cls, {
    owner,
    parent: cls.parent === null ? null : await controlled(u, cls.parent),
    zone: cls.zone === null ? null : await controlled(u, cls.zone),
  }, s);
  if ("error" in q) throw new CommandError(q.error);
  return q;
}

/**
 * Runs a query, an evaluation class within one evaluation's time for the whole search (each
 * object's function calls counted apart).
 */
function run(u: CommandSdk, q: SearchQuery): SearchResult {
  const world = u.objects.world;
  if (!world) throw new CommandError("The world is not loaded yet; try again in a moment.");
  const tests = {
    // A dark player is connected only to whoever may see it (who, lwho()).
    connected: (o: DbObject) => u.presence.isOnline(o.id) && !hiddenFrom(u.me, o, u.locks),
    staff: (o: DbObject) => isStaff(o.flags),
  };
  if (q.evaluate === null) return runSearch(world, q, tests, MAX_SEARCHED);
  return u.softcode.metered({ executor: u.me.id, enactor: u.me.id }, (more) =>
    runSearch(world, q, {
      ...tests,
      // Each object's test counts its function calls apart, as MUX's search_perform does.
      evaluate: (code) => (more() ? u.softcode.apart(() => truthy(u.evaluate(code))) : null),
    }, MAX_SEARCHED));
}

/** One line of the listing, as MUX's do_search writes it for the object's type. */
function line(u: CommandSdk, o: DbObject, staff: boolean): string {
  const world = u.objects.world;
  const named = (id: string | undefined) => {
    const t = id ? world?.object(id) : null;
    return t ? nameFor(u.me, t) : "NOWHERE";
  };
  switch (typeOf(o)) {
    case "exit":
      return `${nameFor(u.me, o)} [from ${named(o.location)} to ${named(o.data.destination)}]`;
    case "thing":
      return `${nameFor(u.me, o)} [owner: ${named(ownerOf(o))}]`;
    case "player":
      return staff ? `${nameFor(u.me, o)} [location: ${named(o.location)}]` : nameFor(u.me, o);
    default:
      return nameFor(u.me, o);
  }
}

export const commands: CommandSpec[] = [
  {
    name: "@search",
    category: "Building",
    help: `@search [<player>] [<class>=<restriction>[,<low>[,<high>]]]

Lists objects that meet the search criteria, as TinyMUX does: rooms, exits, objects (things)
and players under their headings, then how many of each. <player> searches what that player
owns; without one you search what you own (staff: everything). <low> and <high> bound the
dbrefs searched. Players may search only their own objects, except for lists of players and
the children or zone of an object they control; staff search anything.

Classes (each may be shortened: t=room):
  type=<room|exit|thing|object|player>
  name=<start>      objects whose name starts so
  rooms=, exits=, things= (objects=), players=<start>   a type and a name's start
  flags=<letters>   MUX's flag letters (PWc: connected wizard players; P R E are types),
                    or flag names separated by spaces (flags=builder dark)
  parent=<object>   its children;  zone=<object>   what is in its zone
  eval=<code>       each object for which <code> is true, ## its dbref
  eplayer=, eroom=, eexit=, ething= (eobject=)<code>   a type and an evaluation

Owner, type, flag, parent and zone come from indexes; a name or an evaluation is tested on
at most ${MAX_SEARCHED} of the objects they give (the reply says when more were left). At most
${MAX_FOUND} of each type are listed. MUX's power class is not offered (the engine has no
powers), and nothing is charged.

Examples:
  @search type=room
  @search flags=PWc
  @search eval=gt(words(lcon(##)),10)
  @search Bob type=thing,100,300`,
    async exec(u) {
      const q = await queryOf(u, u.cmd.args);
      const found = run(u, q);
      const staff = isStaff(u.me.flags);
      const objects = found.ids.map((id) => u.objects.world?.object(id)).filter((o) =>
        o !== null && o !== undefined
      );
      const lines: string[] = [];
      const counts: Record<string, number> = {};
      for (const type of SEARCH_TYPES) {
        const of = objects.filter((o) => typeOf(o) === type);
        counts[type] = of.length;
        if (!of.length) continue;
        lines.push("", HEADINGS[type], ...of.slice(0, MAX_FOUND).map((o) => line(u, o, staff)));
        if (of.length > MAX_FOUND) lines.push(`... and ${of.length - MAX_FOUND} more.`);
      }
      if (!lines.length) lines.push("Nothing found.");
      else {
        lines.push(
          "",
          `Found:  Rooms...${counts.room}  Exits...${counts.exit}  Objects...${counts.thing}  ` +
            `Players...${counts.player}`,
        );
      }
      const short = searchedShort(found);
      if (short !== null) lines.push(`(${short})`);
      u.send(lines.join("\n"), {
        type: "search",
        found: objects.slice(0, MAX_FOUND * 4).map((o) => ({
          id: o.id,
          name: o.name,
          type: typeOf(o),
        })),
        searched: found.tested,
        candidates: found.candidates,
      });
    },
  },
];
