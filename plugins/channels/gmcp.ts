/**
 * The channels' GMCP (docs/telnet.md, "Comm.Channel"): `Comm.Channel.Text` on every line,
 * `Comm.Channel.List` and `Comm.Channel.Players` at login, on the client's request and when the
 * player joins or leaves a channel, `Comm.Channel.Start`/`End` on that join or leave; and the
 * other members' `Players` again when someone joins, leaves, connects or disconnects. Each goes
 * to the player as a message with no text that the engine maps to its package; List and Players
 * are built only when a client of the player wants them (`ctx.gmcpWants`).
 */
import {
  controls,
  type DbObject,
  hasFlag,
  type PluginContext,
  stripColour,
} from "../../src/plugins/mod.ts";
import type { ChannelService } from "./service.ts";

/** Most players one `Comm.Channel.Players` lists. */
export const MAX_CHANNEL_PLAYERS = 100;

/** Most members of one channel whose `Players` is refreshed by one change there. */
export const MAX_REFRESHED = 100;

/** How long changes are gathered before the members' `Players` is sent again, in ms. */
const REFRESH_DELAY_MS = 250;

/** The message types the mappings read. */
const TYPES = {
  list: "channel.list",
  players: "channel.players",
  start: "channel.start",
  end: "channel.end",
} as const;

/** One channel as `Comm.Channel.List` shows it (IRE: name, caption, command). */
export interface ListedChannel {
  name: string;
  caption: string;
  command: string;
}

/** Declares the packages: `Comm.Channel.Text` and the four sent by `ChannelGmcp`. */
export function declareChannelGmcp(ctx: PluginContext): void {
  ctx.gmcp("channel", "Comm.Channel.Text", (data, msg) => ({
    channel: String(data.channel ?? ""),
    talker: stripColour(String(data.sender ?? "")),
    text: msg,
  }));
  ctx.gmcp(TYPES.list, "Comm.Channel.List", (data) => data.channels);
  ctx.gmcp(TYPES.players, "Comm.Channel.Players", (data) => data.players);
  ctx.gmcp(TYPES.start, "Comm.Channel.Start", (data) => String(data.channel ?? ""));
  ctx.gmcp(TYPES.end, "Comm.Channel.End", (data) => String(data.channel ?? ""));
}

/** Answers the client's requests (IRE: `Comm.Channel.Players`, `Comm.Channel.List`). */
export function handleChannelGmcp(ctx: PluginContext, gmcp: ChannelGmcp): void {
  // Payloads are ignored: IRE's requests carry none (Mudlet sends an empty string).
  ctx.gmcpHandle("Comm.Channel.Players", ({ player }) => gmcp.sendPlayers(player));
  ctx.gmcpHandle("Comm.Channel.List", ({ player }) => gmcp.sendList(player));
}

