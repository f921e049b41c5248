/**
 * Channel rules: names, aliases, locks, who may read and talk, and delivery to
 * online members through the hub. Errors are typed, so the same refusals read
 * well in game and over REST.
 */
import {
  checkLock,
  type DbObject,
  type Delivery,
  ForbiddenError,
  isStaff,
  type LockSubject,
  NotFoundError,
  type Page,
  type PlayerLookup,
  type PluginWorld,
  RateLimitError,
  stripColour,
  ValidationError,
  validLock,
} from "../../src/plugins/mod.ts";
import type { Channel, ChannelStore, HistoryEntry } from "./store.ts";
import { bridgeName, bridgeText, SOURCE_RE } from "./bridge.ts";
import type { BridgeLine, ChannelLine, LineKind } from "./bridge.ts";
import type { DefaultChannel } from "./defaults.ts";

/** Channel names: letters, digits, `-` and `_`, 1 to 32 of them. */
export const CHANNEL_NAME_RE = /^[A-Za-z0-9_-]{1,32}$/;
/** Aliases: lower-case letters, digits, `-` and `_`, 1 to 16 of them. */
export const ALIAS_RE = /^[a-z0-9_-]{1,16}$/;
/** Longest header. */
export const MAX_HEADER = 64;
/** Longest message. */
export const MAX_MESSAGE = 4000;

/**
 * Default of `plugins.channels.linesPerMinute`: lines one player (with their things) may say on
 * channels a minute, after a burst of as many. A channel reaches everyone on it: without a limit,
 * `@dolist lnum(99)=pub spam` typed ten times a second put a thousand lines a second before every
 * player on Public.
 */
export const DEFAULT_LINES_PER_MINUTE = 60;

/** Default of `plugins.channels.announceJoins`: the most members a join is announced to. */
export const DEFAULT_ANNOUNCE_JOINS = 100;

/** Members above which one scan of the player index beats reading each member. */
const SCAN_ABOVE = 1000;

/**
 * Which of a batch of ids are still players. Few members: read just them. Many: one
 * scan of the player-flag index (measured: 20 000 members, 0.7 s of reads vs 0.2 s).
 */
export function playerCheck(
  objects: Pick<PluginWorld, "flagged" | "idsWithFlag">,
  members: number,
): (ids: string[]) => Promise<Set<string>> {
  if (members <= SCAN_ABOVE) {
    // The flag index, not the objects: a player whose record cannot be read (until staff
    // repair it) is still a player and keeps their channels.
    return (ids) => objects.flagged(ids, "player");
  }
  let all: Promise<Set<string>> | undefined;
  return async (ids) => {
    all ??= objects.idsWithFlag("player").then((list) => new Set(list));
    const players = await all;
    return new Set(ids.filter((id) => players.has(id)));
  };
}

/** Who is asking: an id and flags (null for an anonymous REST caller). */
export interface Viewer {
  id: string;
  flags: readonly string[];
}

/** What the service needs of the engine. */
export interface ChannelDeps {
  store: ChannelStore;
  /** The engine's lock check (`ctx.world.passes`); without it, keys that read the world fail. */
  passes?: (lock: string, subject: LockSubject) => boolean;
  /**
   * A lock as a player sets it, names resolved as the setter sees them (`ctx.world.settableLock`);
   * without it, locks set name objects by dbref only.
   */
  settableLock?: (actor: DbObject, expr: string) => Promise<string>;
  /** Delivery to players (`ctx.deliver`). */
  deliver: Pick<Delivery, "toPlayers">;
  /** Who is connected and the names others see. */
  players: Pick<PlayerLookup, "isConnected" | "displayName">;
  /** True when a word is an in-game command (such aliases would never be reached). */
  isCommand: (word: string) => boolean;
  /** Messages kept per channel. */
  historyLimit: () => number;
  /** Called after channels or aliases change. */
  onChange: () => void;
  /**
   * Joins and leaves are announced on a channel of at most this many members
   * (`plugins.channels.announceJoins`): on a larger one each would reach everyone on it, so a
   * storm of new players (each joining the default channels) would cost in proportion to who is
   * online. 0: never.
   */
  announceJoins?: () => number;
  /** The alias a default channel gives joiners (by lower-cased name), when configured. */
  defaultAlias?: (lowerName: string) => string | undefined;
  /** A player joined (`true`) or left a channel (GMCP clients are told). */
  membership?: (playerId: string, channel: string, joined: boolean) => void;
  /**
   * Counts a line `actor` says against the talk rate of the player who pays for it (itself, or
   * the player owning a thing), throwing a RateLimitError when it is spent. Absent: no limit.
   */
  talkRate?: (actor: DbObject) => Promise<void>;
}

