/**
 * `examine`: the full record for whoever controls an object, the public part for others; `@find`:
 * what the actor controls, by name; `@entrances`: what leads to an object.
 */
import type { CommandSpec } from "../types.ts";
import type { DbObject } from "../../world/types.ts";
import { canSee } from "../../world/access.ts";
import { controls, examines, ownerOf } from "../../world/control.ts";
import { isStaff } from "../../world/flags.ts";
import { visibleContents } from "../../world/visibility.ts";
import { typeOf } from "../../world/objects.ts";
import { wrapText } from "../../text/colour.ts";
import { CommandError } from "../errors.ts";
import { clampWidth, fullNameFor, listed, nameFor } from "../format.ts";
import { NOT_HERE } from "../target.ts";
import { MAX_FOUND, MAX_SEARCHED } from "../limits.ts";
import { attributeData, attributeLines, splitObjAttr } from "./attributes.ts";
import { counted } from "../../text/plural.ts";

/** Longest data value shown on one line. */
const MAX_VALUE = 200;
/** Most contents and exits listed. */
const MAX_LISTED = 100;

/** True when `name`, or a word of it, starts with `want` (MUX's string_match); "" matches all. */
function nameStarts(name: string, want: string): boolean {
  const lower = name.toLowerCase();
  return !want || lower.startsWith(want) || lower.split(/\s+/).some((w) => w.startsWith(want));
}

function ref(viewer: DbObject, o: DbObject | null, id: string): string {
  return o ? nameFor(viewer, o) : id ? `#${id} (gone)` : "nowhere";
}

function shortJson(v: unknown): string {
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  return s.length > MAX_VALUE ? `${s.slice(0, MAX_VALUE)}...` : s;
}

