/**
 * Copying objects, as TinyMUX 2.12 has it: `@clone` makes a near duplicate you own, and
 * `@decompile` prints the commands that would recreate an object (its attributes with their
 * flags, its flags, locks and parent). docs/softcode.md ("Copying objects") describes both.
 */
import type { CommandSdk, CommandSpec } from "../types.ts";
import type { DbObject, NewObject } from "../../world/types.ts";
import type { Attribute } from "../../world/attributes/types.ts";
import { controls } from "../../world/access.ts";
import { examines, ownerOf } from "../../world/control.ts";
import {
  BUILDER_LOCK,
  checkExit,
  checkName,
  parseExitSpec,
  quotaGate,
} from "../../world/building.ts";
import { FLAG_LEVELS_TABLE } from "../../world/flag_levels.ts";
import { GUEST_FLAG } from "../../world/flags.ts";
import { lockOf } from "../../world/locks.ts";
import { OBJECT_TYPES } from "../../world/types.ts";
import { parentOf } from "../../world/parents.ts";
import { FIELD_ATTRIBUTES } from "../../world/attributes/fields.ts";
import { ATTR_FLAGS } from "../../world/attributes/flags.ts";
import { typeOf } from "../../world/objects.ts";
import { stripColour } from "../../text/colour.ts";
import { CommandError } from "../errors.ts";
import { EngineError } from "../../errors.ts";
import { splitObjAttr } from "./attributes.ts";

/** Most attributes one `@clone` copies or one `@decompile` prints. */
const MAX_ATTRS = 2000;
/** What `@decompile/tf` puts before each line when the actor has no TFPREFIX attribute. */
const TF_PREFIX = "FugueEdit > ";

/** Flags a copy never takes (MUX's stripped_flags): permissions, types, being a guest. */
function stripped(flag: string, keepInherit: boolean): boolean {
  const f = flag.toLowerCase();
  return Object.hasOwn(FLAG_LEVELS_TABLE, f) || (OBJECT_TYPES as readonly string[]).includes(f) ||
    f === GUEST_FLAG || f === "connected" || (f === "inherit" && !keepInherit);
}

/** The actor may copy or decompile `obj`: controls it, or it is visual (MUX's Examinable). */
function examinable(u: CommandSdk, obj: DbObject): boolean {
  return examines(u.me, obj, u.locks) || obj.flags.includes("visual");
}

/** The attributes of `obj` the actor may read, other than the ones kept in object fields. */
async function copyable(u: CommandSdk, obj: DbObject, pattern?: string): Promise<Attribute[]> {
  const all = await u.attributes.visible(u.me, obj, pattern);
  return all.slice(0, MAX_ATTRS);
}

/** The record of the clone: a thing (here or carried), a room, or an exit in the actor's room. */
function cloneRecord(
  u: CommandSdk,
  obj: DbObject,
  name: string,
  inventory: boolean,
  keepInherit: boolean,
): NewObject {
  const type = typeOf(obj);
  const flags = obj.flags.filter((f) => !stripped(f, keepInherit));
  const { parent: _p, home: _h, destination, aliases, locks, description, ...rest } = obj.data;
  const data: NewObject["data"] = {
    ...(description ? { description } : {}),
    ...(locks ? { locks: { ...locks } } : {}),
    ...(Array.isArray(aliases) && type !== "player" ? { aliases: [...aliases] } : {}),
    ...(rest.moniker ? { moniker: rest.moniker } : {}),
  };
  if (type === "room") return { name, type, owner: ownerOf(u.me), flags, data };
  if (type === "exit") {
    if (!u.here) throw new CommandError("You are not in a room.");
    if (!controls(u.me, u.here, u.locks)) {
      throw new CommandError("You can only clone exits into a room you control.");
    }
    const to = typeof destination === "string" && destination ? { destination } : {};
    return {
      name,
      type,
      location: u.here.id,
      owner: ownerOf(u.me),
      flags,
      data: { ...data, ...to },
    };
  }
  const location = inventory || !u.here ? u.me.id : u.here.id;
  const home = u.me.location ? { home: u.me.location } : {};
  return { name, type: "thing", location, owner: ownerOf(u.me), flags, data: { ...data, ...home } };
}

