/**
 * The attribute commands, as TinyMUX 2.12 has them: `&`, `@wipe`, `@cpattr`, `@mvattr` and
 * `@edit`; `@set`'s attribute forms live here too (admin.ts hands them over), and `examine`
 * lists attributes with `attributeLines`. Every rule (names, limits, permissions, the quota) is
 * the attribute store's (src/world/attributes), so a refusal reads the same from a command, REST
 * and softcode. docs/softcode.md describes them.
 */
import type { CommandSdk, CommandSpec } from "../types.ts";
import type { DbObject } from "../../world/types.ts";
import type { Attribute } from "../../world/attributes/types.ts";
import { attrFlagLetters, attrFlagNamed } from "../../world/attributes/flags.ts";
import { attrPattern, BAD_NAME, canonicalAttrName } from "../../world/attributes/names.ts";
import { canSeeAttr } from "../../world/attributes/access.ts";
import { wrapText } from "../../text/colour.ts";
import { CommandError } from "../errors.ts";
import { EngineError } from "../../errors.ts";
import { quote } from "../target.ts";
import { wipedSaid } from "../format.ts";
import { counted } from "../../text/plural.ts";
import { confirm } from "../confirm.ts";

/** Most destinations one `@cpattr` or `@mvattr` writes. */
const MAX_COPIES = 50;

/** `<object>/<attribute>` split at the first `/` (MUX's rule), or the object alone. */
export function splitObjAttr(ref: string): { obj: string; attr: string | null } {
  const i = ref.indexOf("/");
  return i === -1
    ? { obj: ref.trim(), attr: null }
    : { obj: ref.slice(0, i).trim(), attr: ref.slice(i + 1).trim() };
}

function attrNameOrFail(raw: string): string {
  const name = canonicalAttrName(raw);
  if (!name) throw new CommandError(BAD_NAME);
  return name;
}

/** The attribute `name` of `obj` that the actor may read, or a CommandError. */
async function readable(u: CommandSdk, obj: DbObject, name: string): Promise<Attribute> {
  const a = await u.attributes.get(obj.id, name);
  if (!a || !canSeeAttr(u.me, obj, a, u.locks)) {
    throw new CommandError(`${obj.name} has no attribute ${name} you can see.`);
  }
  return a;
}

/** `@set <obj>=<ATTR>:<value>`: sets (or with nothing after the colon, clears) an attribute. */
export async function setAttributeForm(u: CommandSdk, objRef: string, rhs: string): Promise<void> {
  const colon = rhs.indexOf(":");
  const name = attrNameOrFail(rhs.slice(0, colon));
  const obj = await u.target(objRef);
  await u.attributes.set(u.me, obj.id, name, rhs.slice(colon + 1));
  confirm(u, "Set.", undefined, obj);
}

/** `@set <obj>/<ATTR>=[!]<flag>`: sets or clears a flag of an attribute. */
export async function setAttributeFlagForm(
  u: CommandSdk,
  objRef: string,
  attrRef: string,
  rhs: string,
): Promise<void> {
  const clear = rhs.trim().startsWith("!");
  const word = rhs.trim().replace(/^!\s*/, "");
  const name = attrNameOrFail(attrRef);
  const obj = await u.target(objRef);
  // MUX's words (do_set): one flag a line, asked after the object is found.
  if (!word) throw new CommandError("I don't know what you want to set!");
  const flag = attrFlagNamed(word);
  if (!flag) throw new CommandError("You can't set that!");
  await u.attributes.setFlag(u.me, obj.id, name, flag, !clear);
  confirm(u, clear ? "Cleared." : "Set.", undefined, obj);
}

/** `NAME [#owner FLAGS]: value`, MUX's examine line (the owner only when not the object's). */
export function attributeLine(obj: DbObject, a: Attribute, width: number): string {
  const owner = a.owner !== (obj.owner || obj.id) ? `#${a.owner}` : "";
  const marks = owner + attrFlagLetters(a.flags);
  const head = marks ? `${a.name} [${marks}]` : a.name;
  // Shown as stored: colour codes and %-substitutions stay visible as typed.
  return wrapText(`%ch${head}:%cn ${a.value.replaceAll("%", "%%")}`, width);
}

/** The data a client gets for an attribute. */
export function attributeData(a: Attribute) {
  return { name: a.name, value: a.value, owner: a.owner, flags: [...a.flags] };
}

