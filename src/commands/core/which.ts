/**
 * `@commands <line>`: which layer answers a line, in the order dispatch tries them
 * (docs/commands.md, "Which command runs"), and what each layer below it would have run. For
 * owners replacing a built-in with softcode (`+who`, `+bbread`): what still shadows the name.
 */
import type { CommandSdk, CommandSpec } from "../types.ts";
import type { CommandInfo } from "../../engine_admin.ts";
import { CommandError } from "../errors.ts";
import { parseLine } from "../parser.ts";
import { heldExit, matchExit } from "../move.ts";
import { layerOf } from "../registry.ts";

/** Where a registered command comes from, in words. */
function origin(c: CommandInfo): string {
  const layer = layerOf(c);
  return layer === 2 ? "system script" : layer === 1 ? `plugin ${c.owner}` : "core";
}

/** Text shown as it is (a `%` in a name is not a colour code). */
function plain(s: string): string {
  return s.replaceAll("%", "%%");
}

function ref(u: CommandSdk, id: string): string {
  const o = u.objects.world?.object(id);
  return o ? `${o.name}(#${id})` : `#${id}`;
}

/** The command. */
export const commands: CommandSpec[] = [
  {
    name: "@commands",
    lock: "admin+",
    category: "Administration",
    help: `@commands <command line>

Says which command a line runs, and what else answers to it, in the order the game tries them
(see 'help commands'): a system script, an exit here, a built-in command (core or a plugin's),
the $-commands around you (then the master room's), and last a unique prefix of a built-in.
Use it before installing a softcode package that owns a name (+who, +finger, +bbread, +job):
turn off what still answers first (plugins.<name>.enabled false, scripts.disabled,
commands.disabled for a core command such as +where).

Example: @commands +who`,
    async exec(u) {
      const line = u.cmd.args.trim();
      const cmd = line ? parseLine(line) : null;
      if (!cmd) throw new CommandError("Usage: @commands <command line>");
      const layers = u.engine.commands.layers(cmd, u.me);
      const world = u.objects.world;
      const exit = world
        ? heldExit(world, u.here?.id, cmd.raw)
        : await matchExit(u, u.here?.id, cmd.raw);
      const programs = u.programs.match(u.me, u.here, {
        raw: cmd.raw.trim(),
        evaluated: cmd.raw.trim(),
      });
      const rows: { layer: string; what: string; runs: boolean }[] = [];
      let decided = false;
      const add = (layer: string, what: string | null) => {
        if (what === null) return rows.push({ layer, what: "-", runs: false });
        rows.push({ layer, what, runs: !decided });
        decided = true;
      };
      add("1. system script", layers.script ? `${layers.script.name} (system/scripts)` : null);
      add("2. exit here", exit ? ref(u, exit.id) : null);
      add(
        "3. built-in",
        layers.builtin ? `${layers.builtin.name} (${origin(layers.builtin)})` : null,
      );
      add(
        "4. $-commands",
        programs.length
          ? programs.map((m) => `${ref(u, m.executor)}/${m.entry.attr}`).join(", ")
          : null,
      );
      const p = layers.prefix;
      add(
        "5. unique prefix",
        p === null
          ? null
          : "ambiguous" in p
          ? `ambiguous: ${p.ambiguous.slice(0, 10).join(", ")}`
          : `${p.name} (${origin(p)})`,
      );
      const shadowed = layers.named.filter((c) => c !== layers.script && c !== layers.builtin);
      const out = [`%chWhich command answers '${plain(cmd.raw.trim().slice(0, 60))}'%cn:`];
      for (const r of rows) {
        out.push(`  ${r.layer.padEnd(18)} ${plain(r.what)}${r.runs ? "  %cg<- runs%cn" : ""}`);
      }
      if (!decided) out.push("  Nothing answers: the line gets Huh?");
      const off = u.engine.commands.turnedOff().includes(cmd.name.toLowerCase());
      if (off) out.push(`  The core command ${plain(cmd.name)} is turned off (commands.disabled).`);
      if (shadowed.length) {
        out.push(
          `  Also registered under the name, shadowed: ${
            plain(shadowed.map((c) => `${c.name} (${origin(c)})`).join(", "))
          }`,
        );
      }
      u.send(out.join("\n"), {
        type: "commands",
        line: cmd.raw.trim(),
        layers: rows.map((r) => ({ layer: r.layer.slice(3), what: r.what, runs: r.runs })),
        shadowed: shadowed.map((c) => ({ name: c.name, owner: c.owner })),
        turnedOff: off,
      });
    },
  },
];
