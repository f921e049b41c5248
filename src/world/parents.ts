/**
 * `@parent`: an object names another (`data.parent`, an id) whose attributes it inherits, as
 * TinyMUX does. The chain is followed at most MAX_PARENT_DEPTH steps past the object (MUX's
 * `parent_nest_lim`, 10), and a chain that loops ends where it meets an object twice, so a
 * corrupt record can never make a reader walk for ever. `@parent` refuses a loop when it is set.
 */
import type { DbObject } from "./types.ts";

/** Parents followed past the object itself (MUX's parent nesting limit). */
export const MAX_PARENT_DEPTH = 10;

/** What walking a chain reads: objects by id. */
export interface ObjectLookup {
  object(id: string): DbObject | null;
}

/** The parent an object names (`data.parent`, an id without `#`), or "". */
export function parentOf(o: Pick<DbObject, "data">): string {
  const p = o.data?.parent;
  return typeof p === "string" ? p : "";
}

/**
 * Ids of the object and its ancestors, nearest first: at most MAX_PARENT_DEPTH + 1, ending at
 * an object without a parent, a parent that does not exist, or one already listed (a loop).
 */
export function parentChain(world: ObjectLookup, id: string): string[] {
  const out: string[] = [];
  let cur = world.object(id);
  while (cur && out.length <= MAX_PARENT_DEPTH && !out.includes(cur.id)) {
    out.push(cur.id);
    const p = parentOf(cur);
    cur = p ? world.object(p) : null;
  }
  return out;
}

/**
 * Why `child` may not take `parent` as its parent (the chain above `parent` reaches `child`,
 * which would make a loop), or null when it may. Chains deeper than the limit are allowed, as in
 * MUX: readers stop at the limit.
 */
export function parentProblem(world: ObjectLookup, child: string, parent: string): string | null {
  if (child === parent) return "An object cannot be its own parent.";
  if (parentChain(world, parent).includes(child)) return "That would make a parent loop.";
  return null;
}

/**
 * The chain above `id` read ahead through an async store (on a shared database, where no world
 * is held), as a lookup `parentChain` and `parentProblem` can walk.
 */
export async function readChain(
  get: (id: string) => Promise<DbObject | null>,
  id: string,
): Promise<ObjectLookup> {
  const held = new Map<string, DbObject>();
  let cur = id;
  while (cur && held.size <= MAX_PARENT_DEPTH && !held.has(cur)) {
    const o = await get(cur);
    if (!o) break;
    held.set(cur, o);
    cur = parentOf(o);
  }
  return { object: (x) => held.get(x) ?? null };
}
