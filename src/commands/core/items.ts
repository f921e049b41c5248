/** Carrying things: inventory, get, drop, give. */
import { checkLock, lockOf } from "../../world/locks.ts";
import type { CommandSdk, CommandSpec } from "../types.ts";
import type { DbObject } from "../../world/types.ts";
import { CommandError } from "../errors.ts";
import { listed, nameFor } from "../format.ts";
import { displayName } from "../../world/players.ts";
import { didIt, messageOf, runAction, tellOthers } from "../did_it.ts";
import { tell } from "../sdk.ts";
import { controls } from "../../world/access.ts";
import { hasFlag } from "../../world/flags.ts";
import { hearerOf } from "../../world/hearing.ts";
import { isDarkWizard } from "../../world/building.ts";
import { NOT_HERE, orSay } from "../target.ts";
import { hearer, showView } from "../move.ts";
import { lookIn } from "../looking.ts";

/** Most things listed by `inventory`. */
const MAX_LISTED = 200;

function isDark(o: DbObject): boolean {
  return hasFlag(o.flags, "dark");
}

function isThing(o: DbObject): boolean {
  return o.flags.includes("thing") &&
    !o.flags.some((f) => f === "player" || f === "room" || f === "exit");
}

/**
 * A thing the actor carries, by name. As MUX's `drop` and `give` (which match only what is
 * carried), anything else, or nothing typed, is "You don't have that!".
 */
async function carried(u: CommandSdk, ref: string): Promise<DbObject> {
  const obj = ref.trim() ? await orSay(u.target(ref), DONT_HAVE) : null;
  if (!obj || obj.location !== u.me.id) throw new CommandError(DONT_HAVE);
  return obj;
}

/** MUX's words for a thing the actor does not carry. */
const DONT_HAVE = "You don't have that!";

/** The id and name of an object, for web clients. */
function brief(o: DbObject) {
  return { id: o.id, name: o.name };
}

/** Moves a thing to a new holder, checking it did not move in the meantime. */
async function moveThing(u: CommandSdk, obj: DbObject, from: string, to: string) {
  return await u.objects.update(obj.id, (o) => {
    if (o.location !== from) throw new CommandError("That is no longer there.");
    o.location = to;
  });
}

/**
 * A puppet moved by hand looks where it is now, as whatever MUX moves does (move_object's
 * look_in): its owner hears the view, each line after its name. No other thing looks.
 */
async function puppetLooks(u: CommandSdk, moved: DbObject, place: DbObject): Promise<void> {
  if (moved.flags.includes("player") || !hearerOf(moved)) return;
  showView(u, moved, await lookIn(u, moved, place, u.width));
}

/**
 * What `get <ref>` takes: the thing named, or (MUX's possessive, `chest's coin`) a thing inside
 * a container in the room or the actor's hands, which must be `enter_ok` or the actor's and,
 * unless the actor's, neither dark nor opaque; `from` is that container.
 */
async function toGet(
  u: CommandSdk,
  ref: string,
): Promise<{ obj: DbObject; from: DbObject | null }> {
  let miss: CommandError;
  try {
    return { obj: await u.target(ref), from: null };
  } catch (e) {
    if (!(e instanceof CommandError)) throw e;
    miss = e;
  }
  const m = /^(.+?)'s?\s+(.+)$/i.exec(ref);
  if (!m) throw miss;
  const from = await u.target(m[1].trim()).catch(() => null);
  if (!from || (from.location !== u.here?.id && from.location !== u.me.id)) throw miss;
  const mine = controls(u.me, from, u.locks);
  if (!mine && (hasFlag(from.flags, "dark") || hasFlag(from.flags, "opaque"))) throw miss;
  if (!mine && !hasFlag(from.flags, "enter_ok")) throw new CommandError("Permission denied.");
  const name = m[2].trim().toLowerCase();
  const inside = await u.objects.contentsOfType(from.id, "thing", MAX_LISTED);
  const obj = inside.find((o) => o.name.toLowerCase() === name) ??
    inside.find((o) => o.name.toLowerCase().startsWith(name));
  if (!obj) throw new CommandError(`I don't see that in ${from.name}.`);
  return { obj, from };
}