/** Says whether a channel name is acceptable; throws ValidationError otherwise. */
export function checkName(name: string): string {
  const n = String(name ?? "").trim();
  if (!CHANNEL_NAME_RE.test(n)) {
    throw new ValidationError("Channel names are 1-32 letters, digits, - or _.");
  }
  return n;
}

/** Parses yes/no words for `@chanset`. */
export function parseBool(value: string): boolean {
  const v = value.trim().toLowerCase();
  if (["1", "yes", "true", "on"].includes(v)) return true;
  if (["0", "no", "false", "off"].includes(v)) return false;
  throw new ValidationError("Use yes or no.");
}

function checkHeader(header: string, name: string): string {
  const h = header.trim() || `[${name}]`;
  if (h.length > MAX_HEADER) {
    throw new ValidationError(`Headers are at most ${MAX_HEADER} characters.`);
  }
  // `%r` is a line break once rendered; `%%r` is a literal and fine.
  if (/[\r\n]/.test(stripColour(h))) throw new ValidationError("Headers are one line.");
  return h;
}

/** Adds a reset after text that uses colour codes, so colour never bleeds past it. */
export function closed(text: string): string {
  return /%c[a-z]/i.test(text) ? `${text}%cn` : text;
}

/** The channel rules. */
export class ChannelService {
  #sinceprune = new Map<string, number>();
  /** Bridges listening to every line (ChannelsApi.onLine). */
  #listeners = new Set<(line: ChannelLine) => void>();

  constructor(private readonly d: ChannelDeps) {}

  /** The store (read-only use by commands and routes). */
  get store(): ChannelStore {
    return this.d.store;
  }

  /** A channel by name (case-insensitive). */
  byName(name: string): Channel | undefined {
    return this.d.store.channels.get(String(name ?? "").trim().toLowerCase());
  }

  /** A channel by one of the player's aliases, then by name. */
  resolve(playerId: string, ref: string): Channel | undefined {
    const r = String(ref ?? "").trim().toLowerCase();
    const viaAlias = this.d.store.aliases.get(playerId)?.get(r);
    return (viaAlias ? this.d.store.channels.get(viaAlias) : undefined) ?? this.byName(r);
  }

  /**
   * A channel by name as `v` may know of it: a hidden one is absent to outsiders (neither staff
   * nor on it), as in the lists.
   */
  known(v: Viewer, name: string): Channel | undefined {
    const ch = this.byName(name);
    if (!ch || (ch.hidden && !isStaff(v.flags) && !this.isMember(ch, v.id))) return undefined;
    return ch;
  }

  /** True when the player is on the channel. */
  isMember(ch: Channel, playerId: string): boolean {
    return !!this.d.store.members.get(ch.name.toLowerCase())?.has(playerId);
  }

  /** Number of members. */
  memberCount(ch: Channel): number {
    return this.d.store.members.get(ch.name.toLowerCase())?.size ?? 0;
  }

  /** The player's alias on a channel, if a member. */
  aliasOf(ch: Channel, playerId: string): string | undefined {
    return this.d.store.members.get(ch.name.toLowerCase())?.get(playerId)?.alias;
  }

  /** True when the viewer passes the channel's lock (everyone passes an empty lock). */
  passes(ch: Channel, v: Viewer, connected = true): boolean {
    const subject = { id: `#${v.id}`, flags: v.flags, connected };
    return !ch.lock || (this.d.passes ?? checkLock)(ch.lock, subject);
  }

