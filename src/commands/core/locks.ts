/**
 * `@lock` and `@unlock`: an object's locks of every type (the one lock language,
 * src/world/locks.ts; names become dbrefs as the setter sees them, src/commands/lock_names.ts),
 * and MUX's attribute locks (`@lock <object>/<attribute>`). Core commands, as every lock check
 * is core: a game that turns the building plugin off keeps its page, use and enter locks.
 */
import type { CommandSdk, CommandSpec } from "../types.ts";
import type { DbObject } from "../../world/types.ts";
import { LOCK_TYPE_NAMES, lockTypeNamed, putLock } from "../../world/locks.ts";
import { controls } from "../../world/access.ts";
import { CommandError, required } from "../errors.ts";
import { orSay } from "../target.ts";
import { settableLock } from "../lock_names.ts";
import { canonicalAttrName } from "../../world/attributes/names.ts";
import { confirm } from "../confirm.ts";

/** Every name a lock type goes by, as `@lock/<switch>` takes them. */
const LOCK_SWITCHES = Object.values(LOCK_TYPE_NAMES).flat();

/** The lock types, for a refusal that lists them. */
const TYPES = Object.keys(LOCK_TYPE_NAMES).join(", ");

/** What `@lock`/`@unlock`'s left side names: an object's lock of a type, or an attribute. */
type LockTarget = { obj: string; type: string } | { obj: string; attr: string };

/**
 * MUX's switch (`@lock/use obj`); else the part after the last slash: a lock type (`obj/use`,
 * the engine's older form) or an attribute (`obj/finger`, MUX's attribute lock).
 */
function lockTarget(u: CommandSdk, lhs: string): LockTarget {
  const sw = u.cmd.switches[0];
  if (sw) return { obj: lhs, type: lockTypeNamed(sw) ?? sw };
  const m = /^(.+)\/([^/]+)$/.exec(lhs);
  if (!m) return { obj: lhs, type: "basic" };
  const type = lockTypeNamed(m[2]);
  return type ? { obj: m[1].trim(), type } : { obj: m[1].trim(), attr: m[2].trim() };
}

/**
 * Sets or clears an attribute's `locked` flag (MUX's `@lock <object>/<attribute>`): the
 * attribute's owner may, on any object, and staff; the store's attribute rules decide.
 */
async function lockAttribute(u: CommandSdk, objRef: string, raw: string, on: boolean) {
  const name = canonicalAttrName(raw);
  if (!name) throw new CommandError(`No lock type or attribute '${raw}'. Lock types: ${TYPES}.`);
  const obj = on ? await lockable(u, objRef) : await u.target(objRef);
  const there = await u.attributes.get(obj.id, name);
  if (!there) {
    throw new CommandError(
      `Attribute not present on object: ${obj.name} has no ${name}. Lock types: ${TYPES}.`,
    );
  }
  await u.attributes.setFlag(u.me, obj.id, name, "locked", on);
  confirm(u, on ? "Attribute locked." : "Attribute unlocked.", undefined, obj);
}

/** The object `@lock` names, with do_lock's words when nothing matches (MUX's). */
function lockable(u: CommandSdk, ref: string): Promise<DbObject> {
  return orSay(u.target(ref), "I don't see what you want to lock!");
}

/**
 * Throws MUX's refusal unless the actor controls `obj`: do_lock's "You can't lock that!", and
 * do_unlock's (match_controlled's) "Permission denied.".
 */
function mustControl(u: CommandSdk, obj: DbObject, refusal: string): void {
  if (!controls(u.me, obj, u.locks)) throw new CommandError(refusal);
}

/** Stores (or, with null, removes) the lock of `type` on `obj` (the caller checks control). */
async function setLock(u: CommandSdk, obj: DbObject, type: string, key: string | null) {
  const t = lockTypeNamed(type);
  if (!t) throw new CommandError(`Lock types: ${TYPES}.`);
  return await u.objects.update(obj.id, (o) => putLock(o, t, key));
}