/** `@clone`. */
async function clone(u: CommandSdk): Promise<void> {
  const sw = u.cmd.switches;
  const usage = "@clone[/<switches>] <object>[=<new name>]";
  const ref = (u.cmd.rhs === null ? u.cmd.args : u.cmd.lhs).trim();
  if (!ref) throw new CommandError(`Usage: ${usage}`);
  const obj = await u.target(ref);
  if (!examinable(u, obj)) throw new CommandError("Permission denied.");
  if (obj.flags.includes("player")) throw new CommandError("You cannot clone players!");
  const rhs = (u.cmd.rhs ?? "").trim();
  // MUX: with /cost, what follows = is a cost (no coins here: accepted, no effect).
  const newName = sw.includes("cost") || !rhs ? obj.name : rhs;
  const name = typeOf(obj) === "exit" ? newName : checkName(newName, "Name");
  const record = cloneRecord(u, obj, name, sw.includes("inventory"), sw.includes("inherit"));
  if (record.type === "exit") {
    const spec = parseExitSpec(record.name);
    const there = await u.objects.contentsOfType(u.here!.id, "exit", 1000);
    checkExit(
      u.me,
      u.here!,
      spec,
      there,
      (room) => u.passes(lockOf(room, "open"), room.id),
      u.locks,
    );
    record.name = spec.name;
    if (spec.aliases.length) record.data = { ...record.data, aliases: spec.aliases };
  }
  const quota = u.engine.config.value.game.objectQuota;
  const owner = await u.objects.get(ownerOf(u.me));
  // The original's own attributes, read before the copy exists; LOCKED ones stay (MUX).
  const attrs = sw.includes("parent")
    ? []
    : (await copyable(u, obj)).filter((a) =>
      !FIELD_ATTRIBUTES.has(a.name) && !a.flags.includes("locked")
    );
  const parent = sw.includes("parent") ? obj.id : parentOf(obj);
  if (parent) record.data = { ...record.data, parent };
  // Counted and made in one step of the store's, with every other creator's.
  const made = await u.objects.createOwned(record, quotaGate(u.me, quota, owner));
  let skipped = 0;
  for (const a of attrs) {
    try {
      await u.attributes.set(u.me, made.id, a.name, a.value);
      for (const f of a.flags) await u.attributes.setFlag(u.me, made.id, a.name, f, true);
    } catch (e) {
      // A flag only staff set (wizard), or the cloner's quota: the rest still copies.
      if (!(e instanceof EngineError)) throw e;
      skipped++;
    }
  }
  // MUX: a copy of another's object is halted, so its code does not run until its new owner
  // has looked at it.
  if (!controls(u.me, obj, u.locks) && !made.flags.includes("halt")) {
    await u.objects.update(made.id, (o) => {
      o.flags = [...o.flags, "halt"];
    });
  }
  const note = skipped ? ` ${skipped} attribute(s) could not be copied as they were.` : "";
  // MUX's words (do_clone): the new name only when it differs.
  const as = made.name === obj.name ? "" : ` as ${made.name}`;
  u.send(`${obj.name} cloned${as}, new copy is object #${made.id}.${note}`, {
    type: "clone",
    from: { id: obj.id, name: obj.name },
    thing: { id: made.id, name: made.name },
  });
}

/** The name `@decompile`'s lines use for `obj`: `me`, a new name, `#dbref`, or its short name. */
function decompileName(u: CommandSdk, obj: DbObject, newName: string, byDbref: boolean): string {
  if (newName) return newName;
  if (byDbref) return `#${obj.id}`;
  if (obj.id === u.me.id) return "me";
  return stripColour(obj.name).split(";")[0];
}

