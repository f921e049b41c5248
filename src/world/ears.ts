/**
 * MUX's handle_ears (predicates.cpp): an object that comes to hear, or stops, says so, as
 * `<name> grows ears and can now hear.` or `<name> loses its ears and becomes deaf.`. What
 * hears is MUX's Hearer() (hearsWhereItIs), asked before and after a change that may alter it:
 * a flag set or cleared (`puppet`, `monitor`: the `@set` command) and any attribute written
 * (`@listen`, a `^-listen` on a monitor, its `no_command` flag; by command, softcode or script:
 * watchEars). A player connecting is not said to grow ears, as in MUX.
 */
import type { DbObject } from "./types.ts";
import type { Delivery } from "../hub/types.ts";
import type { AttributeStore } from "./attributes/store.ts";
import { displayName } from "./players.ts";
import { hasFlag } from "./flags.ts";
import { puppetRelay } from "./hearing.ts";
import { genderOf, pronoun } from "../softcode/eval.ts";

/** What telling of ears reads and tells through. */
export interface EarsPorts {
  deliver: Pick<Delivery, "toPlayer" | "toRoom">;
  world(): { object(id: string): DbObject | null } | null;
  /** The object's `@sex`, through its parents ("" for none): MUX's get_gender. */
  sexOf(id: string): string;
}

/** The line of `thing` coming to hear (`hears`) or ceasing to; `sex` picks the pronoun. */
export function earsLine(thing: DbObject, sex: string, hears: boolean): string {
  const gender = genderOf(sex);
  const s = gender === 4 ? "" : "s";
  const name = displayName(thing);
  return hears
    ? `${name} grow${s} ears and can now hear.`
    : `${name} lose${s} ${pronoun("p", gender)} ears and become${s} deaf.`;
}

/**
 * Says that `thing` now hears (`hears`) or no longer does, said by it where MUX's
 * notify_check(MSG_ME | MSG_NBR | MSG_LOC | MSG_INV) has it: to itself (a player; a puppet
 * relays it to its owner, unless the owner is there or carries it), to what is inside it, and,
 * for a thing or a player, to where it is (a room, or the player carrying it) and the others
 * there. Listening objects there hear it with `%#` the thing. An exit says nothing (MUX's exits
 * have no place to say it in, and nothing inside).
 */
export function tellEars(p: EarsPorts, thing: DbObject, hears: boolean): void {
  if (hasFlag(thing.flags, "exit")) return;
  const world = p.world();
  const msg = earsLine(thing, p.sexOf(thing.id), hears);
  if (hasFlag(thing.flags, "player")) p.deliver.toPlayer(thing.id, { msg });
  else {
    const relay = puppetRelay(thing, (owner) => world?.object(owner)?.location);
    if (relay) p.deliver.toPlayer(relay.player, { msg: relay.prefix + msg });
  }
  p.deliver.toRoom(thing.id, { msg }, [], thing.id);
  const loc = thing.location;
  if (!loc || hasFlag(thing.flags, "room")) return;
  if (world?.object(loc)?.flags.includes("player")) p.deliver.toPlayer(loc, { msg });
  p.deliver.toRoom(loc, { msg }, [thing.id], thing.id);
}

/**
 * Tells of ears around every attribute written in `store` that may change whether its object
 * hears (a `LISTEN`, or any attribute of a `monitor` object: its `^-listens`), as MUX's
 * set_attr_internal, @edit, @wipe and attribute flags do. `hears` is MUX's Hearer().
 */
export function watchEars(
  store: Pick<AttributeStore, "aroundWrite">,
  p: EarsPorts,
  hears: (o: DbObject) => boolean,
): () => void {
  return store.aroundWrite((id, name) => {
    const before = p.world()?.object(id);
    if (!before || (name !== "LISTEN" && !hasFlag(before.flags, "monitor"))) return null;
    const could = hears(before);
    return () => {
      const after = p.world()?.object(id);
      if (after && hears(after) !== could) tellEars(p, after, !could);
    };
  });
}
