/**
 * The Discord plugin: bridges game channels to Discord channels. Lines said on a linked channel
 * go to its Discord channel through a webhook (the speaker's name and avatar); messages in the
 * Discord channel come back through a gateway bot as `<name>@Discord`. Off until a bot token is
 * configured (`plugins.discord.token`, `URSAMU_PLUGINS_DISCORD_TOKEN`); staff link channels in
 * game. See docs/discord.md.
 */
import type { PluginContext, PluginModule } from "../../src/plugins/mod.ts";
import type { ChannelsApi } from "../channels/bridge.ts";
import { Bridge } from "./bridge.ts";
import { discordCommands } from "./commands.ts";
import { readSettings } from "./settings.ts";
import { LinkStore } from "./store.ts";
import { discordGmcp } from "./gmcp.ts";

/** How often the plugin looks at its settings and the channels plugin, ms. */
const WATCH_MS = 5000;

const plugin: PluginModule = {
  name: "discord",
  async init(ctx: PluginContext) {
    const links = new LinkStore(ctx.kv);
    await links.load();
    for (const link of links.all()) ctx.secret(link.webhookToken);
    const settings = () => readSettings(ctx.config);
    // Looked up at each use: the channels plugin may load, unload or reload at any time.
    const channels = () => {
      const api = ctx.api<Partial<ChannelsApi>>("channels");
      return api && typeof api.speakAs === "function" && typeof api.onLine === "function" &&
          typeof api.channelName === "function"
        ? api as ChannelsApi
        : undefined;
    };
    let bridge: Bridge | null = null;
    let running = "";
    // (Re)starts the bridge when the token or the API base changed (@reload/config).
    const sync = () => {
      const s = settings();
      if (s.token) ctx.secret(s.token);
      const want = s.token ? JSON.stringify([s.token, s.apiBase, s.timeoutMs]) : "";
      if (want !== running) {
        bridge?.stop();
        bridge = null;
        running = want;
        if (want) {
          bridge = new Bridge({
            settings,
            links,
            channels,
            world: ctx.world,
            publicUrl: () => ctx.engine.config().web?.publicUrl ?? "",
            warn: (m) => ctx.log.warn(m),
          });
          bridge.start();
          ctx.log.info(`bridge starting (API ${s.apiBase})`);
        }
      }
      bridge?.listen();
    };
    sync();
    discordGmcp(ctx, settings);
    const watch = setInterval(() => {
      if (ctx.active) sync();
    }, WATCH_MS);
    ctx.onRemove(() => {
      clearInterval(watch);
      bridge?.stop();
      bridge = null;
    });
    for (
      const spec of discordCommands({
        links,
        settings,
        channels,
        bridge: () => bridge,
        secret: (v) => ctx.secret(v),
      })
    ) ctx.commands.add(spec);
    return true;
  },
  remove() {},
};

export default plugin;
