/**
 * The engine's one delivery: to a player, a list of players, a room or everyone logged in, from
 * the session registry in memory. Commands (`u.send`, `u.emitRoom`), plugins (`ctx.deliver`),
 * scripts (`u.send`, `u.here.broadcast`) and the hub's own messages all come through here. Each
 * message is encoded once (EncodedFrame), never once per recipient, and its plugin-declared GMCP
 * form is built at most once; each connection's carrier takes the form it needs.
 */
import type { Connection } from "./connection.ts";
import type { GmcpMap } from "./gmcp_map.ts";
import { EncodedFrame } from "./protocol.ts";
import type { SessionRegistry } from "./registry.ts";
import type { Delivery as DeliveryApi, Outbound, PlayerIds } from "./types.ts";

function deliverAll(set: ReadonlySet<Connection>, frame: EncodedFrame): void {
  for (const c of set) c.deliver(frame);
}

/**
 * What is heard in a room besides its players, told of each message shown there: puppets relay
 * it to their owners, and, when someone (`from`) said or showed it, the room's and its objects'
 * listening hears it (`^-listens`, `@listen`: src/softcode/programs).
 */
export type RoomHearing = (
  roomId: string,
  from: string | undefined,
  msg: string,
  exclude: readonly string[],
) => void;

/** Delivery over the registry's connections. */
export class Delivery implements DeliveryApi {
  readonly #registry: SessionRegistry;
  readonly #gmcp: GmcpMap | null;
  #hearing: RoomHearing | null = null;

  /** Delivers to the connections in `registry`, with plugins' GMCP forms from `gmcp`. */
  constructor(registry: SessionRegistry, gmcp: GmcpMap | null) {
    this.#registry = registry;
    this.#gmcp = gmcp;
  }

  /** A message encoded for fan-out (GMCP mappings applied for telnet clients). */
  #frame(out: Outbound): EncodedFrame {
    return new EncodedFrame(out, this.#gmcp);
  }

  /** To every connection of a player. */
  toPlayer(playerId: string, out: Outbound): void {
    const set = this.#registry.connectionsOf(playerId);
    if (set) deliverAll(set, this.#frame(out));
  }

  /**
   * To each listed player that is connected, once each. A Set or Map larger than the number of
   * players online is checked against them instead of walked (a big channel, few online).
   */
  toPlayers(ids: PlayerIds, out: Outbound): void {
    const frame = this.#frame(out);
    const online = this.#registry.sessions();
    if ((ids instanceof Set || ids instanceof Map) && ids.size > online.size) {
      for (const [pid, set] of online) if (ids.has(pid)) deliverAll(set, frame);
      return;
    }
    const list: Iterable<string> = ids instanceof Map ? ids.keys() : ids as Iterable<string>;
    const seen = ids instanceof Set || ids instanceof Map ? null : new Set<string>();
    for (const pid of list) {
      if (seen) {
        if (seen.has(pid)) continue;
        seen.add(pid);
      }
      const set = online.get(pid);
      if (set) deliverAll(set, frame);
    }
  }

  /** Sets who hears what is shown in a room besides its players (once, by the composition root). */
  hearRooms(hearing: RoomHearing): void {
    this.#hearing = hearing;
  }

  /**
   * To every connected player in a room except `exclude`, and its puppets' owners elsewhere;
   * with `from` (who said or showed it), the room's listening objects hear it too.
   */
  toRoom(roomId: string, out: Outbound, exclude: readonly string[] = [], from?: string): void {
    const list = this.#registry.roomConnections(roomId);
    if (list) {
      const frame = this.#frame(out);
      for (let i = 0; i < list.length; i++) {
        const c = list[i];
        if (exclude.length && exclude.includes(c.playerId!)) continue;
        c.deliver(frame);
      }
    }
    if (this.#hearing) this.#hearing(roomId, from, out.msg, exclude);
  }

  /** To every logged-in connection. */
  toAll(out: Outbound): void {
    const frame = this.#frame(out);
    for (const set of this.#registry.sessions().values()) deliverAll(set, frame);
  }
}
