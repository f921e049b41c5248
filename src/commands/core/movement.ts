/** Moving about: `home` and `go <exit>` (typing an exit's name is handled before commands). */
import type { CommandSpec } from "../types.ts";
import { normalizeId } from "../../world/ids.ts";
import { startingRoom } from "../../world/start.ts";
import { CommandError, WrongWayError } from "../errors.ts";
import { goThrough, matchExit, moveActor } from "../move.ts";

/** The movement family. */
export const commands: CommandSpec[] = [
  {
    name: "home",
    guests: true,
    category: "Navigation",
    help: `home

Takes you back to your home room (where you started, unless staff set another).`,
    async exec(u) {
      const homeId = normalizeId(String(u.me.data.home ?? ""));
      let home = homeId ? await u.objects.get(homeId) : null;
      if (!home || !home.flags.includes("room")) {
        home = await u.objects.get(
          await startingRoom({ config: u.engine.config, objects: u.objects }),
        );
      }
      if (!home) throw new CommandError("You have no home to go to.");
      if (home.id === u.me.location) throw new CommandError("You are already home.");
      await moveActor(u, home, { note: "There's no place like home..." });
    },
  },
  {
    name: "go",
    aliases: ["move"],
    guests: true,
    category: "Navigation",
    help: `go <exit>

Leaves through an exit. Typing the exit's name or alias on its own does the same.

Examples:
  go north
  north
  n`,
    async exec(u) {
      if (!u.cmd.args.trim()) throw new CommandError("Go where? Usage: go <exit>");
      const exit = await matchExit(u, u.here?.id, u.cmd.args);
      if (!exit) throw new WrongWayError("You can't go that way.", u.cmd.args.trim());
      await goThrough(u, exit, u.cmd.args);
    },
  },
];
