/** Describing and naming what you control: @describe, @name. */
import type { CommandSpec } from "../types.ts";
import { canControl } from "../../world/access.ts";
import { objectNameProblem, playerNameProblem, rename } from "../../world/names.ts";
import { CommandError } from "../errors.ts";

/** Longest description (matches the REST patch limit). */
const MAX_DESCRIPTION = 8000;

/** The building basics family. */
export const commands: CommandSpec[] = [
  {
    name: "@describe",
    aliases: ["@desc"],
    category: "Building",
    help: `@describe <target>=<description>   (or @desc)

Sets the description of something you own (staff: anything). An empty description
clears it. Colour codes are allowed.

Examples:
  @describe me=A tall figure in a grey coat.
  @desc here=A quiet library.`,
    async exec(u) {
      if (u.cmd.rhs === null || !u.cmd.lhs) {
        throw new CommandError("Usage: @describe <target>=<description>");
      }
      const obj = await u.target(u.cmd.lhs);
      if (!canControl(u.me, obj)) throw new CommandError("Permission denied.");
      const text = u.cmd.rhs;
      if (text.length > MAX_DESCRIPTION) {
        throw new CommandError(`Descriptions must be ${MAX_DESCRIPTION} characters or fewer.`);
      }
      await u.services.objects.update(obj.id, (o) => {
        if (text) o.data.description = text;
        else delete o.data.description;
      });
      u.send(text ? `Description set on ${obj.name}.` : `Description cleared on ${obj.name}.`);
    },
  },
  {
    name: "@name",
    category: "Building",
    help: `@name <target>=<new name>

Renames something you own (staff: anything). Player names must be unique.

Example:
  @name lantern=Brass Lantern`,
    async exec(u) {
      if (u.cmd.rhs === null || !u.cmd.lhs) {
        throw new CommandError("Usage: @name <target>=<new name>");
      }
      const obj = await u.target(u.cmd.lhs);
      if (!canControl(u.me, obj)) throw new CommandError("Permission denied.");
      const name = u.cmd.rhs;
      const isPlayer = obj.flags.includes("player");
      const problem = isPlayer ? playerNameProblem(name) : objectNameProblem(name);
      if (problem) throw new CommandError(`That name won't do: ${problem}.`);
      const old = obj.name;
      await u.services.objects.update(obj.id, (o) => rename(o, name));
      u.send(`Name set: ${old} is now ${name}.`);
    },
  },
];
