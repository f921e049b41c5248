/**
 * Moving about: `home`, `go <exit>` (typing an exit's name is handled before commands), and
 * `enter`/`leave` for things one may go inside (MUX's do_enter, do_leave).
 */
import type { CommandSpec } from "../types.ts";
import { normalizeId } from "../../world/ids.ts";
import { startingRoom } from "../../world/start.ts";
import { hasFlag } from "../../world/flags.ts";
import { controls } from "../../world/access.ts";
import { passesObjectLock } from "../../world/locks.ts";
import { CommandError, WrongWayError } from "../errors.ts";
import { goThrough, matchExit, moveActor, showView } from "../move.ts";
import { didIt, messageOf, runAction, tellOthers } from "../did_it.ts";
import { isDark } from "../../world/move_heard.ts";
import { displayName } from "../../world/players.ts";
import { lookIn } from "../looking.ts";
import { subjectOf } from "../sdk.ts";

/** MUX's refusal of a thing one may not enter at all. */
const DENIED = "Permission denied.";

/** What `leave` says when there is no way out. */
const CANT_LEAVE = "You can't leave.";

/** The movement family. */
export const commands: CommandSpec[] = [
  {
    name: "home",
    guests: true,
    category: "Navigation",
    help: `home

Takes you back to your home room (where you started, unless staff set another). The room you
leave hears that you go home.`,
    async exec(u) {
      const homeId = normalizeId(String(u.me.data.home ?? ""));
      let home = homeId ? await u.objects.get(homeId) : null;
      if (!home || !home.flags.includes("room")) {
        home = await u.objects.get(
          await startingRoom({ config: u.engine.config, objects: u.objects }),
        );
      }
      if (!home) throw new CommandError("You have no home to go to.");
      // MUX's do_move: the place left hears it go home, unless it or the place is dark, and
      // it is told three times; one home already goes all the same (and sees its room again).
      const here = u.here;
      if (here && !isDark(u.locks, u.me) && !hasFlag(here.flags, "dark")) {
        const who = { id: u.me.id, name: u.me.name };
        u.emitRoom(here.id, `${displayName(u.me)} goes home.`, [u.me.id], {
          type: "home",
          who,
          room: here.id,
        });
      }
      const notes = Array(3).fill("There's no place like home...");
      if (home.id !== u.me.location) return await moveActor(u, home, { notes });
      for (const line of notes) u.send(line);
      showView(u, u.me, await lookIn(u, u.me, home, u.width));
      didIt(u, u.me, u.me, home.id, { what: "MOVE", owhat: "OMOVE", awhat: "AMOVE" });
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
  {
    name: "enter",
    guests: true,
    category: "Navigation",
    help: `enter <thing>

Goes inside a thing here: one set enter_ok, or one you own (and its enter lock lets you in).
Inside, 'look' shows its inside description (@idesc) and 'leave' takes you back out.

Example:
  enter wagon`,
    async exec(u) {
      const ref = u.cmd.args.trim();
      if (!ref) throw new CommandError("Enter what?");
      const thing = await u.target(ref);
      if (!u.here || thing.location !== u.here.id || !thing.flags.includes("thing")) {
        throw new CommandError("You can't enter that.");
      }
      const open = hasFlag(thing.flags, "enter_ok") || controls(u.me, thing, u.locks);
      if (open && passesObjectLock(u.locks, thing, "enter", subjectOf(u.me))) {
        return await moveActor(u, thing);
      }
      // The thing's @efail family answers (MUX's do_enter_internal).
      const msg = messageOf(u, u.me, thing, "EFAIL", open ? "You can't enter that." : DENIED);
      tellOthers(u, u.me, thing, u.here.id, "OEFAIL");
      runAction(u, u.me, thing, "AEFAIL");
      if (msg) throw new CommandError(msg);
    },
  },
  {
    name: "leave",
    guests: true,
    category: "Navigation",
    help: `leave

Comes out of the thing you are inside, to where the thing is (if its leave lock lets you). A
thing someone carries is left to where its carrier stands.`,
    async exec(u) {
      const loc = u.here;
      let out = loc && !loc.flags.includes("room") && loc.location
        ? await u.objects.get(loc.location)
        : null;
      // No player stands inside another (docs/commands.md, teleport): out of a carried thing is
      // where its carrier stands, where MUX would put the leaver in the carrier's hands.
      if (out?.flags.includes("player")) {
        out = out.location ? await u.objects.get(out.location) : null;
      }
      if (!loc || !out) throw new CommandError(CANT_LEAVE);
      if (passesObjectLock(u.locks, loc, "leave", subjectOf(u.me))) {
        return await moveActor(u, out);
      }
      // The thing's @lfail family answers (MUX's do_leave).
      const msg = messageOf(u, u.me, loc, "LFAIL", CANT_LEAVE);
      tellOthers(u, u.me, loc, loc.id, "OLFAIL");
      runAction(u, u.me, loc, "ALFAIL");
      if (msg) throw new CommandError(msg);
    },
  },
];