/** Sends a player the channel packages (list, players, start, end). */
export class ChannelGmcp {
  /** Members whose `Players` is to be sent again, gathered for a moment. */
  readonly #stale = new Set<string>();
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly svc: ChannelService,
    private readonly ctx: Pick<
      PluginContext,
      "deliver" | "world" | "players" | "gmcpWants" | "active"
    >,
  ) {}

  /** The channels the player is on, in name order, as `Comm.Channel.List` shows them. */
  list(playerId: string): ListedChannel[] {
    const out: ListedChannel[] = [];
    for (const [alias, lower] of this.svc.store.aliases.get(playerId) ?? []) {
      const ch = this.svc.store.channels.get(lower);
      if (ch) {
        out.push({ name: ch.name, caption: stripColour(ch.header) || ch.name, command: alias });
      }
    }
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * Who else is online on the player's channels, each with the channels they share (IRE's
   * `[{name, channels}]`), at most {@linkcode MAX_CHANNEL_PLAYERS}. A masked channel names
   * nobody (it hides its speakers); an `unfindable` player is left out unless the viewer
   * controls it. Hidden channels are listed only to their members, as the player is.
   */
  async players(viewer: DbObject): Promise<{ name: string; channels: string[] }[]> {
    const mine = [...new Set(this.svc.store.aliases.get(viewer.id)?.values() ?? [])]
      .map((lower) => this.svc.store.channels.get(lower))
      .filter((ch) => ch !== undefined && !ch.masking);
    const shared = new Map<string, string[]>();
    for (const ch of mine) {
      // From the smaller side: a channel's members or everyone online.
      const members = this.svc.store.members.get(ch!.name.toLowerCase());
      if (!members) continue;
      const online = this.ctx.players.online();
      const fromMembers = members.size <= online.length;
      const candidates = fromMembers ? members.keys() : online.values();
      // A login must not cost in proportion to who is online: each channel stops at the cap.
      let taken = 0;
      for (const id of candidates) {
        if (taken >= MAX_CHANNEL_PLAYERS) break;
        if (id === viewer.id) continue;
        if (fromMembers ? !this.ctx.players.isConnected(id) : !members.has(id)) continue;
        taken++;
        const list = shared.get(id);
        if (list) list.push(ch!.name);
        else if (shared.size < MAX_CHANNEL_PLAYERS) shared.set(id, [ch!.name]);
      }
    }
    const found = await this.ctx.world.getMany([...shared.keys()]);
    return found
      .filter((p) => !hasFlag(p.flags, "unfindable") || controls(viewer, p, this.ctx.world.locks))
      .map((p) => ({ name: p.name, channels: shared.get(p.id)! }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** At login: the list and the players (each only when a client of the player wants it). */
  async loggedIn(playerId: string): Promise<void> {
    this.sendList(playerId);
    await this.sendPlayers(playerId);
  }

  /** Sends `Comm.Channel.List` when one of the player's clients wants it. */
  sendList(playerId: string): void {
    if (!this.ctx.gmcpWants(playerId, "Comm.Channel.List")) return;
    this.#send(playerId, TYPES.list, { channels: this.list(playerId) });
  }

  /** Sends `Comm.Channel.Players` when one of the player's clients wants it. */
  async sendPlayers(playerId: string): Promise<void> {
    if (!this.ctx.gmcpWants(playerId, "Comm.Channel.Players")) return;
    const viewer = await this.ctx.world.get(playerId);
    if (viewer) this.#send(playerId, TYPES.players, { players: await this.players(viewer) });
  }

  /**
   * Someone joined or left `channel` (null: connected or disconnected, so all their channels):
   * the other connected members whose clients want it get their `Players` again, at most
   * {@linkcode MAX_REFRESHED} per channel, gathered for a moment so a burst sends one each. An
   * `unfindable` player's comings and goings refresh nobody (their lists would not change).
   */
  async othersChanged(playerId: string, channel: string | null): Promise<void> {
    const who = await this.ctx.world.get(playerId);
    if (who && hasFlag(who.flags, "unfindable")) return;
    const lowers = channel !== null
      ? [channel.toLowerCase()]
      : [...new Set(this.svc.store.aliases.get(playerId)?.values() ?? [])];
    for (const lower of lowers) {
      const ch = this.svc.store.channels.get(lower);
      const members = this.svc.store.members.get(lower);
      if (!ch || ch.masking || !members) continue;
      let taken = 0;
      for (const id of members.keys()) {
        if (taken >= MAX_REFRESHED) break;
        if (id === playerId || !this.ctx.players.isConnected(id)) continue;
        taken++;
        if (this.ctx.gmcpWants(id, "Comm.Channel.Players")) this.#stale.add(id);
      }
    }
    if (this.#stale.size > 0 && this.#timer === undefined) {
      this.#timer = setTimeout(() => this.#refresh(), REFRESH_DELAY_MS);
    }
  }

  /** Stops a pending refresh (the plugin unloads). */
  close(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#stale.clear();
  }

  async #refresh(): Promise<void> {
    this.#timer = undefined;
    const ids = [...this.#stale];
    this.#stale.clear();
    for (const id of ids) {
      if (!this.ctx.active) return;
      await this.sendPlayers(id);
    }
  }

  /** After a join or leave: start or end, then the new list and players. */
  async changed(playerId: string, channel: string, joined: boolean): Promise<void> {
    this.#send(playerId, joined ? TYPES.start : TYPES.end, { channel });
    await this.loggedIn(playerId);
  }

  #send(playerId: string, type: string, data: Record<string, unknown>): void {
    this.ctx.deliver.toPlayer(playerId, { msg: "", data: { type, ...data } });
  }
}