  /** Channels a viewer may see listed: hidden ones only for members and staff. */
  visible(v: Viewer | null): Channel[] {
    return [...this.d.store.channels.values()]
      .filter((ch) => !ch.hidden || (v && (isStaff(v.flags) || this.isMember(ch, v.id))))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * The channel whose history a viewer may read: hidden channels look absent to
   * outsiders; locked ones are for members (staff may read everything).
   */
  readable(v: Viewer, name: string): Channel {
    const ch = this.byName(name);
    const staff = isStaff(v.flags);
    if (!ch || (ch.hidden && !staff && !this.isMember(ch, v.id))) {
      throw new NotFoundError("Not found");
    }
    if (ch.lock && !staff && !this.isMember(ch, v.id)) {
      throw new ForbiddenError("Only members may read this channel's history.");
    }
    return ch;
  }

  /**
   * One page of history (counted back from the newest, oldest first) as a viewer sees
   * it: masked speakers stay masked except for staff.
   */
  async history(v: Viewer, ch: Channel, page: Page) {
    const staff = isStaff(v.flags);
    const entries = await this.d.store.history(ch.name.toLowerCase(), page);
    return entries.map((e) => ({
      sender: e.masked && !staff ? "Someone" : e.sender,
      message: e.message,
      kind: e.kind,
      timestamp: e.timestamp,
    }));
  }

  /** Creates a channel (staff). */
  async create(
    actor: DbObject,
    name: string,
    opts: { header?: string; hidden?: boolean; lock?: string },
  ): Promise<Channel> {
    const n = checkName(name);
    if (this.byName(n)) throw new ValidationError(`There is already a channel called ${n}.`);
    const ch: Channel = {
      name: n,
      header: checkHeader(opts.header ?? "", n),
      hidden: !!opts.hidden,
      lock: await this.#lockAs(actor, opts.lock ?? ""),
      masking: false,
      createdAt: Date.now(),
      createdBy: actor.id,
    };
    if (!(await this.d.store.create(ch))) {
      throw new ValidationError(`There is already a channel called ${n}.`);
    }
    this.d.onChange();
    return ch;
  }

  /**
   * Creates the default channels of a fresh game (nobody's, like the rest of the game's fittings);
   * returns why each one that could not be made was left out.
   */
  async seed(list: readonly DefaultChannel[]): Promise<string[]> {
    const problems: string[] = [];
    for (const d of list) {
      try {
        const name = checkName(d.name);
        if (this.byName(name)) continue;
        await this.d.store.create({
          name,
          header: checkHeader(d.header ?? "", name),
          hidden: !!d.hidden,
          lock: validLock(d.lock ?? ""),
          masking: false,
          createdAt: Date.now(),
          createdBy: "",
        });
      } catch (e) {
        if (!(e instanceof ValidationError)) throw e;
        problems.push(`default channel '${String(d.name).slice(0, 40)}' not made: ${e.message}`);
      }
    }
    this.d.onChange();
    return problems;
  }

  /** Destroys a channel, telling its online members. */
  async destroy(name: string): Promise<Channel> {
    const ch = this.byName(name);
    if (!ch) throw new NotFoundError(`There is no channel called ${String(name).slice(0, 40)}.`);
    this.#system(ch, `This channel has been destroyed.`);
    await this.d.store.destroy(ch.name.toLowerCase());
    this.#sinceprune.delete(ch.name.toLowerCase());
    this.d.onChange();
    return ch;
  }

  /** A channel lock set by `actor` (null: no one in particular), ready to store. */
  async #lockAs(actor: DbObject | null, expr: string): Promise<string> {
    return actor && this.d.settableLock ? await this.d.settableLock(actor, expr) : validLock(expr);
  }

  /** Changes one setting: header, lock (set as `actor` sees names), hidden or masking. */
  async set(
    name: string,
    prop: string,
    value: string,
    actor: DbObject | null = null,
  ): Promise<Channel> {
    const ch = this.byName(name);
    if (!ch) throw new NotFoundError(`There is no channel called ${String(name).slice(0, 40)}.`);
    const next = { ...ch };
    switch (prop.trim().toLowerCase()) {
      case "header":
        next.header = checkHeader(value, ch.name);
        break;
      case "lock":
        next.lock = await this.#lockAs(actor, value);
        break;
      case "hidden":
        next.hidden = parseBool(value);
        break;
      case "masking":
      case "mask":
        next.masking = parseBool(value);
        break;
      default:
        throw new ValidationError("You can set header, lock, hidden or masking.");
    }
    await this.d.store.save(next);
    return next;
  }

