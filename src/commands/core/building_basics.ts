/** Describing, naming and parenting what you control: @describe, @name, @alias, @parent. */
import type { CommandSpec } from "../types.ts";
import { controls, mayActOn } from "../../world/access.ts";
import { isStaff } from "../../world/flags.ts";
import { MAX_ALIASES } from "../../world/players.ts";
import { findPlayer } from "../target.ts";
import { objectNameProblem, playerNameProblem, rename } from "../../world/names.ts";
import { CommandError } from "../errors.ts";
import { MAX_DESCRIPTION } from "../../world/patch.ts";
import { lockOf } from "../../world/locks.ts";
import { MAX_PARENT_DEPTH, parentOf, parentProblem, readChain } from "../../world/parents.ts";
import { confirm } from "../confirm.ts";

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
      if (!controls(u.me, obj, u.locks)) throw new CommandError("Permission denied.");
      const text = u.cmd.rhs;
      if (text.length > MAX_DESCRIPTION) {
        throw new CommandError(`Descriptions must be ${MAX_DESCRIPTION} characters or fewer.`);
      }
      await u.objects.update(obj.id, (o) => {
        if (text) o.data.description = text;
        else delete o.data.description;
      });
      // MUX's words for any attribute set (an empty one clears it).
      confirm(u, "Set.", undefined, obj);
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
      if (!u.cmd.lhs.trim()) throw new CommandError("Usage: @name <target>=<new name>");
      const obj = await u.target(u.cmd.lhs);
      if (!controls(u.me, obj, u.locks)) throw new CommandError("Permission denied.");
      // MUX's do_name: the target first, then the name.
      const name = u.cmd.rhs ?? "";
      if (!name.trim()) throw new CommandError("Give it what new name?");
      const isPlayer = obj.flags.includes("player");
      const problem = isPlayer ? playerNameProblem(name) : objectNameProblem(name);
      if (problem) throw new CommandError(`That name won't do: ${problem}.`);
      await u.objects.update(obj.id, (o) => rename(o, name));
      confirm(u, "Name set.", undefined, obj);
    },
  },
  {
    name: "@alias",
    category: "Building",
    help: `@alias <player>=<alias>[;<alias>...]
@alias <player>=
@alias <player>

Gives a player other names that page, *name and other player lookups find, as MUSH players
expect. Aliases follow the rules for player names and are unique: no player may use another's
name or alias. Up to ${MAX_ALIASES}. An empty list clears them; without '=' the aliases are shown.
Players set their own (@alias me=Bob); staff may set anyone's below their rank.

Example:
  @alias me=Bobby;Rob`,
    async exec(u) {
      if (!u.cmd.lhs.trim()) throw new CommandError("Usage: @alias <player>=<alias>[;<alias>...]");
      const target = await findPlayer(u, u.me, u.cmd.lhs);
      const players = u.players;
      if (u.cmd.rhs === null) {
        const list = players.aliasesOf(target);
        return u.send(
          list.length
            ? `${target.name}'s aliases: ${list.join(", ")}.`
            : `${target.name} has no aliases.`,
          { type: "aliases", player: { id: target.id, name: target.name }, aliases: list },
        );
      }
      if (target.id !== u.me.id && !(isStaff(u.me.flags) && mayActOn(u.me, target))) {
        throw new CommandError("Permission denied.");
      }
      const wanted = u.cmd.rhs.split(";").map((a) => a.trim()).filter(Boolean);
      const after = await players.setAliases(target.id, wanted);
      const list = players.aliasesOf(after);
      u.send(
        list.length
          ? `Aliases of ${target.name} set to: ${list.join(", ")}.`
          : `Aliases of ${target.name} cleared.`,
      );
    },
  },
  {
    name: "@parent",
    category: "Building",
    help: `@parent <object>=<parent>
@parent <object>=
@parent <object>

Makes <parent> the parent of <object>: the object then has every attribute of its parent that
it does not have itself (and the parent's parent's, up to ${MAX_PARENT_DEPTH} levels), for get(),
u(), $-commands and the rest, as in TinyMUX. An attribute flagged no_inherit stays with its
holder. Without a parent, or with an empty one, the parent is cleared.

You must control the object, and either control the parent or the parent must have the
parent_ok flag (and you must pass its parent lock: @lock/parent). A parent may not be the object itself or one of its own children.

Example:
  @parent Red Sword=Sword Parent`,
    async exec(u) {
      const lhs = u.cmd.rhs === null ? u.cmd.args : u.cmd.lhs;
      if (!lhs.trim()) throw new CommandError("Usage: @parent <object>=<parent>");
      const obj = await u.target(lhs);
      if (!controls(u.me, obj, u.locks)) throw new CommandError("Permission denied.");
      const rhs = (u.cmd.rhs ?? "").trim();
      if (!rhs) {
        // MUX's do_parent: cleared, whether or not there was one.
        if (parentOf(obj)) {
          await u.objects.update(obj.id, (o) => {
            delete o.data.parent;
          });
        }
        return confirm(u, "Parent cleared.", undefined, obj);
      }
      const parent = await u.target(rhs);
      // MUX: another's object takes children when it is parent_ok and its parent lock passes.
      const open = parent.flags.includes("parent_ok") &&
        u.passes(lockOf(parent, "parent"), parent.id);
      if (!controls(u.me, parent, u.locks) && !open) {
        throw new CommandError("Permission denied.");
      }
      const world = u.objects.world ?? await readChain((id) => u.objects.get(id), parent.id);
      const problem = parentProblem(world, obj.id, parent.id);
      if (problem) throw new CommandError(problem);
      await u.objects.update(obj.id, (o) => {
        o.data.parent = parent.id;
      });
      confirm(u, "Parent set.", undefined, obj);
    },
  },
];