/** The commands. */
export const commands: CommandSpec[] = [
  {
    name: "&",
    category: "Softcode",
    help: `&<attribute> <object>=<value>
&<attribute> <object>

Sets an attribute on an object you control (the second form, or an empty value, clears it).
Names are upper-cased: a letter (or _ ~ # .) then up to 63 letters, digits and punctuation.
Values are at most 8,000 characters. DESC is the object's description (as @describe sets it).
Your attributes count against your quota of attribute bytes. See 'help examine', '@set'.

Examples:
  &finger me=Tall, dark, mysterious.
  &cmd_count here=0
  &finger me`,
    async exec(u) {
      const args = u.cmd.args;
      const space = args.search(/\s/);
      if (space <= 0) throw new CommandError("Usage: &<attribute> <object>=<value>");
      const name = attrNameOrFail(args.slice(0, space));
      const rest = args.slice(space + 1);
      const eq = rest.indexOf("=");
      const objRef = (eq === -1 ? rest : rest.slice(0, eq)).trim();
      if (!objRef) throw new CommandError("Usage: &<attribute> <object>=<value>");
      const value = eq === -1 ? "" : rest.slice(eq + 1).trim();
      const obj = await u.target(objRef);
      await u.attributes.set(u.me, obj.id, name, value);
      confirm(u, "Set.", { type: "attribute", id: obj.id, name, set: value !== "" }, obj);
    },
  },
  {
    name: "@wipe",
    category: "Softcode",
    help: `@wipe <object>[/<pattern>]

Clears every attribute of an object you control that matches the wildcard pattern (* and ?),
or all of them. Attributes you may not change (locked, wizard) are left, and said so.

Examples:
  @wipe box/temp_*
  @wipe box`,
    async exec(u) {
      const { obj: ref, attr } = splitObjAttr(u.cmd.args);
      if (!ref) throw new CommandError("Usage: @wipe <object>[/<pattern>]");
      const obj = await u.target(ref);
      // The store's rules (control, the pattern), which wipe() shares.
      const r = await u.attributes.wipe(u.me, obj, attr ?? "*");
      if ("kind" in r) throw new CommandError(r.message);
      const said = wipedSaid(r);
      // Only a whole wipe is a confirmation (a quiet actor is spared it); the rest are news.
      if (said === "Wiped.") confirm(u, said);
      else u.send(said);
    },
  },
  {
    name: "@cpattr",
    category: "Softcode",
    help: `@cpattr <object>/<attribute>=<object1>[/<attribute1>][,<object2>[/<attribute2>]...]
@cpattr <attribute>=<object1>[/<attribute1>][,...]

Copies an attribute's value to other objects (under the same name, or the one given). The
second form copies one of your own. Each copy is a set: you must control the destination.

Examples:
  @cpattr box/desc_short=crate,barrel/desc_short
  @cpattr finger=#12/finger`,
    async exec(u) {
      if (u.cmd.rhs === null || !u.cmd.lhs) {
        throw new CommandError("Usage: @cpattr <object>/<attribute>=<object>[/<attribute>],...");
      }
      const src = splitObjAttr(u.cmd.lhs);
      const [fromRef, fromName] = src.attr === null ? ["me", src.obj] : [src.obj, src.attr];
      const from = await u.target(fromRef);
      const source = await readable(u, from, attrNameOrFail(fromName));
      const targets = u.cmd.rhs.split(",").map((t) => t.trim()).filter(Boolean);
      if (!targets.length) throw new CommandError("Copy it where?");
      if (targets.length > MAX_COPIES) {
        throw new CommandError(`At most ${MAX_COPIES} destinations at once.`);
      }
      const lines: string[] = [];
      for (const t of targets) {
        const dest = splitObjAttr(t);
        try {
          const obj = await u.target(dest.obj);
          const name = dest.attr ? attrNameOrFail(dest.attr) : source.name;
          await u.attributes.set(u.me, obj.id, name, source.value);
          lines.push(`${obj.name}/${name}: Set.`);
        } catch (e) {
          lines.push(`${quote(t)}: ${(e as Error).message}`);
        }
      }
      u.send(lines.join("\n"));
    },
  },
  {
    name: "@mvattr",
    category: "Softcode",
    help: `@mvattr <object>=<old>,<new>[,<copy1>...]

Renames an attribute of an object you control (and copies it to each further name), flags
and all. When the old attribute may not be removed (locked, or a wizard attribute), it is
copied and kept.

Example:
  @mvattr box=desc_old,desc_short`,
    async exec(u) {
      const names = (u.cmd.rhs ?? "").split(",").map((n) => n.trim()).filter(Boolean);
      if (!u.cmd.lhs || names.length < 2) {
        throw new CommandError("Usage: @mvattr <object>=<old>,<new>[,<copy>...]");
      }
      if (names.length > MAX_COPIES + 1) {
        throw new CommandError(`At most ${MAX_COPIES} new names at once.`);
      }
      const obj = await u.target(u.cmd.lhs);
      const [oldName, ...newNames] = names.map(attrNameOrFail);
      const source = await readable(u, obj, oldName);
      const lines: string[] = [];
      let copied = 0;
      for (const name of newNames) {
        if (name === oldName) continue;
        try {
          await u.attributes.set(u.me, obj.id, name, source.value);
          lines.push(`${name}: Set.`);
          copied++;
        } catch (e) {
          lines.push(`${name}: ${(e as Error).message}`);
          continue;
        }
        // A move keeps the attribute's flags (MUX's does): a visual one stays readable, a
        // no_command one stays out of $-commands. Those the actor may not set are left off.
        for (const flag of source.flags) {
          await u.attributes.setFlag(u.me, obj.id, name, flag, true).catch((e) => {
            if (!(e instanceof EngineError)) throw e;
          });
        }
      }
      if (!lines.length) lines.push(`${oldName}: Not copied anywhere. Not cleared.`);
      if (copied) {
        try {
          await u.attributes.set(u.me, obj.id, oldName, "");
          lines.push(`${oldName}: Cleared.`);
        } catch (e) {
          lines.push(`${oldName}: kept (${(e as Error).message})`);
        }
      }
      u.send(lines.join("\n"));
    },
  },
  {
    name: "@edit",
    category: "Softcode",
    help: `@edit <object>/<pattern>=<search>,<replace>
@edit <object>/<pattern>=^,<text>
@edit <object>/<pattern>=$,<text>

Replaces every <search> with <replace> in the attributes matching the pattern (* and ?). ^
puts <text> in front, $ after. Put { } around <search> or <replace> to include commas.

Examples:
  @edit me/finger=dark,light
  @edit box/desc=$, It smells of cedar.
  @edit me/note={a, b},{c, d}`,
    async exec(u) {
      const { obj: ref, attr } = splitObjAttr(u.cmd.lhs);
      if (!ref || !attr || u.cmd.rhs === null) {
        throw new CommandError("Usage: @edit <object>/<pattern>=<search>,<replace>");
      }
      const parts = splitEdit(u.cmd.args.slice(u.cmd.args.indexOf("=") + 1));
      if (!parts) throw new CommandError("Usage: @edit <object>/<pattern>=<search>,<replace>");
      const [search, replace] = parts;
      if (!search) throw new CommandError("What should be replaced? (^ or $ to add text)");
      if (!attrPattern(attr)) throw new CommandError("That pattern is too long.");
      const obj = await u.target(ref);
      const found = await u.attributes.visible(u.me, obj, attr);
      if (!found.length) return u.send("No matching attributes.");
      const lines: string[] = [];
      for (const a of found) {
        const value = search === "^"
          ? replace + a.value
          : search === "$"
          ? a.value + replace
          : a.value.replaceAll(search, replace);
        try {
          if (value !== a.value) await u.attributes.set(u.me, obj.id, a.name, value);
          lines.push(`Set - ${a.name}: ${value.replaceAll("%", "%%")}`);
        } catch (e) {
          lines.push(`${a.name}: ${(e as Error).message}`);
        }
      }
      u.send(lines.join("\n"));
    },
  },
];

