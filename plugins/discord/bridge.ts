/**
 * The running bridge (only while a token is configured): channel lines out through each link's
 * webhook, Discord messages in through the gateway, and the counts `@discord/status` shows.
 */
import type { PluginWorld } from "../../src/plugins/mod.ts";
import type { ChannelLine, ChannelsApi } from "../channels/bridge.ts";
import { avatarUrl, type DiscordMessage, fromDiscord, postsFor, speakerName } from "./format.ts";
import { Gateway, type GatewayState } from "./gateway.ts";
import { LineLimiter } from "./limiter.ts";
import { type LinkCounts, Outbox } from "./outbox.ts";
import { DiscordRest } from "./rest.ts";
import type { DiscordSettings } from "./settings.ts";
import type { LinkStore } from "./store.ts";

/** The source name lines from Discord carry in game (`Ann@Discord`). */
export const SOURCE = "Discord";

/** What the bridge needs of the plugin. */
export interface BridgeDeps {
  settings: () => DiscordSettings;
  links: LinkStore;
  /** The channels plugin's API, looked up at each use (it changes on reload). */
  channels: () => ChannelsApi | undefined;
  world: Pick<PluginWorld, "get">;
  /** `web.publicUrl`, for avatars. */
  publicUrl: () => string;
  /** Error lines (never with an address or a token). */
  warn: (message: string) => void;
}

/** Counts of the Discord-to-game direction. */
export interface InboundCounts {
  relayed: number;
  /** Over a user's (or everyone's) line limit. */
  flooded: number;
  /** Sent by a webhook or a bot (the bridge's own posts among them): never relayed. */
  ignored: number;
  refused: number;
}

/** The bridge while it runs. */
export class Bridge {
  readonly #d: BridgeDeps;
  readonly #rest: DiscordRest;
  readonly #gateway: Gateway;
  readonly #outbox: Outbox;
  readonly #limiter: LineLimiter;
  #api: ChannelsApi | undefined;
  #off: (() => void) | undefined;
  readonly #inbound: InboundCounts = { relayed: 0, flooded: 0, ignored: 0, refused: 0 };
  #rateLimited = 0;

  constructor(d: BridgeDeps) {
    this.#d = d;
    const s = d.settings();
    this.#rest = new DiscordRest({
      base: s.apiBase,
      token: s.token,
      timeoutMs: s.timeoutMs,
      onRateLimited: () => void this.#rateLimited++,
    });
    this.#outbox = new Outbox(
      (id, token, post) =>
        this.#rest.request({
          method: "POST",
          route: `POST /webhooks/${id}`,
          path: `/webhooks/${id}/${token}`,
          body: post,
        }),
      () => d.settings().queueSize,
    );
    this.#limiter = new LineLimiter(
      () => d.settings().userLines,
      () => d.settings().totalLines,
      () => d.settings().userWindowMs,
    );
    this.#gateway = new Gateway({
      token: s.token,
      rest: this.#rest,
      events: {
        dispatch: (type, data) => {
          if (type === "MESSAGE_CREATE") this.#fromDiscord(data as DiscordMessage);
        },
        state: () => {},
      },
    });
  }

  /** Connects to Discord and starts listening to the channels. */
  start(): void {
    this.listen();
    this.#gateway.start();
  }

  /** Disconnects; waiting posts are dropped. */
  stop(): void {
    this.#off?.();
    this.#off = undefined;
    this.#gateway.stop();
    this.#outbox.close();
    this.#rest.close();
  }

  /** The gateway's state. */
  get gateway(): GatewayState {
    return this.#gateway.state;
  }

  /** Counts of Discord to game, and 429s met. */
  get inbound(): InboundCounts & { rateLimited: number } {
    return { ...this.#inbound, rateLimited: this.#rateLimited };
  }

  /** A link's outgoing counts. */
  counts(channel: string): LinkCounts {
    return this.#outbox.counts(channel.toLowerCase());
  }

  /** Forgets an unlinked channel's queue. */
  unlinked(channel: string): void {
    this.#outbox.drop(channel.toLowerCase());
  }

  /**
   * Listens to the channels plugin's lines, again when it was reloaded (a new API object with
   * new listeners): the plugin calls this every few seconds.
   */
  listen(): void {
    const api = this.#d.channels();
    if (api === this.#api) return;
    this.#off?.();
    this.#off = undefined;
    this.#api = api;
    if (api && typeof api.onLine === "function") this.#off = api.onLine((l) => this.#toDiscord(l));
  }

  /** A channel line to its link's webhook (queued: the speaker never waits for Discord). */
  #toDiscord(line: ChannelLine): void {
    if (line.source === SOURCE) return; // said from Discord: it is there already
    const link = this.#d.links.ofChannel(line.channel);
    if (!link) return;
    const publicUrl = this.#d.publicUrl();
    const avatar = !line.masked && line.senderId && publicUrl
      ? this.#d.world.get(line.senderId).then((p) => avatarUrl(p?.data?.avatar, publicUrl))
      : undefined;
    const pending = postsFor(line).map((post) => ({ post, avatar }));
    this.#outbox.add(link.channel.toLowerCase(), link.webhookId, link.webhookToken, pending);
  }

  /** A Discord message to its linked channel, within the line limits. */
  #fromDiscord(m: DiscordMessage): void {
    if (!m || typeof m.channel_id !== "string") return;
    const link = this.#d.links.ofDiscord(m.channel_id);
    if (!link) return;
    // Webhooks (our own posts among them) and bots are never relayed: no echo, and no loop
    // between two bridges sharing a Discord channel.
    if (m.webhook_id || m.author?.bot || m.author?.id === this.#gateway.state.botId) {
      this.#inbound.ignored++;
      return;
    }
    const said = fromDiscord(m);
    const api = this.#d.channels();
    if (!said || !api || typeof m.author?.id !== "string") return;
    if (!this.#limiter.take(m.author.id)) {
      this.#inbound.flooded++;
      return;
    }
    this.#inbound.relayed++;
    api.speakAs({
      channel: link.channel,
      source: SOURCE,
      name: speakerName(m),
      text: said.text,
      kind: said.kind,
    }).catch((e) => {
      this.#inbound.relayed--;
      this.#inbound.refused++;
      this.#d.warn(`a line from Discord was not said on ${link.channel}: ${(e as Error).message}`);
    });
  }
}
