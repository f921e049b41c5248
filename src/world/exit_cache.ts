/**
 * The exits of recently used rooms, in memory. Every plain word a player types is first
 * matched against the exits of the room (MUSH order), so without this each command would
 * wait for two sequential database reads (the room's exit index, then the exits).
 */
import type { DbObject, ObjectChange } from "./types.ts";
import { deepFreeze } from "./freeze.ts";

/** Room id → its exits, bounded, dropped whenever an exit in that room changes. */
export class ExitCache {
  readonly #rooms = new Map<string, readonly DbObject[]>();
  /** Bumped by every change to an exit, so a read that overlapped one is not stored. */
  #epoch = 0;

  constructor(private readonly maxRooms = 2000) {}

  /** The cached exits of a room, or undefined. */
  get(roomId: string): readonly DbObject[] | undefined {
    const exits = this.#rooms.get(roomId);
    if (exits) {
      // Most recently used last, so the oldest entry is the first to go.
      this.#rooms.delete(roomId);
      this.#rooms.set(roomId, exits);
    }
    return exits;
  }

  /** The epoch to pass to `set` for a read that starts now. */
  get epoch(): number {
    return this.#epoch;
  }

  /** Stores what a read found, unless an exit changed since it started (at `epoch`). */
  set(roomId: string, exits: DbObject[], epoch: number): readonly DbObject[] {
    const frozen = deepFreeze(exits);
    if (epoch !== this.#epoch) return frozen;
    this.#rooms.set(roomId, frozen);
    if (this.#rooms.size > this.maxRooms) {
      const oldest = this.#rooms.keys().next().value;
      if (oldest !== undefined) this.#rooms.delete(oldest);
    }
    return frozen;
  }

  /** Drops the rooms a committed change to an exit touches (where it was and where it is). */
  changed({ before, after }: ObjectChange): void {
    const isExit = (o: DbObject | null) => o !== null && o.flags.includes("exit");
    if (!isExit(before) && !isExit(after)) return;
    this.#epoch++;
    if (before) this.#rooms.delete(before.location);
    if (after) this.#rooms.delete(after.location);
  }

  /** Number of rooms held. */
  get size(): number {
    return this.#rooms.size;
  }
}