  /**
   * Joins the actor to a channel under an alias: the one given, else the one it has there
   * already, else the channel's configured default (`o` for OOC, whose three letters are a
   * command), else the first three letters of the name. An announced join counts against the
   * actor's talk rate unless `byGame`.
   */
  async join(
    actor: DbObject,
    name: string,
    alias?: string,
    opts: { byGame?: boolean } = {},
  ): Promise<{ ch: Channel; alias: string }> {
    const ch = this.byName(name);
    if (!ch || (ch.hidden && !this.passes(ch, actor) && !isStaff(actor.flags))) {
      throw new NotFoundError(`There is no channel called ${String(name).trim().slice(0, 40)}.`);
    }
    if (!this.passes(ch, actor)) throw new ForbiddenError(`You may not join ${ch.name}.`);
    const a = (alias?.trim() || this.aliasOf(ch, actor.id) ||
      this.d.defaultAlias?.(ch.name.toLowerCase()) || ch.name.slice(0, 3)).toLowerCase();
    if (!ALIAS_RE.test(a)) {
      throw new ValidationError("Aliases are 1-16 lower-case letters, digits, - or _.");
    }
    if (this.d.isCommand(a)) {
      throw new ValidationError(`'${a}' is a command; choose another alias.`);
    }
    const taken = this.d.store.aliases.get(actor.id)?.get(a);
    if (taken && taken !== ch.name.toLowerCase()) {
      const other = this.d.store.channels.get(taken)?.name ?? taken;
      throw new ValidationError(`You already use the alias '${a}' for ${other}.`);
    }
    const was = this.isMember(ch, actor.id);
    // Announced when the channel holds few enough members with the actor among them.
    const told = !was && this.#announces(ch, 1);
    // An announced join is a line to every member: it is talk, held to the talk rate (before
    // anything is stored), or joins and leaves in a loop would reach everyone unheld.
    // A join the game makes (a new player's default channels) is none of the player's talk.
    if (told && !opts.byGame) await this.d.talkRate?.(actor);
    await this.d.store.join(ch.name.toLowerCase(), actor.id, a);
    if (told) {
      this.#system(
        ch,
        `${ch.masking ? "Someone" : this.d.players.displayName(actor)} has joined this channel.`,
      );
    }
    this.d.onChange();
    if (!was) this.d.membership?.(actor.id, ch.name, true);
    return { ch, alias: a };
  }

  /** Takes the actor off a channel (by name or alias). */
  async leave(actor: DbObject, ref: string): Promise<Channel> {
    const ch = this.resolve(actor.id, ref);
    if (!ch || !this.isMember(ch, actor.id)) {
      throw new NotFoundError(
        `You are not on a channel called ${String(ref).trim().slice(0, 40)}.`,
      );
    }
    // Leaving is never refused: past the talk rate (see join) it is only not announced.
    if (this.#announces(ch) && await this.#mayTalk(actor)) {
      this.#system(
        ch,
        `${ch.masking ? "Someone" : this.d.players.displayName(actor)} has left this channel.`,
      );
    }
    await this.d.store.leave(ch.name.toLowerCase(), actor.id);
    this.d.onChange();
    this.d.membership?.(actor.id, ch.name, false);
    return ch;
  }

  /** True when `actor` may say one more line by the talk rate (which counts it). */
  async #mayTalk(actor: DbObject): Promise<boolean> {
    try {
      await this.d.talkRate?.(actor);
      return true;
    } catch (e) {
      if (e instanceof RateLimitError) return false;
      throw e;
    }
  }

  /**
   * Drops a removed player's memberships (toaded or destroyed: nobody is left to leave
   * them). Synchronous for everything others see; the promise is the KV write.
   */
  forget(playerId: string): Promise<number> {
    if (!this.d.store.aliases.has(playerId)) return Promise.resolve(0);
    const done = this.d.store.dropPlayer(playerId);
    this.d.onChange();
    return done;
  }

  /**
   * Drops the memberships of ids that are no longer players (removed while the plugin
   * was not running to hear of it). `players` answers which of a batch of ids still are.
   */
  async forgetMissing(players: (ids: string[]) => Promise<Set<string>>): Promise<number> {
    const ids = [...this.d.store.aliases.keys()];
    let dropped = 0;
    for (let i = 0; i < ids.length; i += 100) {
      const batch = ids.slice(i, i + 100);
      const alive = await players(batch);
      for (const id of batch) {
        if (!alive.has(id) && await this.d.store.dropPlayer(id)) dropped++;
      }
    }
    if (dropped) this.d.onChange();
    return dropped;
  }

  /**
   * Says, poses (`:text`) or semiposes (`;text`) on a channel. The actor must be a
   * member and pass the lock. Stored in history first, then delivered to online members
   * from memory.
   */
  async talk(actor: DbObject, ch: Channel, raw: string): Promise<void> {
    if (!this.isMember(ch, actor.id)) throw new ForbiddenError(`You are not on ${ch.name}.`);
    if (!this.passes(ch, actor)) throw new ForbiddenError(`You may not talk on ${ch.name}.`);
    let text = String(raw ?? "").trim();
    let kind: LineKind = "say";
    if (text.startsWith(":")) {
      kind = "pose";
      text = text.slice(1).replace(/^ /, "");
    } else if (text.startsWith(";")) {
      kind = "semipose";
      text = text.slice(1);
    }
    if (!stripColour(text).trim()) {
      throw new ValidationError(`What do you want to say on ${ch.name}?`);
    }
    if (text.length > MAX_MESSAGE) {
      throw new ValidationError(`Messages are at most ${MAX_MESSAGE} characters.`);
    }
    await this.d.talkRate?.(actor);
    await this.#say(ch, {
      shown: closed(this.d.players.displayName(actor)),
      sender: actor.name,
      senderId: actor.id,
      text,
      kind,
      source: null,
    });
  }

  /**
   * Says a line for a user of another system (a bridge: ChannelsApi.speakAs) as
   * `<name>@<source>`. Its text is taken literally (see bridgeText); no membership or lock is
   * asked of it: staff chose which channels a bridge speaks on.
   */
  async speakAs(line: BridgeLine): Promise<void> {
    const ch = this.byName(String(line?.channel ?? ""));
    if (!ch) {
      throw new NotFoundError(`There is no channel called ${String(line?.channel).slice(0, 40)}.`);
    }
    const source = String(line.source ?? "");
    if (!SOURCE_RE.test(source)) {
      throw new ValidationError("A bridge source is 1-16 letters or digits.");
    }
    const kind: LineKind = line.kind === "pose" || line.kind === "semipose" ? line.kind : "say";
    const text = bridgeText(line.text, MAX_MESSAGE);
    if (!text) throw new ValidationError(`What do you want to say on ${ch.name}?`);
    const who = `${bridgeName(line.name)}@${source}`;
    await this.#say(ch, { shown: who, sender: who, senderId: "", text, kind, source });
  }

  /** Adds a listener of every line said (ChannelsApi.onLine); returns its remover. */
  onLine(fn: (line: ChannelLine) => void): () => void {
    if (typeof fn !== "function") throw new ValidationError("onLine needs a function");
    this.#listeners.add(fn);
    return () => void this.#listeners.delete(fn);
  }

  /** Stores a line, delivers it to online members, then tells the bridges. */
  async #say(
    ch: Channel,
    l: {
      shown: string;
      sender: string;
      senderId: string;
      text: string;
      kind: LineKind;
      source: string | null;
    },
  ): Promise<void> {
    const { text, kind } = l;
    const sender = ch.masking ? "Someone" : l.shown;
    // A bridge's text has no codes (every % is doubled): nothing to close.
    const said = l.source ? text : closed(text);
    const body = kind === "say"
      ? `${sender} says, "${said}"`
      : kind === "pose"
      ? `${sender} ${said}`
      : `${sender}${said}`;
    const entry: HistoryEntry = {
      sender: l.sender,
      senderId: l.senderId,
      message: text,
      kind,
      masked: ch.masking,
      timestamp: Date.now(),
    };
    const lower = ch.name.toLowerCase();
    // Stored before anyone hears it: a line its speaker saw is in the history even if the
    // engine dies right after.
    await this.d.store.append(lower, entry);
    this.#deliver(ch, `${closed(ch.header)} ${body}`, {
      type: "channel",
      channel: ch.name,
      sender,
      text,
      kind,
      header: ch.header,
    });
    const n = (this.#sinceprune.get(lower) ?? 0) + 1;
    this.#sinceprune.set(lower, n);
    if (n >= 100) {
      this.#sinceprune.set(lower, 0);
      this.d.store.prune(lower, this.d.historyLimit()).catch((e) =>
        console.error("channels: pruning history failed:", e)
      );
    }
    if (!this.#listeners.size) return;
    const heard: ChannelLine = {
      channel: ch.name,
      sender: ch.masking ? "Someone" : l.sender,
      senderId: ch.masking ? "" : l.senderId,
      text,
      kind,
      masked: ch.masking,
      source: l.source,
    };
    for (const fn of this.#listeners) {
      try {
        fn(heard);
      } catch (e) {
        console.error("channels: a line listener failed:", e);
      }
    }
  }

  /**
   * True when `v` controls the channel as MUX's comsys asks it of `@cemit` and `cwho()`: staff, by
   * the rank `v` has now. Its maker had to be staff to make it (`@chancreate`), and keeps nothing
   * of it once demoted: MUX's control by its `charge_who` outlived the rank that made it.
   */
  controls(_ch: Channel, v: Viewer): boolean {
    return isStaff(v.flags);
  }

  /** Ids of every member, connected or not. */
  memberIds(ch: Channel): string[] {
    return [...(this.d.store.members.get(ch.name.toLowerCase())?.keys() ?? [])];
  }

  /**
   * `@cemit` and `cemit()`: sends `text` to the channel's online members, after its header
   * unless `header` is false. Staff only (see `controls`). Said by the channel itself, so
   * it is delivered as its join and leave notices are, and not kept in the history.
   */
  emit(actor: DbObject, name: string, text: string, header: boolean): Channel {
    const ch = this.known(actor, name);
    if (!ch) throw new NotFoundError(`There is no channel called ${String(name).slice(0, 40)}.`);
    if (!this.controls(ch, actor)) throw new ForbiddenError("Permission denied.");
    const said = String(text ?? "");
    if (said.length > MAX_MESSAGE) {
      throw new ValidationError(`Messages are at most ${MAX_MESSAGE} characters.`);
    }
    this.#system(ch, said, header);
    return ch;
  }

  /** Ids of online members. */
  online(ch: Channel): string[] {
    const members = this.d.store.members.get(ch.name.toLowerCase());
    if (!members) return [];
    return [...members.keys()].filter((id) => this.d.players.isConnected(id));
  }

  /**
   * True when a join or leave on `ch` is announced (see `announceJoins`), counting `more`
   * members not yet stored.
   */
  #announces(ch: Channel, more = 0): boolean {
    const limit = this.d.announceJoins?.() ?? DEFAULT_ANNOUNCE_JOINS;
    return (this.d.store.members.get(ch.name.toLowerCase())?.size ?? 0) + more <= limit;
  }

  #system(ch: Channel, text: string, header = true): void {
    this.#deliver(ch, header ? `${closed(ch.header)} ${closed(text)}` : closed(text), {
      type: "channel",
      channel: ch.name,
      sender: "",
      text,
      kind: "system",
      header: ch.header,
    });
  }

  /** Sends to online members: one message, encoded once for all of them. */
  #deliver(ch: Channel, msg: string, data: { type: string; [k: string]: unknown }): void {
    const members = this.d.store.members.get(ch.name.toLowerCase());
    if (members?.size) this.d.deliver.toPlayers(members, { msg, data });
  }
}