/** The items family. */
export const commands: CommandSpec[] = [
  {
    name: "inventory",
    aliases: ["i", "inv"],
    guests: true,
    category: "Items",
    help: `inventory   (or i)

Lists what you are carrying.`,
    async exec(u) {
      const things = await u.objects.contentsOfType(u.me.id, "thing", MAX_LISTED);
      if (!things.length) {
        return u.send("You aren't carrying anything.", { type: "inventory", items: [] });
      }
      // MUX's do_inventory: one a line.
      u.send(listed("You are carrying:", things.map((o) => nameFor(u.me, o))), {
        type: "inventory",
        items: things.map((o) => ({ id: o.id, name: o.name })),
      });
    },
  },
  {
    name: "get",
    aliases: ["take"],
    category: "Items",
    help: `get <thing>   (or take <thing>)
get <container>'s <thing>

Picks up a thing in the room, or takes one out of a container here or in your hands (one set
enter_ok, or yours). A place's getfrom lock (@lock/getfrom) says who may take things from it.

Example:
  get lantern
  get chest's coin`,
    async exec(u) {
      const ref = u.cmd.args.trim();
      if (!ref) throw new CommandError(NOT_HERE);
      const { obj, from } = await toGet(u, ref);
      // MUX's do_get matches only what is around the actor, never the actor itself.
      if (obj.id === u.me.id) throw new CommandError(NOT_HERE);
      if (obj.location === u.me.id) throw new CommandError("You already have that!");
      if (!u.here || (!from && obj.location !== u.here.id)) {
        throw new CommandError("I don't see that here.");
      }
      if (!isThing(obj)) throw new CommandError("You can't pick that up.");
      const holder = from ?? u.here;
      // MUX's do_get: the place the thing is taken from must let the actor take from it.
      if (!u.passes(lockOf(holder, "getfrom"), holder.id)) {
        throw new CommandError("Permission denied.");
      }
      if (!u.passes(lockOf(obj, "basic"), obj.id)) {
        // The thing's @fail family (MUX's do_get); a @fail that gives nothing says nothing.
        const def = from ? "You can't take that from there." : "You can't pick that up.";
        const msg = messageOf(u, u.me, obj, "FAIL", def);
        tellOthers(u, u.me, obj, u.here.id, "OFAIL");
        runAction(u, u.me, obj, "AFAIL");
        if (msg) throw new CommandError(msg);
        return;
      }
      // Whether it hears is asked before it moves, as MUX's Hearer().
      const hears = hearer(u, obj);
      const taken = await moveThing(u, obj, holder.id, u.me.id);
      if (from) tell(u, from.id, { msg: `${obj.name} was taken from you.` });
      // MUX's move (process_leave_loc): the place it left hears it go, unless it or the place
      // is dark (one that hears is heard going anyway, but a dark wizard's never); the taker is
      // not told.
      if ((!isDark(obj) && !isDark(holder)) || (hears && !isDarkWizard(u.locks, obj))) {
        // Said by the thing, as MUX's notify_except2: listeners there hear it from it.
        const data = { type: "leave", item: brief(obj), room: holder.id };
        const msg = `${obj.name} has left.`;
        u.deliver.toRoom(holder.id, { msg, data }, [u.me.id, obj.id], obj.id);
      }
      await puppetLooks(u, taken, u.me);
      // MUX's do_get tells the thing too (a puppet's owner hears "Pup> Taken.").
      tell(u, obj.id, { msg: "Taken." });
      const data = { type: "get", who: { id: u.me.id, name: u.me.name }, item: brief(obj) };
      // MUX's do_get: "Taken.", and the room hears the thing's @osucc.
      didIt(u, u.me, obj, u.here.id, {
        what: "SUCC",
        def: "Taken.",
        owhat: "OSUCC",
        awhat: "ASUCC",
        data,
        odata: data,
      });
    },
  },
  {
    name: "drop",
    category: "Items",
    help: `drop <thing>

Puts down a thing you are carrying.

Example:
  drop lantern`,
    async exec(u) {
      const obj = await carried(u, u.cmd.args);
      if (!u.here) throw new CommandError("There is nowhere to drop it.");
      if (!u.passes(lockOf(obj, "drop"), obj.id)) throw new CommandError("You can't drop that.");
      const hears = hearer(u, obj);
      await puppetLooks(u, await moveThing(u, obj, u.me.id, u.here.id), u.here);
      // MUX's move (process_enter_loc): only a thing that hears is heard arriving, and never a
      // dark wizard's; the thing says it.
      if (hears && !isDarkWizard(u.locks, obj)) {
        const data = { type: "arrive", item: brief(obj), room: u.here.id };
        const msg = `${obj.name} has arrived.`;
        u.deliver.toRoom(u.here.id, { msg, data }, [u.me.id, obj.id], obj.id);
      }
      // MUX's do_drop tells the thing too (a puppet's owner hears "Pup> Dropped.").
      tell(u, obj.id, { msg: "Dropped." });
      const data = { type: "drop", who: { id: u.me.id, name: u.me.name }, item: brief(obj) };
      didIt(u, u.me, obj, u.here.id, {
        what: "DROP",
        def: "Dropped.",
        owhat: "ODROP",
        odef: `dropped ${obj.name}.`,
        awhat: "ADROP",
        data,
        odata: data,
      });
    },
  },
  {
    name: "give",
    category: "Items",
    help: `give <player>=<thing>

Hands a thing you carry to someone in the same room who is set enter_ok (or yours).

Example:
  give Bob=lantern`,
    async exec(u) {
      // MUX's do_give: the recipient is one in the room or carried (or oneself).
      const who = u.cmd.rhs === null ? "" : u.cmd.lhs.trim();
      const to = who ? await orSay(u.target(who), "Give to whom?") : null;
      if (!to || (to.location !== u.me.location && to.location !== u.me.id)) {
        throw new CommandError("Give to whom?");
      }
      if (to.flags.includes("exit")) throw new CommandError("You can't give anything to an exit.");
      if (to.id === u.me.id) throw new CommandError("You can't give things to yourself.");
      const obj = await carried(u, u.cmd.rhs ?? "");
      if (obj.id === to.id) throw new CommandError("You can't give an object to itself.");
      if (
        !isThing(obj) || !(hasFlag(to.flags, "enter_ok") || controls(u.me, to, u.locks))
      ) throw new CommandError("Permission denied.");
      // MUX: the thing's give lock says who may give it, the recipient's receive lock which
      // things it takes (the thing is what must pass); each failure runs its @-fail family.
      if (!u.passes(lockOf(obj, "give"), obj.id)) {
        const msg = messageOf(u, u.me, obj, "GFAIL", `You can't give ${obj.name} away.`);
        tellOthers(u, u.me, obj, u.me.location, "OGFAIL");
        runAction(u, u.me, obj, "AGFAIL");
        if (msg) throw new CommandError(msg);
        return;
      }
      const thing = { id: `#${obj.id}`, flags: obj.flags, connected: false };
      if (!checkLock(lockOf(to, "receive"), thing, { world: u.locks, on: to.id })) {
        const msg = messageOf(u, u.me, to, "RFAIL", `${displayName(to)} doesn't want ${obj.name}.`);
        tellOthers(u, u.me, to, u.me.location, "ORFAIL");
        runAction(u, u.me, to, "ARFAIL");
        if (msg) throw new CommandError(msg);
        return;
      }
      const hears = hearer(u, obj);
      await puppetLooks(u, await moveThing(u, obj, u.me.id, to.id), to);
      const data = {
        type: "give",
        from: { id: u.me.id, name: u.me.name },
        to: { id: to.id, name: to.name },
        item: { id: obj.id, name: obj.name },
      };
      // MUX's move (process_enter_loc): a thing that hears is heard arriving by its new holder,
      // first; the giver hears it leave only as the place it left, which says nothing here.
      if (hears && !isDarkWizard(u.locks, obj)) {
        tell(u, to.id, {
          msg: `${obj.name} has arrived.`,
          data: { type: "arrive", item: brief(obj), room: to.id },
        });
      }
      tell(u, to.id, { msg: `${displayName(u.me)} gave you ${obj.name}.`, data });
      u.send("Given.", data);
      tell(u, obj.id, { msg: `${displayName(u.me)} gave you to ${displayName(to)}.` });
      // Then, as MUX, the thing's drop messages for the giver and its succ for the recipient.
      didIt(u, u.me, obj, u.me.location, { what: "DROP", owhat: "ODROP", awhat: "ADROP" });
      didIt(u, to, obj, u.me.location, { what: "SUCC", owhat: "OSUCC", awhat: "ASUCC" });
    },
  },
];
