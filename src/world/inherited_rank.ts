/**
 * The rank an object acts with when it runs a built-in command: MUX's Wizard() and Staff() count
 * an object set `inherit` as its owner (`Inherits`), so a wizard's global object (a BBS, a jobs
 * system, +finger) may set attributes on players, create objects and pass staff-only command
 * locks; any other object acts with its own flags. Only rank is taken from the owner: the object
 * stays itself (its name, location, `%!`).
 */
import type { DbObject } from "./types.ts";
import type { WorldVersion } from "./version.ts";
import { isStaff, STAFF_FLAGS } from "./flags.ts";
import { lowerCase } from "../text/lower.ts";

/** Most `inherit` objects whose ranked copy is kept (past it, the memory starts again). */
const MAX_KEPT = 10_000;

/** A ranked copy, and the records and world change count it was made from. */
interface Kept {
  me: DbObject;
  owner: DbObject;
  n: number;
  ranked: DbObject;
}

/**
 * The ranked copies of `inherit` objects, one memo per world (LiveWorld.ranks): a queued line of a
 * wizard's global and each of its staff checks and attribute reads would otherwise copy the
 * object every time. A copy is kept while the world's change count is the same and the object's
 * record is the one it was made from; after any change it is kept still when neither the
 * object's record nor its owner's was replaced (both are frozen, and replaced on every write).
 */
export class RankMemo {
  readonly #kept = new Map<string, Kept>();

  /** The copy kept for `me`, when it was made from this record at change count `n`. */
  kept(me: DbObject, n: number): DbObject | null {
    const k = this.#kept.get(me.id);
    return k && k.me === me && k.n === n ? k.ranked : null;
  }

  /** The copy kept for `me` and `owner` (records as they are now), marked current at `n`. */
  still(me: DbObject, owner: DbObject, n: number): DbObject | null {
    const k = this.#kept.get(me.id);
    if (!k || k.me !== me || k.owner !== owner) return null;
    k.n = n;
    return k.ranked;
  }

  /** Keeps `ranked`, made from `me` and `owner` at change count `n`. */
  keep(me: DbObject, owner: DbObject, n: number, ranked: DbObject): void {
    if (this.#kept.size >= MAX_KEPT) this.#kept.clear();
    this.#kept.set(me.id, { me, owner, n, ranked });
  }
}

/** What the rank is read from: objects by id, and the memo and change count of a held world. */
export interface RankWorld {
  object(id: string): DbObject | null;
  readonly version?: WorldVersion;
  readonly ranks?: RankMemo;
}

/** `me` as a command sees it: with its staff owner's rank flags when it is set `inherit`. */
export function withInheritedRank(world: RankWorld | null, me: DbObject): DbObject {
  // One pass over the flags: this runs on every attribute read and staff check softcode makes.
  let inherit = false;
  // Indexed, not for-of (see hasFlag in flags.ts).
  const flags = me.flags;
  for (let i = 0; i < flags.length; i++) {
    const l = lowerCase(flags[i]);
    if (l === "player") return me;
    if (l === "inherit") inherit = true;
  }
  if (!inherit || !me.owner || !world) return me;
  const memo = world.ranks;
  const n = world.version?.n ?? -1;
  if (memo && n >= 0) {
    const kept = memo.kept(me, n);
    if (kept) return kept;
  }
  const owner = world.object(me.owner);
  if (!owner) return me;
  if (memo && n >= 0) {
    const kept = memo.still(me, owner, n);
    if (kept) return kept;
  }
  let ranked = me;
  if (isStaff(owner.flags)) {
    const rank = owner.flags.filter((f) => STAFF_FLAGS.includes(f.toLowerCase()));
    ranked = Object.freeze({ ...me, flags: [...me.flags, ...rank] });
  }
  if (memo && n >= 0) memo.keep(me, owner, n, ranked);
  return ranked;
}
