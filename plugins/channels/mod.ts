/**
 * The channels plugin: named chat channels with aliases, locks, masking and a
 * persisted history; REST at `/api/v1/channels`. A fresh game gets the default channels
 * (Public, OOC, Staff unless configured otherwise; see defaults.ts).
 */
import { isStaff, ownerOf, type PluginContext, type PluginModule } from "../../src/plugins/mod.ts";
import { ChannelStore } from "./store.ts";
import {
  ChannelService,
  DEFAULT_ANNOUNCE_JOINS,
  DEFAULT_LINES_PER_MINUTE,
  MAX_MESSAGE,
  playerCheck,
} from "./service.ts";
import { channelCommands, talkCommands } from "./commands.ts";
import { channelFunctions } from "./functions.ts";
import { channelRoutes, PREFIX } from "./routes.ts";
import type { ChannelsApi } from "./bridge.ts";
import { defaultChannels } from "./defaults.ts";
import { ChannelGmcp, declareChannelGmcp, handleChannelGmcp } from "./gmcp.ts";

/** Default for `plugins.channels.historyLimit`: messages kept per channel. */
const HISTORY_KEEP = 1000;

const plugin: PluginModule = {
  name: "channels",
  async init(ctx: PluginContext) {
    const store = new ChannelStore(ctx.kv);
    await store.load();
    let talkNames: string[] = [];
    let signature = "";
    const refreshTalk = () => {
      // Re-register the talk patterns only when the words they match changed.
      const next = talkCommands(svc, ctx.world);
      const sig = next.map((c) => c.pattern?.source).join("\n");
      if (sig === signature) return;
      for (const n of talkNames) ctx.commands.remove(n);
      for (const spec of next) ctx.commands.add(spec);
      talkNames = next.map((c) => c.name);
      signature = sig;
    };
    // Set once the service exists (joins during start-up, before it, tell nobody).
    let gmcp: ChannelGmcp | undefined = undefined;
    const gmcpSend = (p: Promise<void>) => p.catch((e) => ctx.log.warn(`GMCP: ${e}`));
    const defaults = () => defaultChannels(ctx.config.defaultChannels, (m) => ctx.log.warn(m));
    const svc: ChannelService = new ChannelService({
      store,
      passes: (lock, subject) => ctx.world.passes(lock, subject),
      settableLock: (actor, expr) => ctx.world.settableLock(actor, expr),
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
      announceJoins: () => {
        const n = Number(ctx.config.announceJoins);
        return Number.isInteger(n) && n >= 0 ? n : DEFAULT_ANNOUNCE_JOINS;
      },
      defaultAlias: (lower) => defaults().find((d) => d.name.toLowerCase() === lower)?.alias,
      // Paid by the player, for their things too (MUX's Owner()); staff are not held to it.
      talkRate: async (actor) => {
        const n = Number(ctx.config.linesPerMinute ?? DEFAULT_LINES_PER_MINUTE);
        const max = Number.isInteger(n) && n >= 0 ? n : DEFAULT_LINES_PER_MINUTE;
        const id = ownerOf(actor);
        const payer = await ctx.world.owningPlayer(actor);
        if (!max || (payer && isStaff(payer.flags))) return;
        ctx.rates.take(
          "talk",
          id,
          max,
          `You are talking on channels too fast: at most ${max} lines a minute.`,
        );
      },
      membership: (id, channel, joined) => {
        if (!gmcp || !ctx.active) return;
        if (ctx.players.isConnected(id)) gmcpSend(gmcp.changed(id, channel, joined));
        gmcpSend(gmcp.othersChanged(id, channel));
      },
    });
    gmcp = new ChannelGmcp(svc, ctx);
    const channelGmcp = gmcp;
    ctx.onRemove(() => channelGmcp.close());
    if (!(await store.seeded())) {
      // Only a fresh game gets the default channels: a game that has channels already keeps
      // the ones it has, and a default channel staff destroy later stays destroyed.
      if (store.channels.size === 0) {
        for (const p of await svc.seed(defaults())) ctx.log.warn(p);
      }
      await store.markSeeded();
    }
    // Members who were toaded or destroyed while this plugin was not running.
    const dropped = await svc.forgetMissing(playerCheck(ctx.world, store.aliases.size));
    if (dropped) ctx.log.info(`dropped the memberships of ${dropped} removed player(s)`);
    ctx.hooks.worldHooks.on("player:removed", (p) => svc.forget(p.id).then(() => {}));
    // New players join the default channels with their aliases (`pub`, `o`), as players of
    // most games expect; a channel that is gone or whose lock refuses them (Staff) is skipped.
    ctx.hooks.worldHooks.on("player:created", async (p) => {
      const player = await ctx.world.get(p.id);
      if (!player) return;
      for (const d of defaults()) {
        const ch = svc.byName(d.name);
        if (!ch || d.join === false || !svc.passes(ch, player)) continue;
        await svc.join(player, d.name, undefined, { byGame: true }).catch((e) =>
          ctx.log.info(`${p.name} not joined to ${d.name}: ${(e as Error).message}`)
        );
      }
    });
    // Telnet clients that speak GMCP get channel lines, lists and who is on them (gmcp.ts).
    declareChannelGmcp(ctx);
    handleChannelGmcp(ctx, channelGmcp);
    ctx.hooks.worldHooks.on("player:connected", (p) => {
      // A resumed session's client kept what it was sent, and nobody else saw it go.
      if (p.resumed || !ctx.active) return;
      gmcpSend(channelGmcp.loggedIn(p.id));
      if (p.first) gmcpSend(channelGmcp.othersChanged(p.id, null));
    });
    ctx.hooks.worldHooks.on("player:disconnected", (p) => {
      if (!p.stillConnected && ctx.active) gmcpSend(channelGmcp.othersChanged(p.id, null));
    });
    channelRoutes(ctx.http(PREFIX), svc);
    for (const spec of channelCommands(svc, ctx.world)) ctx.commands.add(spec);
    for (const spec of channelFunctions(svc)) ctx.functions.add(spec);
    refreshTalk();
    // The narrow door other plugins get (bridges), not the service itself.
    const api: ChannelsApi = {
      channelName: (name) => svc.byName(String(name ?? ""))?.name ?? null,
      speakAs: (line) => svc.speakAs(line),
      onLine: (fn) => svc.onLine(fn),
    };
    ctx.provide(api);
    // The play view's channels pane: pick one, read, join, talk.
    ctx.portal.pane({
      module: "pane.js",
      styles: "pane.css",
      order: 30,
      settings: { maxMessage: MAX_MESSAGE },
    });
    return true;
  },
  remove() {},
};

export default plugin;
