/**
 * Channels, memberships and history. Channels and memberships are read once at
 * start and kept in memory (talking never reads the database); every change is
 * written through to KV.
 */
import type { Page, PluginKv } from "../../src/plugins/mod.ts";
import { chanKeys } from "./keys.ts";

/** A channel as stored. */
export interface Channel {
  name: string;
  header: string;
  hidden: boolean;
  /** Lock expression deciding who may join and talk; empty for everyone. */
  lock: string;
  /** When true, speakers are shown as "Someone". */
  masking: boolean;
  createdAt: number;
  createdBy: string;
}

/** One membership. */
export interface Membership {
  alias: string;
  joinedAt: number;
}

/** One stored history message. */
export interface HistoryEntry {
  /** Speaker's name (the real one, even on a masked channel). */
  sender: string;
  senderId: string;
  /** What was said or posed, without the channel header. */
  message: string;
  /** `say`, `pose` or `semipose`. */
  kind: string;
  /** True when the channel masked the speaker. */
  masked: boolean;
  timestamp: number;
}

/** Most memberships and channels read at start. */
const MAX_LOAD = 1_000_000;

/** In-memory channel state, written through to KV. */
export class ChannelStore {
  /** Lower-cased name → channel. */
  readonly channels = new Map<string, Channel>();
  /** Lower-cased name → player id → membership. */
  readonly members = new Map<string, Map<string, Membership>>();
  /** Player id → alias → lower-cased channel name. */
  readonly aliases = new Map<string, Map<string, string>>();
  /**
   * Every alias in use → how many players use it: the talk commands are made from its keys, so a
   * join looks at the aliases in use, not at every player's.
   */
  readonly aliasUse = new Map<string, number>();
  #seq = 0;

  constructor(private readonly kv: PluginKv) {}

  /** Reads every channel and membership. */
  async load(): Promise<void> {
    this.channels.clear();
    this.members.clear();
    this.aliases.clear();
    this.aliasUse.clear();
    for await (const e of this.kv.list<Channel>(chanKeys.channels(), { limit: MAX_LOAD })) {
      this.channels.set(e.value.name.toLowerCase(), e.value);
      this.members.set(e.value.name.toLowerCase(), new Map());
    }
    for await (const e of this.kv.list<Membership>(chanKeys.members(), { limit: MAX_LOAD })) {
      const lower = String(e.key[e.key.length - 2]);
      const player = String(e.key[e.key.length - 1]);
      if (!this.channels.has(lower)) continue;
      this.#remember(lower, player, e.value);
    }
  }

  /** True when the default channels were created before. */
  async seeded(): Promise<boolean> {
    return (await this.kv.get<boolean>(chanKeys.seeded())) === true;
  }

  /** Records that the default channels exist. */
  async markSeeded(): Promise<void> {
    await this.kv.set(chanKeys.seeded(), true);
  }

  /** Creates a channel; false when the name is taken. */
  async create(ch: Channel): Promise<boolean> {
    const lower = ch.name.toLowerCase();
    const key = this.kv.key(...chanKeys.channel(lower));
    const res = await this.kv.atomic().check({ key, versionstamp: null }).set(key, ch).commit();
    if (!res.ok) return false;
    this.channels.set(lower, ch);
    this.members.set(lower, new Map());
    return true;
  }

  /** Saves changed channel settings. */
  async save(ch: Channel): Promise<void> {
    await this.kv.set(chanKeys.channel(ch.name.toLowerCase()), ch);
    this.channels.set(ch.name.toLowerCase(), ch);
  }

  /** Deletes a channel, its memberships and its history. */
  async destroy(lower: string): Promise<void> {
    const members = this.members.get(lower) ?? new Map();
    this.channels.delete(lower);
    this.members.delete(lower);
    for (const id of members.keys()) this.#forget(lower, id);
    await this.kv.delete(chanKeys.channel(lower));
    await this.#deletePrefix(chanKeys.membersOf(lower));
    await this.#deletePrefix(chanKeys.historyOf(lower));
  }

