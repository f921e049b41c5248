/** `@colour`: a player's colour setting, kept on the player and applied by every connection. */
import type { CommandSpec } from "../types.ts";
import { CommandError } from "../errors.ts";
import { colourModeOf } from "../../text/colour_mode.ts";

const SAID: Record<string, string> = {
  on: "Colour is on, whatever your client says of its terminal.",
  off: "Colour is off: you get text without colour codes.",
  auto: "Colour follows your client: on, unless it says its terminal has none.",
};

/** The colour family. */
export const commands: CommandSpec[] = [
  {
    name: "@colour",
    aliases: ["@color"],
    guests: true,
    category: "General",
    help: `@colour [on|off|auto]   (or @color)

Turns colour on or off for all your connections; auto (the default) shows colour unless
your telnet client says its terminal has none. Without an argument, shows the setting.

Examples:
  @colour off
  @colour auto`,
    async exec(u) {
      const arg = u.cmd.args.trim().toLowerCase();
      if (!arg) {
        const mode = colourModeOf(u.me.data.colour);
        return u.send(`Your colour setting: ${mode}. ${SAID[mode]}`, { type: "colour", mode });
      }
      if (arg !== "on" && arg !== "off" && arg !== "auto") {
        throw new CommandError("Usage: @colour on|off|auto");
      }
      // The hub sees the change through the store and applies it to every connection.
      await u.objects.update(u.me.id, (o) => {
        if (arg === "auto") delete o.data.colour;
        else o.data.colour = arg;
      });
      u.send(SAID[arg]);
    },
  },
];
