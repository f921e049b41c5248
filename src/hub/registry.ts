/**
 * Who is online: every open connection, each logged-in player's connections, the room each
 * connected player is in and its card. The engine's one source of truth for presence: `who`,
 * `GET /api/v1/players/online`, the player cap and fan-out all read it, from memory.
 */
import type { DbObject } from "../world/types.ts";
import type { ObjectChange } from "../world/objects.ts";
import { PlayerCards } from "./cards.ts";
import type { Connection } from "./connection.ts";
import { PlayerTimes } from "./player_times.ts";
import { RoomIndex } from "./rooms.ts";
import type { PlayerCard } from "./types.ts";

/** What a logout left behind. */
export interface Detached {
  playerId: string;
  /** The player's current name (the card follows renames). */
  name: string;
  /** True when the player has no connection left. */
  last: boolean;
  /** The room the player was in (when `last`; it has just been forgotten). */
  room: string | undefined;
}

/** Open connections and the logged-in players behind them. */
export class SessionRegistry {
  readonly #conns = new Map<string, Connection>();
  readonly #players = new Map<string, Set<Connection>>();
  /** Each logged-in player's latest input and earliest connection (see PlayerTimes). */
  readonly #times = new Map<string, PlayerTimes>();
  readonly #rooms = new RoomIndex();
  readonly #cards = new PlayerCards();
  /**
   * Each asked room's connections as one list, made on first ask and all dropped by any change
   * of who is online or where (so none outlives its connection): a busy room's fan-out then
   * walks one array instead of a set of players and a set of connections each, the part of a
   * fan-out that grows with the room.
   */
  readonly #roomLists = new Map<string, readonly Connection[]>();
  /** Logged-in connections (every player's together). */
  #attached = 0;

  /** Records an accepted connection. */
  open(conn: Connection): void {
    this.#conns.set(conn.id, conn);
  }

  /** Forgets a connection; false when it was not (or no longer) registered. */
  close(conn: Connection): boolean {
    if (this.#conns.get(conn.id) !== conn) return false;
    this.#conns.delete(conn.id);
    return true;
  }

  /**
   * Logs a connection in as `player` (synchronous, so two logins cannot both pass a cap
   * checked just before). True when it is the player's first connection.
   */
  attach(conn: Connection, player: DbObject): boolean {
    const id = player.id;
    conn.playerId = id;
    conn.name = player.name;
    let set = this.#players.get(id);
    const first = !set;
    if (!set) {
      set = new Set();
      this.#players.set(id, set);
    }
    let times = this.#times.get(id);
    if (!times) this.#times.set(id, times = new PlayerTimes(set));
    if (!set.has(conn)) this.#attached++;
    set.add(conn);
    conn.times = times;
    times.recount();
    this.#cards.offer(player);
    if (!this.#rooms.has(id)) this.#rooms.place(id, player.location);
    this.#roomLists.clear();
    return first;
  }

  /** Takes a closed connection's player session down; null when it was not logged in. */
  detach(conn: Connection): Detached | null {
    const pid = conn.playerId;
    if (!pid) return null;
    const set = this.#players.get(pid);
    if (set?.delete(conn)) this.#attached--;
    conn.times = null;
    this.#roomLists.clear();
    const name = this.#cards.get(pid)?.name ?? conn.name;
    if (set && set.size > 0) {
      this.#times.get(pid)?.recount();
      return { playerId: pid, name, last: false, room: undefined };
    }
    this.#players.delete(pid);
    this.#times.delete(pid);
    this.#cards.delete(pid);
    const room = this.#rooms.roomOf(pid);
    this.#rooms.remove(pid);
    return { playerId: pid, name, last: true, room };
  }

  /**
   * A committed change to a connected player (from any writer: commands, @teleport, building,
   * REST) refreshes its card and, when it moved, its place in the room index: the one path
   * that keeps the index right. Returns the new card, or null for anything else.
   */
  changed(change: ObjectChange): PlayerCard | null {
    const card = this.#cards.apply(change);
    const to = change.after?.location;
    if (card && to && this.#rooms.has(card.id) && this.#rooms.place(card.id, to)) {
      this.#roomLists.clear();
    }
    return card;
  }

  /**
   * Offers a fresh read of a player to its card; a newer read also corrects the room index (it
   * saw a change the store's events did not bring). True when the card was refreshed.
   */
  refresh(player: DbObject): boolean {
    if (!this.#cards.refresh(player)) return false;
    if (
      player.location && this.#rooms.has(player.id) &&
      this.#rooms.place(player.id, player.location)
    ) {
      this.#roomLists.clear();
    }
    return true;
  }

  /** Every open connection, logged in or not. */
  connections(): IterableIterator<Connection> {
    return this.#conns.values();
  }

  /** Number of open connections. */
  get connectionCount(): number {
    return this.#conns.size;
  }

  /** The live connection set of a player (do not modify), or undefined when offline. */
  connectionsOf(playerId: string): ReadonlySet<Connection> | undefined {
    return this.#players.get(playerId);
  }

  /** Logged-in players and their connections, in order of login (live; do not modify). */
  sessions(): ReadonlyMap<string, ReadonlySet<Connection>> {
    return this.#players;
  }

  /** A logged-in player's latest input and earliest connection, or undefined when offline. */
  times(playerId: string): PlayerTimes | undefined {
    return this.#times.get(playerId);
  }

  /** True when the player has at least one connection. */
  isOnline(playerId: string): boolean {
    return this.#players.has(playerId);
  }

  /** Logged-in connections, every player's together. */
  get loggedInCount(): number {
    return this.#attached;
  }

  /** The logged-in connection with this id, if any. */
  loggedIn(id: string): Connection | undefined {
    const c = this.#conns.get(id);
    return c?.playerId ? c : undefined;
  }

  /** Number of players online. */
  get onlineCount(): number {
    return this.#players.size;
  }

  /** A connected player's card, or undefined. */
  card(playerId: string): PlayerCard | undefined {
    return this.#cards.get(playerId);
  }

  /** The card of the connected player with this name (any case), or undefined. */
  cardByName(name: string): PlayerCard | undefined {
    return this.#cards.byName(name);
  }

  /** The room of a connected player, or undefined. */
  roomOf(playerId: string): string | undefined {
    return this.#rooms.roomOf(playerId);
  }

  /** The live member set of a room (do not modify), or undefined when nobody is there. */
  members(roomId: string): ReadonlySet<string> | undefined {
    return this.#rooms.members(roomId);
  }

  /**
   * The connections of everyone in a room, player by player in the order of `members` (do not
   * modify; valid until the next change of presence), or undefined when nobody is there.
   */
  roomConnections(roomId: string): readonly Connection[] | undefined {
    const made = this.#roomLists.get(roomId);
    if (made !== undefined) return made;
    const members = this.#rooms.members(roomId);
    if (!members) return undefined;
    const list: Connection[] = [];
    for (const pid of members) {
      const set = this.#players.get(pid);
      if (set) { for (const c of set) list.push(c); }
    }
    this.#roomLists.set(roomId, list);
    return list;
  }
}