/** The examine family. */
export const commands: CommandSpec[] = [
  {
    name: "examine",
    aliases: ["ex"],
    guests: true,
    category: "Information",
    help: `examine <target>[/<pattern>]   (or ex)

Shows an object in detail. Owners and staff see its type, flags, owner, location, data
and attributes; others see its name, owner, description and the attributes they may see
(visual ones, and their own). With /<pattern> (wildcards * and ?), only the matching
attributes. Each is shown as NAME [#owner flags]: value, the owner only when it is not the
object's, the flags by letter (+ locked, $ no_command, M hidden, V visual, W wizard, ...).

Examples:
  examine me
  ex #12
  ex me/finger*`,
    async exec(u) {
      const { obj: named, attr: pattern } = splitObjAttr(u.cmd.args);
      const obj = await u.target(named || "here");
      if (!(await canSee(u.objects, u.me, obj, u.locks))) throw new CommandError(NOT_HERE);
      const w = clampWidth(u.width);
      if (pattern !== null) {
        const { lines, shown } = await attributeLines(u, obj, w, pattern || "*");
        return u.send(lines.length ? lines.join("\n") : "No matching attributes found.", {
          type: "examine",
          id: obj.id,
          name: obj.name,
          attributes: shown.map(attributeData),
        });
      }
      const attrs = await attributeLines(u, obj, w);
      const owner = obj.owner ? await u.objects.get(obj.owner) : null;
      const desc = obj.data.description ?? "";
      const lines = [`%ch${fullNameFor(u.me, obj)}%cn`];
      // MUX's Examinable: a visual object shows everything to everyone, as its owner sees it.
      const full = examines(u.me, obj, u.locks) || obj.flags.includes("visual");
      if (!full) {
        lines.push(`Owner: ${owner ? owner.name : "nobody"}`);
        lines.push(desc ? wrapText(desc, w) : "You see nothing special.");
        lines.push(...attrs.lines);
        return u.send(lines.join("\n"), {
          type: "examine",
          id: obj.id,
          name: obj.name,
          owner: owner ? { id: owner.id, name: owner.name } : null,
          description: desc,
          attributes: attrs.shown.map(attributeData),
        });
      }
      const location = obj.location ? await u.objects.get(obj.location) : null;
      lines.push(`Type: ${typeOf(obj)}   Flags: ${obj.flags.join(" ") || "none"}`);
      lines.push(
        `Owner: ${ref(u.me, owner, obj.owner)}   Location: ${ref(u.me, location, obj.location)}`,
      );
      const { description: _d, parent: parentId, ...rest } = obj.data;
      if (typeof parentId === "string" && parentId) {
        const parent = await u.objects.get(parentId);
        lines.push(`Parent: ${ref(u.me, parent, parentId)}`);
      }
      lines.push(desc ? `Description:\n${wrapText(desc, w)}` : "Description: (none)");
      for (const [k, v] of Object.entries(rest).sort(([a], [b]) => a.localeCompare(b))) {
        if (v === undefined) continue;
        lines.push(
          wrapText(
            `%ch${k}:%cn ${typeof v === "string" ? v.slice(0, MAX_VALUE) : shortJson(v)}`,
            w,
          ),
        );
      }
      lines.push(...attrs.lines);
      const [things, exits, players] = await Promise.all([
        u.objects.contentsOfType(obj.id, "thing", MAX_LISTED),
        u.objects.contentsOfType(obj.id, "exit", MAX_LISTED),
        u.objects.contentsOfType(obj.id, "player", MAX_LISTED),
      ]);
      // Controlling the object, the viewer sees inside it; only what is hidden from it is left out.
      const contents = visibleContents(u.me, obj, [...players, ...things], u.locks);
      const exitsShown = visibleContents(u.me, obj, exits, u.locks);
      // MUX's do_examine: one a line, and "No exits." for whatever may have exits.
      if (contents.length) {
        lines.push(listed("Contents:", contents.map((o) => nameFor(u.me, o))));
      }
      if (exitsShown.length) {
        lines.push(listed("Exits:", exitsShown.map((o) => fullNameFor(u.me, o))));
      } else if (!obj.flags.includes("exit")) lines.push("No exits.");
      lines.push(
        `Created: ${new Date(obj.createdAt).toISOString()}   Modified: ${
          new Date(obj.updatedAt).toISOString()
        }`,
      );
      u.send(lines.join("\n"), {
        type: "examine",
        id: obj.id,
        name: obj.name,
        flags: [...obj.flags],
        owner: owner ? { id: owner.id, name: owner.name } : null,
        location: obj.location,
        description: desc,
        data: rest,
        parent: typeof parentId === "string" && parentId ? parentId : null,
        attributes: attrs.shown.map(attributeData),
        contents: contents.map((o) => ({ id: o.id, name: o.name })),
        exits: exitsShown.map((o) => ({ id: o.id, name: o.name })),
      });
    },
  },
  {
    name: "@find",
    category: "Building",
    help: `@find [<name>]

Lists the rooms, things and players you control whose name, or a word of it, starts with
<name> (or all of them), each with its dbref, as TinyMUX does; exits are left out. Staff
find among every room, thing and player, looking through at most ${MAX_SEARCHED} of each kind
(the reply says when there were more; @search narrows by owner, type or dbref range). At most
${MAX_FOUND} are listed: give a name to narrow the list.

Example:
  @find rake`,
    async exec(u) {
      const want = u.cmd.args.trim().toLowerCase();
      if (want.length > 200) throw new CommandError("That name is too long.");
      // What the actor controls: its owner's objects, or for staff every room, thing and player.
      // One more than the cap is asked, to know when there were more.
      const lists = isStaff(u.me.flags)
        ? await Promise.all(
          ["room", "thing", "player"].map((f) => u.objects.idsWithFlag(f, MAX_SEARCHED + 1)),
        )
        : [[u.me.id], await u.objects.idsOwnedBy(ownerOf(u.me), MAX_SEARCHED + 1)];
      const more = lists.some((l) => l.length > MAX_SEARCHED);
      const ids = lists.flatMap((l) => l.slice(0, MAX_SEARCHED));
      const unique = [...new Set(ids)].sort((a, b) => Number(a) - Number(b));
      const found = (await u.objects.getMany(unique)).filter((o) =>
        !o.flags.includes("exit") && controls(u.me, o, u.locks) && nameStarts(o.name, want)
      );
      const lines = found.slice(0, MAX_FOUND).map((o) => nameFor(u.me, o));
      if (found.length > MAX_FOUND) lines.push(`... and ${found.length - MAX_FOUND} more.`);
      if (more) {
        lines.push(`(Only the first ${MAX_SEARCHED} objects of each kind were looked through.)`);
      }
      lines.push("***End of List***");
      u.send(lines.join("\n"), {
        type: "find",
        found: found.slice(0, MAX_FOUND).map((o) => ({ id: o.id, name: o.name })),
      });
    },
  },
  {
    name: "@entrances",
    category: "Building",
    help: `@entrances [<object>]

Lists what leads to a room or object (where you are, without one), as TinyMUX does: each exit
that leads there, after the room it is in, and each object whose parent it is. For what you
control (staff: anything) you see them all, else those you control. At most ${MAX_FOUND} of
each. Homes are not listed (MUX lists them too).

Example:
  @entrances here`,
    async exec(u) {
      const ref = u.cmd.args.trim();
      const thing = ref ? await u.target(ref) : u.here ?? u.me;
      const all = examines(u.me, thing, u.locks);
      const mine = (o: DbObject) => all || examines(u.me, o, u.locks);
      const exits = (await u.objects.exitsTo(thing.id, MAX_FOUND)).filter(mine);
      const rooms = await u.objects.getEach(exits.map((e) => e.location));
      const children = await u.objects.getMany(
        (u.objects.world?.children(thing.id) ?? []).slice(0, MAX_FOUND),
      );
      const lines = [
        ...exits.map((e, i) =>
          `${rooms[i] ? nameFor(u.me, rooms[i]) : "nowhere"} (${fullNameFor(u.me, e)})`
        ),
        ...children.filter(mine).map((o) => `${nameFor(u.me, o)} [parent]`),
      ];
      lines.push(`${counted(lines.length, "entrance")} found.`);
      u.send(lines.join("\n"));
    },
  },
];