/** The lines that recreate `obj`, in MUX's order. */
async function decompileLines(
  u: CommandSdk,
  obj: DbObject,
  pattern: string | null,
  newName: string,
  byDbref: boolean,
): Promise<string[]> {
  const name = decompileName(u, obj, newName, byDbref);
  const lines: string[] = [];
  const whole = pattern === null;
  if (whole && !newName && !byDbref) {
    const type = typeOf(obj);
    if (type === "thing") lines.push(`@create ${obj.name}`);
    if (type === "room") lines.push(`@dig/teleport ${obj.name}`);
    if (type === "exit") {
      const aliases = Array.isArray(obj.data.aliases) ? obj.data.aliases : [];
      lines.push(`@open ${[obj.name, ...aliases].join(";")}`);
      const dest = obj.data.destination;
      if (typeof dest === "string" && dest) lines.push(`@@ @link ${name}=#${dest}`);
    }
  }
  if (whole) {
    const locks = obj.data.locks ?? {};
    if (locks.basic) lines.push(`@lock ${name}=${locks.basic}`);
    for (const [type, key] of Object.entries(locks).sort(([a], [b]) => a.localeCompare(b))) {
      if (type !== "basic" && key) lines.push(`@lock/${type} ${name}=${key}`);
    }
  }
  const attrs = await copyable(u, obj, pattern ?? undefined);
  for (const a of [...attrs].sort((x, y) => x.name.localeCompare(y.name))) {
    if (a.name === "DESC") lines.push(`@describe ${name}=${a.value}`);
    else if (a.name === "ALIAS") lines.push(`@alias ${name}=${a.value}`);
    else if (a.name === "MONIKER") lines.push(`@moniker ${name}=${a.value}`);
    else lines.push(`&${a.name} ${name}=${a.value}`);
    if (FIELD_ATTRIBUTES.has(a.name)) continue;
    for (const f of ATTR_FLAGS) if (a.flags.includes(f)) lines.push(`@set ${name}/${a.name}=${f}`);
  }
  if (whole) {
    for (const f of obj.flags) if (!stripped(f, true)) lines.push(`@set ${name}=${f}`);
    const parent = parentOf(obj);
    if (parent) lines.push(`@parent ${name}=#${parent}`);
  }
  return lines;
}

/** `@decompile`. */
async function decompile(u: CommandSdk): Promise<void> {
  const usage = "@decompile[/dbref|/tf] <object>[/<attribute pattern>][=<new name>]";
  const lhs = (u.cmd.rhs === null ? u.cmd.args : u.cmd.lhs).trim();
  if (!lhs) throw new CommandError(`Usage: ${usage}`);
  const { obj: ref, attr } = splitObjAttr(lhs);
  const obj = await u.target(ref);
  if (!examinable(u, obj)) {
    throw new CommandError("You can only decompile things you can examine.");
  }
  const lines = await decompileLines(
    u,
    obj,
    attr,
    (u.cmd.rhs ?? "").trim(),
    u.cmd.switches.includes("dbref"),
  );
  if (u.cmd.switches.includes("tf")) {
    // TinyFugue's /grab puts a line in the input buffer to edit: each line carries the prefix.
    const own = await u.attributes.get(u.me.id, "TFPREFIX");
    const prefix = own?.value ?? TF_PREFIX;
    return u.send(lines.map((l) => prefix + l).join("\n"), { type: "decompile", lines });
  }
  u.send(lines.join("\n") || `Nothing to decompile on ${obj.name}.`, { type: "decompile", lines });
}

/** The object-copying family. */
export const commands: CommandSpec[] = [
  {
    name: "@clone",
    lock: BUILDER_LOCK,
    switches: ["inventory", "location", "parent", "cost", "inherit"],
    category: "Building",
    help: `@clone[/<switches>] <object>[=<new name>]

Makes a near copy of a thing, room or exit you control (or a visual one of another's), owned by
you: its name (or the new one), description, flags, locks, parent and the attributes you can read
(not locked ones). A thing goes in your room (or your hands with /inventory); an exit in your
room (you must control it); a room stands alone. Permission flags and inherit are not copied
(/inherit keeps inherit). A copy of another's object is set halt. Players cannot be cloned.

Switches:
  /inventory  put the copy in your hands       /location  in your room (the default)
  /parent     make the original the copy's parent instead of copying its attributes
  /cost       what follows = is a cost (there are no coins: no effect)
  /inherit    keep the inherit flag

Example:
  @clone Red Sword=Blue Sword`,
    exec: clone,
  },
  {
    name: "@decompile",
    switches: ["dbref", "tf"],
    category: "Building",
    help: `@decompile[/dbref|/tf] <object>[/<attribute pattern>][=<new name>]

Prints the commands that would recreate an object you can examine: how to make it (@create,
@dig/teleport, @open), its locks, its attributes with their flags, its flags and its parent, in
TinyMUX's format. With a new name the commands set everything on an object of that name and
the command making it is left out; with /dbref they name it by #dbref. With an attribute pattern
only those attributes are printed. /tf puts your TFPREFIX attribute (or "FugueEdit > ") before
each line, for TinyFugue's /grab.

Example:
  @decompile Red Sword`,
    exec: decompile,
  },
];
