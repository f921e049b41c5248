/**
 * The channels plugin: named chat channels with aliases, locks, masking and a
 * persisted history; REST at `/api/v1/channels`. A `Public` channel is created
 * on a new game.
 */
import { type PluginContext, type PluginModule, stripColour } from "../../src/plugins/mod.ts";
import { ChannelStore } from "./store.ts";
import { ChannelService, playerCheck } from "./service.ts";
import { channelCommands, talkCommands } from "./commands.ts";
import { channelRoutes, PREFIX } from "./routes.ts";
import { CHANNELS_API } from "./api.ts";
import type { ChannelsApi } from "./bridge.ts";

/** Default for `plugins.channels.historyLimit`: messages kept per channel. */
const HISTORY_KEEP = 1000;

/** Default for `plugins.channels.defaultChannels`: channels every new player joins. */
const DEFAULT_CHANNELS = ["Public"];

/** The configured default channels (a list of names), or the default. */
function defaultChannels(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((x) => typeof x === "string") : DEFAULT_CHANNELS;
}

const plugin: PluginModule = {
  name: "channels",
  async init(ctx: PluginContext) {
    const store = new ChannelStore(ctx.kv);
    await store.load();
    let talkNames: string[] = [];
    let signature = "";
    const refreshTalk = () => {
      // Re-register the talk patterns only when the words they match changed.
      const next = talkCommands(svc);
      const sig = next.map((c) => c.pattern?.source).join("\n");
      if (sig === signature) return;
      for (const n of talkNames) ctx.commands.remove(n);
      for (const spec of next) ctx.commands.add(spec);
      talkNames = next.map((c) => c.name);
      signature = sig;
    };
    const svc: ChannelService = new ChannelService({
      store,
      deliver: ctx.deliver,
      players: ctx.players,
      isCommand: (w) => !!ctx.engine.command(w),
      historyLimit: () => {
        const n = Number(ctx.config.historyLimit);
        return Number.isInteger(n) && n > 0 ? n : HISTORY_KEEP;
      },
      onChange: () => {
        if (ctx.active) refreshTalk();
      },
    });
    if (!(await store.seeded())) {
      if (!svc.byName("Public")) {
        await store.create({
          name: "Public",
          header: "[Public]",
          hidden: false,
          lock: "",
          masking: false,
          createdAt: Date.now(),
          createdBy: "",
        });
      }
      await store.markSeeded();
    }
    // Members who were toaded or destroyed while this plugin was not running.
    const dropped = await svc.forgetMissing(playerCheck(ctx.world, store.aliases.size));
    if (dropped) ctx.log.info(`dropped the memberships of ${dropped} removed player(s)`);
    ctx.hooks.worldHooks.on("player:removed", (p) => svc.forget(p.id).then(() => {}));
    // New players join the default channels with the default alias (`pub`), as players
    // of most games expect; a channel that is gone or refuses them is skipped.
    ctx.hooks.worldHooks.on("player:created", async (p) => {
      const player = await ctx.world.get(p.id);
      if (!player) return;
      for (const name of defaultChannels(ctx.config.defaultChannels)) {
        await svc.join(player, name).catch((e) =>
          ctx.log.info(`${p.name} not joined to ${name}: ${(e as Error).message}`)
        );
      }
    });
    // Telnet clients that speak GMCP get channel lines as Comm.Channel.Text too.
    ctx.gmcp("channel", "Comm.Channel.Text", (data, msg) => ({
      channel: String(data.channel ?? ""),
      talker: stripColour(String(data.sender ?? "")),
      text: msg,
    }));
    channelRoutes(ctx.http(PREFIX), svc);
    ctx.openapi(CHANNELS_API);
    for (const spec of channelCommands(svc, ctx.world)) ctx.commands.add(spec);
    refreshTalk();
    // The narrow door other plugins get (bridges), not the service itself.
    const api: ChannelsApi = {
      channelName: (name) => svc.byName(String(name ?? ""))?.name ?? null,
      speakAs: (line) => svc.speakAs(line),
      onLine: (fn) => svc.onLine(fn),
    };
    ctx.provide(api);
    return true;
  },
  remove() {},
};

export default plugin;
