/**
 * The hub's contract: what commands, plugins and the HTTP layer may ask of it.
 * The hub keeps connections and room membership in memory, so fan-out never
 * reads the database per recipient.
 */
import type { DbObject, ObjectHead } from "../world/types.ts";
import type { ColourMode } from "../text/colour_mode.ts";

/** How a client wants its output: ANSI text, or JSON frames (`web`, and telnet clients). */
export type ClientKind = "plain" | "web" | "telnet";

/** Structured data beside a message; `type` says what it is (`say`, `pose`, `room`, `error`, ...). */
export interface OutboundData {
  type: string;
  [key: string]: unknown;
}

/** One outbound message: text with MUSH colour codes, plus optional structured data. */
export interface Outbound {
  msg: string;
  data?: OutboundData;
}

/** One client connection as the rest of the engine sees it. */
export interface HubConnection {
  readonly id: string;
  readonly kind: ClientKind;
  /** Client IP (for the telnet sidecar, the telnet client's IP it reports). */
  readonly ip: string;
  /** The logged-in player, or null before login. */
  readonly playerId: string | null;
  /** Screen width in columns (NAWS for telnet; 78 by default). */
  readonly width: number;
  /** Screen height in lines (NAWS for telnet; 24 by default). */
  readonly height: number;
  /** The terminal type a telnet client named (TTYPE, or its GMCP client name); "" unknown. */
  readonly ttype: string;
  /** Whether plain text goes to it with ANSI colour. */
  readonly colour: boolean;
  /**
   * Colours a telnet client's terminal shows as it negotiated them (TTYPE, MTTS: 0, 16, 256 or
   * 16777216); null when not reported.
   */
  readonly colourDepth: number | null;
  /** Command lines it has run (MUX's command count). */
  readonly commands: number;
  readonly connectedAt: number;
  /** Time of the last command (for idle times). */
  readonly lastInput: number;
  /** True once the connection has closed: nothing it typed may run after that. */
  readonly closed: boolean;
  /** Queues a message to this connection (never blocks; slow clients are dropped). */
  send(out: Outbound): void;
  /** Closes the connection after sending `reason` if given. */
  close(reason?: string): void;
}

/**
 * A connected player as output shows it (name, moniker, flags, owner), held in memory by the
 * hub and kept current by the object store's change events.
 */
export interface PlayerCard extends ObjectHead {
  /** `updatedAt` of the object version the card was made from. */
  readonly updatedAt: number;
  /** The player's colour setting (`@colour`), applied to each of its connections. */
  readonly colour: ColourMode;
  /** What the player is doing (`@doing`), shown in `who`; empty when unset. */
  readonly doing: string;
}

/**
 * Player ids to deliver to: an array (or any iterable), a Set, or a Map keyed by player id
 * (a membership map, say). Each player gets the message once; offline ones are skipped.
 */
export type PlayerIds = Iterable<string> | ReadonlySet<string> | ReadonlyMap<string, unknown>;

/**
 * The engine's one delivery to players (src/hub/delivery.ts): what commands, plugins
 * (`ctx.deliver`), scripts and the hub itself send through. Each message is encoded once,
 * whatever the number of recipients.
 */
export interface Delivery {
  /** To every connection of one player. */
  toPlayer(playerId: string, out: Outbound): void;
  /** To each listed player that is connected. */
  toPlayers(playerIds: PlayerIds, out: Outbound): void;
  /**
   * To everyone connected in a room, except the listed player ids, and its puppets' owners
   * elsewhere; with `from` (who said or showed it), the room's listening objects hear it too
   * (docs/softcode.md, listening).
   */
  toRoom(roomId: string, out: Outbound, exclude?: readonly string[], from?: string): void;
  /** To every logged-in player. */
  toAll(out: Outbound): void;
}

/**
 * Who is online and where, from the hub's memory, as commands, plugins and the REST API ask it.
 * Delivery is the other half of what they get of the hub ({@linkcode Delivery}).
 */
export interface Presence {
  /** Open connections of a player. */
  connections(playerId: string): readonly HubConnection[];
  /** The logged-in connection with this id (`c12`), or undefined. */
  connection(connectionId: string): HubConnection | undefined;
  /** True when the player has at least one connection. */
  isOnline(playerId: string): boolean;
  /**
   * The latest `lastInput` over the player's open connections (ms), or null when offline: a field
   * of the player's record kept current as input arrives (softcode's idle() asks it of every row
   * of a listing), where `connections` copies them.
   */
  lastInput(playerId: string): number | null;
  /** The earliest `connectedAt` over the player's open connections (ms), or null when offline. */
  connectedSince(playerId: string): number | null;
  /** Ids of connected players in a room (from memory). */
  playersIn(roomId: string): readonly string[];
  /** Ids of connected players, in order of login (from memory). */
  onlinePlayers(): readonly string[];
  /** A connected player's card (name, moniker, flags, owner) from memory; undefined when offline. */
  playerCard(playerId: string): PlayerCard | undefined;
  /** The card of the connected player with this name (any case), from memory; undefined if none. */
  playerCardByName(name: string): PlayerCard | undefined;
  /** Offers a fresh read of a player to its card (ignored when offline or not newer). */
  refreshCard(player: DbObject): void;
  /**
   * The room a connected player is in, from memory (undefined when offline). Kept current by
   * the object store's change events, whoever moves the player.
   */
  roomOf(playerId: string): string | undefined;
  /** Closes every connection of a player with a message, except `keep` when given. */
  disconnect(playerId: string, reason: string, keep?: HubConnection): void;
  /**
   * Gives a logged-in connection a new session token (a `session` frame): its player's other
   * sessions were ended and this one goes on.
   */
  renewSession(conn: HubConnection, token: string): void;
}
