/**
 * Which connected player is in which room, in memory: loaded once at login and
 * kept current by the object store's change events (registry.ts), so room fan-out
 * never reads the database.
 */

/** Room → connected players, and player → room. */
export class RoomIndex {
  readonly #members = new Map<string, Set<string>>();
  readonly #roomOf = new Map<string, string>();

  /** Places a player in a room (moving it if it was elsewhere); false when it was there. */
  place(playerId: string, roomId: string): boolean {
    const prev = this.#roomOf.get(playerId);
    if (prev === roomId) return false;
    if (prev !== undefined) this.#leave(playerId, prev);
    this.#roomOf.set(playerId, roomId);
    let set = this.#members.get(roomId);
    if (!set) {
      set = new Set();
      this.#members.set(roomId, set);
    }
    set.add(playerId);
    return true;
  }

  /** Forgets a player (it went offline). */
  remove(playerId: string): void {
    const prev = this.#roomOf.get(playerId);
    if (prev === undefined) return;
    this.#roomOf.delete(playerId);
    this.#leave(playerId, prev);
  }

  /** The room of a connected player, or undefined. */
  roomOf(playerId: string): string | undefined {
    return this.#roomOf.get(playerId);
  }

  /** True when the player is indexed. */
  has(playerId: string): boolean {
    return this.#roomOf.has(playerId);
  }

  /** The live member set of a room (do not modify), or undefined when empty. */
  members(roomId: string): ReadonlySet<string> | undefined {
    return this.#members.get(roomId);
  }

  #leave(playerId: string, roomId: string): void {
    const set = this.#members.get(roomId);
    if (!set) return;
    set.delete(playerId);
    if (set.size === 0) this.#members.delete(roomId);
  }
}
