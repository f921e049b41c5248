/**
 * The players service: finding players by name, alias or dbref, resolving lists of names,
 * who is connected, and the name others see. One implementation for core commands (`page`,
 * `*name` targets, `@alias`) and plugins (`ctx.players`). Lookups go through the unique name
 * and alias indexes, never a scan; who is connected comes from the hub's memory.
 */
import type { DbObject, ObjectHead } from "./types.ts";
import type { ObjectStore } from "./objects.ts";
import { normalizeId } from "./ids.ts";
import { playerNameProblem } from "./names.ts";
import { ValidationError } from "../errors.ts";

/** Longest text taken as one player reference (names and aliases are at most 32 characters). */
const MAX_REF = 64;
/** Most names one `findMany` resolves (mail's `to`, page's list). */
export const MAX_NAMES = 100;
/** Most aliases one player holds (PennMUSH's default `max_aliases`). */
export const MAX_ALIASES = 3;

/** The result of resolving a list of names: who was found, and what matched nobody. */
export interface FoundPlayers {
  /** The players found, in the order first named, each once. */
  found: DbObject[];
  /** The references that name no player, as typed. */
  unknown: string[];
  /** One entry per reference, in order: the player it names, or null. */
  each: (DbObject | null)[];
}

/** Player lookup as plugins see it (`ctx.players`). */
export interface PlayerLookup {
  /**
   * A player by `name`, alias, `#dbref` (or bare dbref digits), `*name`, or `me` (the actor's
   * own object, when an actor is given); case-insensitive. Null when nothing matches or the
   * dbref is not a player.
   */
  find(ref: string, actor?: DbObject): Promise<DbObject | null>;
  /**
   * Resolves a list of references at once (`"Alice, bob #12"`, or an array): the players
   * found and the references that matched nobody. Reads are batched. At most MAX_NAMES.
   */
  findMany(refs: string | readonly string[], actor?: DbObject): Promise<FoundPlayers>;
  /** True while the player has at least one connection (from memory: no database read). */
  isConnected(playerId: string): boolean;
  /** Ids of the players connected now, in order of login (from memory: no database read). */
  online(): readonly string[];
  /** The name others see: the colour-coded moniker when set, else the plain name. */
  displayName(player: Pick<ObjectHead, "name" | "data">): string;
  /** A player's aliases as set with `@alias` (as typed, not lower-cased). */
  aliasesOf(player: DbObject): string[];
}

/** What the service needs of the hub's presence: who is connected, from memory. */
export interface ConnectionSource {
  /** True when the player has at least one connection. */
  isOnline(playerId: string): boolean;
  /** Ids of connected players, in order of login. */
  onlinePlayers(): readonly string[];
}

/** The name others see: the colour-coded moniker when set, else the plain name. */
export function displayName(obj: Pick<ObjectHead, "name" | "data">): string {
  const m = obj.data?.moniker;
  return typeof m === "string" && m ? m : obj.name;
}

/** Splits `"a, b c"` into references (commas and white space separate them). */
export function splitNames(list: string): string[] {
  return String(list ?? "").split(/[\s,]+/).filter(Boolean);
}

/** Finds players; sets aliases (the `@alias` command). */
export class Players implements PlayerLookup {
  constructor(
    private readonly objects: ObjectStore,
    private readonly hub: ConnectionSource,
  ) {}

  async find(ref: string, actor?: DbObject): Promise<DbObject | null> {
    return (await this.findMany([ref], actor)).found[0] ?? null;
  }

  async findMany(refs: string | readonly string[], actor?: DbObject): Promise<FoundPlayers> {
    const list = typeof refs === "string" ? splitNames(refs) : refs.map((r) => String(r ?? ""));
    if (list.length > MAX_NAMES) {
      throw new ValidationError(`At most ${MAX_NAMES} names at once.`);
    }
    // Each reference becomes an id (dbref, `me`) or a lower-cased word for both indexes.
    const parsed = list.map((raw) => {
      const r = raw.trim();
      if (actor && r.toLowerCase() === "me") return { raw, id: actor.id };
      if (/^#?\d+$/.test(r)) return { raw, id: normalizeId(r) };
      const word = (r.startsWith("*") ? r.slice(1) : r).trim().toLowerCase();
      return { raw, word: word && word.length <= MAX_REF ? word : null };
    });
    const words = [...new Set(parsed.flatMap((p) => ("word" in p && p.word ? [p.word] : [])))];
    const byWord = new Map(
      (await this.objects.playerIdsByWord(words)).map((id, i) => [words[i], id]),
    );
    const ids = parsed.map((p) => ("id" in p ? p.id : p.word ? byWord.get(p.word) ?? null : null));
    const wanted = [...new Set(ids.filter((id): id is string => !!id && id !== actor?.id))];
    const objects = new Map<string, DbObject>();
    if (actor) objects.set(actor.id, actor);
    for (const o of await this.objects.getMany(wanted)) objects.set(o.id, o);
    const each = ids.map((id) => {
      const p = id ? objects.get(id) : undefined;
      return p && p.flags.includes("player") ? p : null;
    });
    const found = [...new Map(each.filter((p) => p !== null).map((p) => [p.id, p])).values()];
    const unknown = list.filter((_, i) => each[i] === null);
    return { found, unknown, each };
  }

  isConnected(playerId: string): boolean {
    return this.hub.isOnline(playerId);
  }

  online(): readonly string[] {
    return this.hub.onlinePlayers();
  }

  displayName(player: Pick<ObjectHead, "name" | "data">): string {
    return displayName(player);
  }

  aliasesOf(player: DbObject): string[] {
    const list = player.data?.aliases;
    return Array.isArray(list) ? list.filter((a): a is string => typeof a === "string") : [];
  }

  /**
   * Replaces a player's aliases (an empty list clears them). Each must be a valid player
   * name, none the player's own name, at most MAX_ALIASES; a word another player holds as
   * name or alias is refused (ConflictError from the store, which checks both indexes in
   * the same commit). Permission is the caller's to check.
   */
  async setAliases(playerId: string, aliases: readonly string[]): Promise<DbObject> {
    const clean = aliases.map((a) => String(a ?? "").trim()).filter(Boolean);
    if (clean.length > MAX_ALIASES) {
      throw new ValidationError(`A player may have at most ${MAX_ALIASES} aliases.`);
    }
    const seen = new Set<string>();
    for (const a of clean) {
      const problem = playerNameProblem(a);
      if (problem) {
        throw new ValidationError(`'${a.slice(0, 40)}' won't do as an alias: ${problem}.`);
      }
      if (seen.has(a.toLowerCase())) throw new ValidationError(`'${a}' is listed twice.`);
      seen.add(a.toLowerCase());
    }
    return await this.objects.update(playerId, (o) => {
      if (!o.flags.includes("player")) throw new ValidationError("Only players have aliases.");
      const own = o.name.toLowerCase();
      if (seen.has(own)) throw new ValidationError("An alias must differ from the player's name.");
      if (clean.length) o.data.aliases = clean;
      else delete o.data.aliases;
    });
  }
}
