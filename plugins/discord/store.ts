/**
 * The links between game channels and Discord channels, kept in the plugin's store and read
 * once at start (a handful of records): which Discord channel a game channel speaks to and
 * hears from, and the webhook it posts through. A webhook's token is a secret: it is stored
 * (the bridge needs it) but never shown.
 */
import type { PluginKv } from "../../src/plugins/mod.ts";
import { discordKeys } from "./keys.ts";

/** One link. */
export interface Link {
  /** The game channel's name as created. */
  channel: string;
  /** The Discord channel's id (a snowflake). */
  discordChannel: string;
  /** The webhook's id and its token (secret). */
  webhookId: string;
  webhookToken: string;
  /** Who linked it (player id) and when (ms). */
  linkedBy: string;
  linkedAt: number;
}

/** The most links a game may have. */
export const MAX_LINKS = 100;

/** Links in memory, written through to KV. */
export class LinkStore {
  readonly #byChannel = new Map<string, Link>();
  readonly #byDiscord = new Map<string, Link>();

  constructor(private readonly kv: PluginKv) {}

  /** Reads every link. */
  async load(): Promise<void> {
    this.#byChannel.clear();
    this.#byDiscord.clear();
    for (const link of await this.kv.values<Link>(discordKeys.links(), MAX_LINKS * 2)) {
      if (link && typeof link.channel === "string" && typeof link.discordChannel === "string") {
        this.#remember(link);
      }
    }
  }

  /** Every link, by channel name. */
  all(): Link[] {
    return [...this.#byChannel.values()].sort((a, b) => a.channel.localeCompare(b.channel));
  }

  /** The link of a game channel. */
  ofChannel(name: string): Link | undefined {
    return this.#byChannel.get(name.toLowerCase());
  }

  /** The link of a Discord channel. */
  ofDiscord(id: string): Link | undefined {
    return this.#byDiscord.get(id);
  }

  /** Links (or relinks) a channel; the Discord channel must not be linked to another one. */
  async save(link: Link): Promise<void> {
    const other = this.#byDiscord.get(link.discordChannel);
    if (other && other.channel.toLowerCase() !== link.channel.toLowerCase()) {
      throw new Error(`That Discord channel is linked to ${other.channel} already.`);
    }
    await this.kv.set(discordKeys.link(link.channel.toLowerCase()), link);
    const was = this.#byChannel.get(link.channel.toLowerCase());
    if (was) this.#byDiscord.delete(was.discordChannel);
    this.#remember(link);
  }

  /** Unlinks a channel; the link it had, if any. */
  async remove(name: string): Promise<Link | undefined> {
    const link = this.#byChannel.get(name.toLowerCase());
    if (!link) return undefined;
    await this.kv.delete(discordKeys.link(name.toLowerCase()));
    this.#byChannel.delete(name.toLowerCase());
    this.#byDiscord.delete(link.discordChannel);
    return link;
  }

  #remember(link: Link): void {
    this.#byChannel.set(link.channel.toLowerCase(), link);
    this.#byDiscord.set(link.discordChannel, link);
  }
}