/**
 * `<search>,<replace>` split at the first comma outside braces, each part's outer braces
 * taken off (MUX's `@edit` arguments); null when there is no comma. Linear, never throws.
 */
export function splitEdit(text: string): [string, string] | null {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "{") depth++;
    else if (c === "}" && depth > 0) depth--;
    else if (c === "," && depth === 0) {
      return [unbrace(text.slice(0, i).trim()), unbrace(text.slice(i + 1).trim())];
    }
  }
  return null;
}

function unbrace(s: string): string {
  return s.length >= 2 && s.startsWith("{") && s.endsWith("}") ? s.slice(1, -1) : s;
}

/**
 * Characters of attribute lines (names and values) one `examine` shows: an object may hold
 * megabytes, or thousands of tiny attributes whose names alone came to 700 KB.
 */
const MAX_EXAMINE_CHARS = 64_000;

/**
 * Lines of `examine` for the attributes `viewer` may see (field ones left to the record), up to
 * MAX_EXAMINE_CHARS of lines; a last line says how many more a pattern would show.
 */
export async function attributeLines(
  u: CommandSdk,
  obj: DbObject,
  width: number,
  pattern?: string,
): Promise<{ lines: string[]; shown: Attribute[] }> {
  const all = await u.attributes.visible(u.me, obj, pattern);
  const listed = pattern === undefined ? all.filter((a) => !FIELD_SHOWN.has(a.name)) : all;
  const shown: Attribute[] = [];
  const lines: string[] = [];
  let chars = 0;
  for (const a of listed) {
    const line = attributeLine(obj, a, width);
    if (shown.length && chars + line.length > MAX_EXAMINE_CHARS) break;
    chars += line.length;
    shown.push(a);
    lines.push(line);
  }
  const more = listed.length - shown.length;
  if (more) {
    lines.push(
      `(${counted(more, "more attribute")} not shown: examine ${
        obj.flags.includes("player") ? "*" + obj.name : "#" + obj.id
      }/<pattern> shows them by name, from ${listed[shown.length].name} on.)`,
    );
  }
  return { lines, shown };
}

/** Kept in the record's own lines of a full `examine` (Description, and the data fields). */
const FIELD_SHOWN = new Set(["DESC", "ALIAS", "MONIKER"]);
