/**
 * What the game tells of itself (MUX's do_list): `@list <option>`, read from the engine's own
 * tables (the command registry, the function table, the flags), so it is always what the game
 * runs.
 */
import type { CommandSdk, CommandSpec } from "../types.ts";
import type { CommandInfo } from "../../engine_admin.ts";
import { guestMay } from "../dispatch.ts";
import { isGuest, isStaff, knownFlags } from "../../world/flags.ts";

/** May the actor run `c` (its lock, and for a guest what guests may)? */
function mayRun(u: CommandSdk, c: CommandInfo): boolean {
  const lock = c.lock ?? "connected";
  if (lock !== "connected" && !u.passes(lock)) return false;
  return !isGuest(u.me.flags) || guestMay(c, []);
}

/** The commands the actor may run, by name (a `name/switch` registration is its command's). */
function runnable(u: CommandSdk): CommandInfo[] {
  return u.engine.commands.list()
    .filter((c) => !c.name.includes("/") && mayRun(u, c))
    .sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/** `@list`'s options, in MUX's words, with what each shows. */
const OPTIONS: Readonly<Record<string, (u: CommandSdk) => string[]>> = {
  commands: (u) => ["Commands: " + runnable(u).map((c) => c.name).join(" ")],
  flags: () => ["Flags: " + knownFlags().join(" ")],
  functions: (u) => {
    const user = new Set(u.engine.userFunctions.list().map((f) => f.name));
    const staff = isStaff(u.me.flags);
    const builtin = u.softcode.functions.names().filter((n) =>
      !user.has(n) && (staff || !u.softcode.functions.get(n)?.staff)
    );
    return [`Functions: ${builtin.join(" ")}`, `User-Functions: ${[...user].join(" ")}`];
  },
  switches: (u) =>
    runnable(u).filter((c) => c.switches?.length).map((c) => `${c.name}: ${c.switches!.join(" ")}`),
};

/** The command. */
export const commands: CommandSpec[] = [
  {
    name: "@list",
    guests: true,
    category: "Information",
    help: `@list <option>

Lists what the game itself knows, read from its own tables (as TinyMUX's @list):
  commands   the built-in commands you may use (not $-commands nor exits)
  flags      the flags objects may carry
  functions  the softcode functions you may call, then the game's own (@function)
  switches   the commands that take switches, with them

An option may be shortened to what tells it apart (@list fu). See also: @listen.`,
    exec(u) {
      const word = u.cmd.args.trim().toLowerCase();
      const names = Object.keys(OPTIONS);
      const hits = word ? names.filter((n) => n.startsWith(word)) : [];
      if (hits.length !== 1) {
        u.send(`Unknown option.  Use one of: ${names.join(" ")}`);
        return;
      }
      u.send(OPTIONS[hits[0]](u).join("\n"));
    },
  },
];