/** The lock commands. */
export const commands: CommandSpec[] = [
  {
    name: "@lock",
    // As in MUX, anyone may lock what they control (a player's page lock, say).
    lock: "connected",
    switches: LOCK_SWITCHES,
    category: "building",
    help: `@lock[/<type>] <object>=<key>
@lock <object>/<type>=<key>
@lock <object>/<attribute>

Locks an object: only those who pass the key may use it that way. The types, as in TinyMUX
(each also takes MUX's name, e.g. /uselock, /tportlock):
  basic (default)  who may go through an exit, pick up a thing; a room's @succ or @fail
  enter            who may enter a thing or room (a room with one is private in scenes)
  leave            who may leave a thing         use      who may use its $-commands
  page             who may page a player         mail     who may @mail a player
  give             who may give the object away  receive  what a player may be given
  drop             who may drop the object       parent   who may @parent to it (parent_ok)
  teleport         who may @teleport into it when it is jump_ok
  telout           who may @teleport out of it
  link             who may link an exit or a home to it
  open             who may @open exits in it when it is open_ok
  speech           who may speak in it when it is auditorium
  getfrom          who may take things out of it
  visible          who is shown it in the contents and exits of a place
  user             nobody's business but softcode's (elock())

Keys (see 'help locks'):
  <object>          is or carries it: me, here, *player, a name, #dbref
  =<object>         is it               +<object>   carries it
  $<object>         has its owner       @<object>[/<type>]   passes its lock
  <attr>:<pattern>  the attribute matches (wildcards; =attr: only the actor, +attr: what it carries)
  <attr>/<value>    the object's attribute, evaluated with you as %#, gives the value
  builder, dark...  has the flag;  builder+  at least a builder;  connected
Combine with & (and), | (or), ! (not) and ( ). Names become dbrefs when the lock is set.

@lock <object>/<attribute> (no key) locks an attribute, as in MUX: nobody may change or
remove it until it is unlocked (staff excepted), and it stays yours through @chown. Its owner
may lock it on any object. @unlock <object>/<attribute> unlocks it. (An attribute named like a
lock type, such as LEAVE, is locked with @set <object>/leave=locked.)

Examples:
  @lock north=builder+
  @lock/use bbpocket=me
  @lock here/enter=#12|admin
  @lock vault=+Gold Key & !$*Mallory
  @lock me/finger`,
    async exec(u) {
      const usage = "@lock[/<type>] <object>=<key>, or @lock <object>/<attribute>";
      const lhs = required(u.cmd.rhs === null ? u.cmd.args : u.cmd.lhs, usage);
      const target = lockTarget(u, lhs);
      // MUX locks the attribute whatever follows `=`.
      if ("attr" in target) return await lockAttribute(u, target.obj, target.attr, true);
      if (u.cmd.rhs === null) throw new CommandError(`Usage: ${usage}`);
      if (!lockTypeNamed(target.type)) throw new CommandError(`Lock types: ${TYPES}.`);
      const obj = await lockable(u, target.obj);
      // As MUX, control is asked before the key is read.
      mustControl(u, obj, "You can't lock that!");
      const key = await settableLock(u, required(u.cmd.rhs, usage));
      const t = lockTypeNamed(target.type)!;
      const done = await setLock(u, obj, t, key);
      // MUX's words (do_lock); examine shows the key as stored.
      confirm(u, "Locked.", { type: "lock", id: done.id, lock: t, key: done.data.locks?.[t] }, obj);
    },
  },
  {
    name: "@unlock",
    lock: "connected",
    switches: LOCK_SWITCHES,
    category: "building",
    help: `@unlock[/<type>] <object>      removes a lock (default type: basic)
@unlock <object>/<type>        the same
@unlock <object>/<attribute>   unlocks an attribute locked with @lock <object>/<attribute>`,
    async exec(u) {
      const target = lockTarget(u, required(u.cmd.args, "@unlock[/<type>] <object>"));
      if ("attr" in target) return await lockAttribute(u, target.obj, target.attr, false);
      const obj = await u.target(target.obj);
      mustControl(u, obj, "Permission denied.");
      await setLock(u, obj, target.type, null);
      // MUX's words (do_unlock).
      confirm(u, "Unlocked.", undefined, obj);
    },
  },
];
