/**
 * The actions the engine fires outside any command (docs/softcode.md, "Actions the engine
 * fires"): a player's `@aconnect` and `@adisconnect` (and the master room's and its contents', and
 * the zone master's of the player's room),
 * and every object's `@startup` when the engine starts. Each is queued as its object through the
 * one queue.
 */
import type { ActionQueue } from "../queue/types.ts";
import type { WorldReader } from "../world/live_world.ts";
import type { ObjectType } from "../world/types.ts";
import { actionAttr, type DidItPorts } from "./did_it.ts";
import { zoneOf } from "../world/zones.ts";

/** What firing needs: the queue, the attributes in memory, the world. */
export interface FiredPorts extends Pick<DidItPorts, "attributes" | "softcode"> {
  queue: Pick<ActionQueue, "enqueue">;
  world(): WorldReader | null;
  /** The master room's id (`softcode.masterRoom`), or "" for none. */
  masterRoom(): string;
}

/** Queues `obj`'s attribute `name` (its own or a parent's) as `obj`, caused by `enactor`. */
function fire(p: FiredPorts, obj: string, name: string, enactor: string): boolean {
  const a = actionAttr(p, obj, name);
  if (!a) return false;
  // A new chain: an outside event, as a typed line is.
  p.queue.enqueue({ executor: obj, enactor, caller: enactor, action: a.value });
  return true;
}

/** Fires `name` of each player and thing in `place` but `player`, with `player` as enactor. */
function fireContents(
  p: FiredPorts,
  world: WorldReader,
  place: string,
  name: string,
  player: string,
): void {
  for (const id of world.contents(place)) {
    const o = world.object(id);
    if (o && id !== player && !o.flags.includes("exit")) fire(p, id, name, player);
  }
}

/**
 * A player connected (`ACONNECT`: every connection, as MUX has it) or its last connection went
 * (`ADISCONNECT`): in MUX's order, the player's own attribute, the master room's, then each of
 * the master room's contents' (its players and things), then the zone's of the room the player
 * is in: its zone master's when that is a thing, or each of its contents' when it is a room
 * (MUX's parent room); all with the player as enactor.
 */
export function fireConnection(
  p: FiredPorts,
  player: string,
  name: "ACONNECT" | "ADISCONNECT",
): void {
  const world = p.world();
  const me = world?.object(player);
  if (!world || !me) return;
  fire(p, player, name, player);
  const room = p.masterRoom();
  if (room && world.object(room)) {
    fire(p, room, name, player);
    fireContents(p, world, room, name, player);
  }
  const here = me.location ? world.object(me.location) : null;
  const zmo = here && zoneOf(here) ? world.object(zoneOf(here)) : null;
  if (zmo?.flags.includes("thing")) fire(p, zmo.id, name, player);
  else if (zmo?.flags.includes("room")) fireContents(p, world, zmo.id, name, player);
}

/** Every object type, so a walk over them is the whole world. */
const TYPES: readonly ObjectType[] = ["room", "thing", "player", "exit"];

/**
 * `@startup`, run when the engine starts (cold or after `@reboot`): each object with a STARTUP
 * attribute of its own (MUX reads no parent's) first loses the waits it kept from earlier runs,
 * which its `@startup` arms again (MUX keeps no queue across a restart, so a self-arming loop
 * there starts once; here waits survive a restart, and would run beside the new one), then its
 * STARTUP is queued with its owner as enactor. Called after the queue has taken over the stored
 * waits and before the timers run them. Answers how many objects started.
 */
export async function runStartups(
  p: Omit<FiredPorts, "queue"> & {
    queue: Pick<ActionQueue, "enqueue"> & { dropWaits(object: string): Promise<number> };
  },
): Promise<number> {
  const world = p.world();
  if (!world || !p.attributes.live) return 0;
  // One walk over the world in memory at start (as MUX's), never on a player's time.
  const starting: { id: string; owner: string }[] = [];
  for (const type of TYPES) {
    for (const id of world.withFlag(type)) {
      const own = p.attributes.peek(id, "STARTUP");
      if (!own || own.value === "") continue;
      const o = world.object(id);
      if (o) starting.push({ id, owner: o.owner || id });
    }
  }
  for (const s of starting) await p.queue.dropWaits(s.id);
  for (const s of starting) fire(p, s.id, "STARTUP", s.owner);
  return starting.length;
}
