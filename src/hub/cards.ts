/**
 * What the hub keeps of each connected player for output: name, moniker, flags, owner, colour
 * and `@doing`.
 * Loaded at login and kept current from the object store's change events, so `look`, `who`,
 * `page` and the disconnect line never read the database for each player present.
 */
import type { DbObject } from "../world/types.ts";
import type { ObjectChange } from "../world/objects.ts";
import type { PlayerCard } from "./types.ts";
import { colourModeOf } from "../text/colour_mode.ts";

/** Shared by every card without a moniker. */
const NO_MONIKER = Object.freeze({});

/** The card of a player object (a frozen copy of the few fields output reads). */
export function cardOf(p: DbObject): PlayerCard {
  const moniker = p.data?.moniker;
  return Object.freeze({
    id: p.id,
    name: p.name,
    flags: Object.freeze([...p.flags]),
    owner: p.owner,
    data: typeof moniker === "string" && moniker ? Object.freeze({ moniker }) : NO_MONIKER,
    updatedAt: p.updatedAt,
    colour: colourModeOf(p.data?.colour),
    doing: typeof p.data?.doing === "string" ? p.data.doing : "",
  });
}

/** Cards of the tracked (connected) players. */
export class PlayerCards {
  readonly #cards = new Map<string, PlayerCard>();
  /** Lower-case name to id, so `page` finds a connected player without a scan of everyone. */
  readonly #names = new Map<string, string>();

  /** The card of a tracked player, or undefined. */
  get(id: string): PlayerCard | undefined {
    return this.#cards.get(id);
  }

  /** The card of the tracked player with this name (any case), or undefined. */
  byName(name: string): PlayerCard | undefined {
    const id = this.#names.get(name.toLowerCase());
    return id === undefined ? undefined : this.#cards.get(id);
  }

  /** True when the player is tracked. */
  has(id: string): boolean {
    return this.#cards.has(id);
  }

  /**
   * Tracks a player from a read of its object, or refreshes its card when the read is newer
   * (a read may finish after a newer change was already applied, so older reads are ignored).
   * True when the card was made from this read.
   */
  offer(p: DbObject): boolean {
    return this.#offer(p, this.#cards.get(p.id));
  }

  /**
   * Refreshes a tracked player's card from a read; untracked players are ignored. True when
   * the read was newer than the card (a change the card missed, such as one committed while
   * the player's login was still reading it).
   */
  refresh(p: DbObject): boolean {
    // Asked for every command: one lookup.
    const cur = this.#cards.get(p.id);
    return cur !== undefined && this.#offer(p, cur);
  }

  /** Makes the card from `p` unless the held one (`cur`) is as new. */
  #offer(p: DbObject, cur: PlayerCard | undefined): boolean {
    if (cur && cur.updatedAt >= p.updatedAt) return false;
    this.#set(cardOf(p), cur);
    return true;
  }

  /**
   * Applies a committed store change to a tracked player's card and returns the new card;
   * null when the object is not a tracked player or was deleted (the card is kept until the
   * player's connections close).
   */
  apply(change: ObjectChange): PlayerCard | null {
    const after = change.after;
    const cur = after ? this.#cards.get(after.id) : undefined;
    if (!after || !cur) return null;
    const card = cardOf(after);
    this.#set(card, cur);
    return card;
  }

  /** Stops tracking a player (its last connection closed). */
  delete(id: string): void {
    const cur = this.#cards.get(id);
    if (cur) this.#forgetName(cur);
    this.#cards.delete(id);
  }

  #set(card: PlayerCard, cur: PlayerCard | undefined): void {
    if (cur && cur.name !== card.name) this.#forgetName(cur);
    this.#cards.set(card.id, card);
    this.#names.set(card.name.toLowerCase(), card.id);
  }

  /** Drops a card's name, unless another player took that name meanwhile (a rename race). */
  #forgetName(card: PlayerCard): void {
    const lower = card.name.toLowerCase();
    if (this.#names.get(lower) === card.id) this.#names.delete(lower);
  }

  /** Number of tracked players. */
  get size(): number {
    return this.#cards.size;
  }
}
