/**
 * Target lookup for commands: `me`, `here`, `#dbref`, `*player` (name or alias), or a name
 * matched exactly and then by unique prefix among what the actor holds and sees.
 */
import type { ObjectStore } from "../world/objects.ts";
import type { PlayerLookup } from "../world/players.ts";

/** What finding a target reads: objects near the actor, and players anywhere. */
export interface TargetDeps {
  objects: Pick<ObjectStore, "get" | "contents">;
  players: Pick<PlayerLookup, "find">;
}
import type { DbObject } from "../world/types.ts";
import { normalizeId } from "../world/ids.ts";
import { CommandError } from "./errors.ts";
import { exitName, namesOf } from "./format.ts";

/** Longest reference we try to match; longer text cannot be a name. */
const MAX_REF = 200;
/** Most objects of a room considered for a name match. */
const MAX_CANDIDATES = 1000;

/** The message for a reference that matches nothing. */
export const NOT_HERE = "I don't see that here.";

/**
 * A lookup's result, or a command's own words where it matched nothing (MUX's commands word
 * that differently: `@lock` "I don't see what you want to lock!", `@chown` "You don't have that!").
 */
export async function orSay<T>(found: Promise<T>, notFound: string): Promise<T> {
  try {
    return await found;
  } catch (e) {
    if (e instanceof CommandError && e.message === NOT_HERE) throw new CommandError(notFound);
    throw e;
  }
}

/** User text quoted back in a message, shortened so a huge argument cannot flood the reply. */
export function quote(text: string): string {
  const t = text.trim();
  return t.length > 40 ? `${t.slice(0, 40)}...` : t;
}

/** Resolves a reference to one object near the actor (or anywhere by dbref); throws CommandError. */
export async function findTarget(
  s: TargetDeps,
  me: DbObject,
  here: DbObject | null,
  ref: string,
): Promise<DbObject> {
  const r = String(ref ?? "").trim();
  if (!r || r.length > MAX_REF) throw new CommandError(NOT_HERE);
  const lower = r.toLowerCase();
  if (lower === "me") return me;
  if (lower === "here") {
    if (!here) throw new CommandError(NOT_HERE);
    return here;
  }
  if (r.startsWith("#")) {
    const id = normalizeId(r);
    const obj = id ? await s.objects.get(id) : null;
    if (!obj) throw new CommandError(NOT_HERE);
    return obj;
  }
  if (r.startsWith("*")) return await findPlayer(s, me, r.slice(1));

  const candidates = await nearby(s, me, here);
  const exact = candidates.filter((o) => namesOf(o).includes(lower));
  if (exact.length === 1) return exact[0];
  if (exact.length > 1) throw ambiguous(exact);
  // As `*name`: a bare number here is a name that matched nothing nearby, not a dbref. (A
  // reference longer than any name or alias is refused by the players service without a read.)
  const player = await s.players.find(`*${r}`);
  if (player) return player;
  const partial = candidates.filter((o) => prefixMatches(o, lower));
  if (partial.length === 1) return partial[0];
  if (partial.length > 1) throw ambiguous(partial);
  throw new CommandError(NOT_HERE);
}

/**
 * Resolves a player anywhere: `me`, `#dbref`, `*name`, or a name or alias (exact); throws
 * CommandError.
 */
export async function findPlayer(
  s: Pick<TargetDeps, "players">,
  me: DbObject,
  ref: string,
): Promise<DbObject> {
  const r = String(ref ?? "").trim();
  if (!r) throw new CommandError("Which player?");
  const player = await s.players.find(r, me);
  if (!player) throw new CommandError(`I don't recognize a player named '${quote(r)}'.`);
  return player;
}

/** What the actor can refer to by name: itself, its room, the room's contents and its own. */
async function nearby(s: TargetDeps, me: DbObject, here: DbObject | null): Promise<DbObject[]> {
  const [inRoom, carried] = await Promise.all([
    here ? s.objects.contents(here.id, MAX_CANDIDATES) : Promise.resolve([]),
    s.objects.contents(me.id, MAX_CANDIDATES),
  ]);
  const seen = new Set<string>();
  const out: DbObject[] = [];
  for (const o of [me, ...(here ? [here] : []), ...carried, ...inRoom]) {
    if (seen.has(o.id)) continue;
    seen.add(o.id);
    out.push(o);
  }
  return out;
}

/** True when a name, or any word of it, starts with the typed text. */
function prefixMatches(o: DbObject, lower: string): boolean {
  return namesOf(o).some((n) =>
    n.startsWith(lower) || n.split(/\s+/).some((w) => w.startsWith(lower))
  );
}

function ambiguous(found: DbObject[]): CommandError {
  const label = (o: DbObject) => o.flags.includes("exit") ? exitName(o) : o.name;
  const list = [...found].sort((a, b) =>
    label(a).localeCompare(label(b)) || Number(a.id) - Number(b.id)
  );
  const names = list.map((o) => o.flags.includes("exit") ? exitName(o) : o.name);
  const dup = new Set(names.filter((n, i) => names.indexOf(n) !== i));
  const shown = list.slice(0, 10).map((o, i) =>
    dup.has(names[i]) ? `${names[i]}(#${o.id})` : names[i]
  );
  const more = list.length > 10 ? `, and ${list.length - 10} more` : "";
  return new CommandError(`I don't know which one you mean: ${shown.join(", ")}${more}.`);
}
