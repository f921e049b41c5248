/**
 * `@discord/link`, `@discord/unlink` and `@discord/status` (admin, wizard, superuser). Replies
 * never hold the bot token or a webhook's token: a link shows its Discord channel and webhook
 * ids, which cannot post anything on their own.
 */
import { CommandError, type CommandSpec, padVisible } from "../../src/plugins/mod.ts";
import type { ChannelsApi } from "../channels/bridge.ts";
import type { Bridge } from "./bridge.ts";
import type { DiscordSettings } from "./settings.ts";
import { type LinkStore, MAX_LINKS } from "./store.ts";
import { parseWebhook, SNOWFLAKE } from "./webhook.ts";

/** What the commands need. */
export interface CommandDeps {
  links: LinkStore;
  settings: () => DiscordSettings;
  channels: () => ChannelsApi | undefined;
  bridge: () => Bridge | null;
  /** Registers a webhook's token with the log scrubber. */
  secret: (value: string) => void;
}

const USAGE = "Usage: @discord/link <channel>=<discord channel id> <webhook url>";

/** The `@discord` command. */
export function discordCommands(d: CommandDeps): CommandSpec[] {
  return [{
    name: "@discord",
    switches: ["link", "unlink", "status"],
    lock: "admin+",
    category: "discord",
    help: "@discord/link <channel>=<discord channel id> <webhook url>, @discord/unlink " +
      "<channel>, @discord/status. See 'help discord'.",
    async exec(u) {
      const sw = u.cmd.switches[0] ?? "status";
      if (sw === "status") return u.send(status(d));
      const channels = d.channels();
      if (!channels) throw new CommandError("The channels plugin is not loaded.");
      if (sw === "unlink") {
        const ref = u.cmd.args.trim();
        if (!ref) throw new CommandError("Usage: @discord/unlink <channel>");
        const link = await d.links.remove(channels.channelName(ref) ?? ref);
        if (!link) throw new CommandError(`${ref.slice(0, 40)} is not linked to Discord.`);
        d.bridge()?.unlinked(link.channel);
        return u.send(`${link.channel} is no longer linked to Discord.`);
      }
      // link: the webhook's token is registered as a secret before anything else can log it.
      const rhs = (u.cmd.rhs ?? "").trim().split(/\s+/);
      const webhook = parseWebhook(rhs[1] ?? "", d.settings().apiBase);
      if (webhook) d.secret(webhook.token);
      const name = u.cmd.lhs.trim();
      if (!name || rhs.length !== 2) throw new CommandError(USAGE);
      const channel = channels.channelName(name);
      if (!channel) throw new CommandError(`There is no channel called ${name.slice(0, 40)}.`);
      if (!SNOWFLAKE.test(rhs[0])) {
        throw new CommandError(
          "A Discord channel id is 15-21 digits (Copy Channel ID in Discord).",
        );
      }
      if (!webhook) {
        throw new CommandError(
          "That is not a Discord webhook address (https://discord.com/api/webhooks/<id>/<token>).",
        );
      }
      if (!d.links.ofChannel(channel) && d.links.all().length >= MAX_LINKS) {
        throw new CommandError(`A game may link at most ${MAX_LINKS} channels.`);
      }
      try {
        await d.links.save({
          channel,
          discordChannel: rhs[0],
          webhookId: webhook.id,
          webhookToken: webhook.token,
          linkedBy: u.me.id,
          linkedAt: Date.now(),
        });
      } catch (e) {
        throw new CommandError((e as Error).message);
      }
      const off = d.settings().token ? "" : " The bridge is off until a bot token is configured.";
      u.send(`${channel} is linked to Discord channel ${rhs[0]} (webhook ${webhook.id}).${off}`);
    },
  }];
}

/** The status report: the connection, each link's counts; never a token. */
function status(d: CommandDeps): string {
  const s = d.settings();
  const bridge = d.bridge();
  const lines: string[] = [];
  if (!s.token || !bridge) {
    lines.push(
      "Discord bridge: off (no bot token: set plugins.discord.token or URSAMU_PLUGINS_DISCORD_TOKEN).",
    );
  } else {
    const g = bridge.gateway;
    const state = g.status === "ready"
      ? `connected${g.botId ? ` as bot ${g.botId}` : ""}`
      : g.status;
    lines.push(
      `Discord bridge: ${state}${g.reason ? ` (${g.reason})` : ""}. Connections ${g.connects}, ` +
        `resumes ${g.resumes}, identifies ${g.identifies}.`,
    );
    const i = bridge.inbound;
    lines.push(
      `From Discord: ${i.relayed} relayed, ${i.flooded} over the line limits, ${i.ignored} from ` +
        `webhooks or bots ignored, ${i.refused} refused. Rate limited by Discord ${i.rateLimited} ` +
        `time(s).`,
    );
  }
  lines.push(`API: ${s.apiBase}. Bot token: ${s.token ? "set" : "not set"}.`);
  const links = d.links.all();
  if (!links.length) {
    lines.push("No channel is linked. Link one with @discord/link <channel>=<id> <webhook url>.");
    return lines.join("\n");
  }
  lines.push(
    `%ch${padVisible("Channel", 16)} ${padVisible("Discord channel", 21)} ${
      ["Sent", "Waiting", "Dropped", "Failed"].map((h) => padVisible(h, 7, "right")).join(" ")
    }%cn`,
  );
  for (const link of links) {
    const c = bridge?.counts(link.channel);
    lines.push(
      `${padVisible(link.channel, 16)} ${padVisible(link.discordChannel, 21)} ${
        [c?.sent, c?.waiting, c?.dropped, c?.failed]
          .map((n) => padVisible(String(n ?? 0), 7, "right")).join(" ")
      }`,
    );
    if (c?.broken) lines.push(`  %crbroken:%cn ${c.broken}`);
    else if (c?.lastError) lines.push(`  last error: ${c.lastError}`);
  }
  return lines.join("\n");
}