  /** Adds or updates a membership. */
  async join(lower: string, playerId: string, alias: string): Promise<void> {
    const m: Membership = { alias, joinedAt: Date.now() };
    await this.kv.set(chanKeys.member(lower, playerId), m);
    this.#forget(lower, playerId);
    this.#remember(lower, playerId, m);
  }

  /** Removes a membership. */
  async leave(lower: string, playerId: string): Promise<void> {
    await this.kv.delete(chanKeys.member(lower, playerId));
    this.#forget(lower, playerId);
  }

  /**
   * Removes every membership of a player. Memory changes before this returns (talk and
   * lists see it at once); the promise settles when KV has caught up.
   */
  dropPlayer(playerId: string): Promise<number> {
    const chans = [...new Set(this.aliases.get(playerId)?.values() ?? [])];
    for (const lower of chans) this.#forget(lower, playerId);
    return this.#deleteKeys(chans.map((lower) => chanKeys.member(lower, playerId)))
      .then(() => chans.length);
  }

  /** Appends one message to a channel's history. */
  async append(lower: string, entry: HistoryEntry): Promise<void> {
    this.#seq = (this.#seq + 1) % 1_000_000_000;
    await this.kv.set(chanKeys.message(lower, entry.timestamp, this.#seq), entry);
  }

  /**
   * One page of history counted back from the newest message (offset 0 is the latest
   * `limit` messages), returned oldest first.
   */
  async history(lower: string, page: Page): Promise<HistoryEntry[]> {
    const out = await this.kv.slice<HistoryEntry>(chanKeys.historyOf(lower), page, true);
    return out.reverse();
  }

  /** Deletes all but the newest `keep` messages of a channel. */
  async prune(lower: string, keep: number): Promise<number> {
    let seen = 0;
    let deleted = 0;
    let op = this.kv.atomic();
    let batch = 0;
    for await (const e of this.kv.list(chanKeys.historyOf(lower), { reverse: true })) {
      if (++seen <= keep) continue;
      op.delete(e.key);
      deleted++;
      if (++batch >= 500) {
        await op.commit();
        op = this.kv.atomic();
        batch = 0;
      }
    }
    if (batch) await op.commit();
    return deleted;
  }

  async #deleteKeys(list: Deno.KvKeyPart[][]): Promise<void> {
    for (let i = 0; i < list.length; i += 500) {
      const op = this.kv.atomic();
      for (const k of list.slice(i, i + 500)) op.delete(this.kv.key(...k));
      await op.commit();
    }
  }

  async #deletePrefix(prefix: Deno.KvKeyPart[]): Promise<void> {
    let op = this.kv.atomic();
    let batch = 0;
    for await (const e of this.kv.list(prefix)) {
      op.delete(e.key);
      if (++batch >= 500) {
        await op.commit();
        op = this.kv.atomic();
        batch = 0;
      }
    }
    if (batch) await op.commit();
  }

  #remember(lower: string, player: string, m: Membership): void {
    let chan = this.members.get(lower);
    if (!chan) this.members.set(lower, chan = new Map());
    chan.set(player, m);
    let mine = this.aliases.get(player);
    if (!mine) this.aliases.set(player, mine = new Map());
    if (!mine.has(m.alias)) this.aliasUse.set(m.alias, (this.aliasUse.get(m.alias) ?? 0) + 1);
    mine.set(m.alias, lower);
  }

  #dropAlias(mine: Map<string, string>, alias: string): void {
    if (!mine.delete(alias)) return;
    const n = (this.aliasUse.get(alias) ?? 1) - 1;
    if (n > 0) this.aliasUse.set(alias, n);
    else this.aliasUse.delete(alias);
  }

  #forget(lower: string, player: string): void {
    const m = this.members.get(lower)?.get(player);
    this.members.get(lower)?.delete(player);
    const mine = this.aliases.get(player);
    if (!mine) return;
    if (m && mine.get(m.alias) === lower) this.#dropAlias(mine, m.alias);
    for (const [a, c] of mine) if (c === lower) this.#dropAlias(mine, a);
    if (!mine.size) this.aliases.delete(player);
  }
}
