/**
 * Mudlet's Discord packages (docs/telnet.md, "External.Discord"): while the bridge is configured,
 * a player gets `External.Discord.Info` (the game's invite and application id, when set) and
 * `External.Discord.Status` (the game's name, since when the player plays) at login, as a message
 * with no text that the engine maps to each package.
 */
import type { PluginContext } from "../../src/plugins/mod.ts";
import type { DiscordSettings } from "./settings.ts";

const INFO = "discord.info";
const STATUS = "discord.status";

/** Declares the packages and sends them at each login (not at a resume) while configured. */
export function discordGmcp(
  ctx: Pick<PluginContext, "gmcp" | "hooks" | "deliver" | "engine" | "active">,
  settings: () => DiscordSettings,
): void {
  ctx.gmcp(INFO, "External.Discord.Info", (data) => data.info);
  ctx.gmcp(STATUS, "External.Discord.Status", (data) => data.status);
  ctx.hooks.worldHooks.on("player:connected", (p) => {
    const s = settings();
    if (p.resumed || !ctx.active || !s.token) return;
    if (s.invite || s.applicationId) {
      const info: Record<string, string> = {};
      if (s.invite) info.inviteurl = s.invite;
      if (s.applicationId) info.applicationid = s.applicationId;
      ctx.deliver.toPlayer(p.id, { msg: "", data: { type: INFO, info } });
    }
    const status = {
      game: ctx.engine.config().game.name,
      starttime: Math.floor(Date.now() / 1000),
    };
    ctx.deliver.toPlayer(p.id, { msg: "", data: { type: STATUS, status } });
  });
}
