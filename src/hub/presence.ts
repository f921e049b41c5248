/**
 * Who is online and where, as commands, plugins and the REST API ask it: the session registry's
 * answers from memory, kept current by the object store's change events (whoever moves or
 * renames a connected player), and each connection brought in line with its player's colour
 * setting when that changes.
 */
import type { ObjectStore } from "../world/objects.ts";
import type { DbObject } from "../world/types.ts";
import { wantsColour } from "../text/colour_mode.ts";
import type { SessionRegistry } from "./registry.ts";
import { sessionFrame } from "./sessions.ts";
import { charChanged, charFrame } from "./char_frame.ts";
import type { HubConnection, PlayerCard, Presence } from "./types.ts";

/**
 * At most one `online` notice to web clients in this long: many players moving at once cost each
 * browser one new reading of who is online, not one per step.
 */
export const WHO_NOTICE_MS = 2000;

/** The `online` notice: who is online, or where they are, changed (web clients ask again). */
const WHO_NOTICE = { msg: "", data: { type: "online" } } as const;

/** The hub's presence, over its registry. */
export class HubPresence implements Presence {
  readonly #registry: SessionRegistry;
  #unfollow: (() => void) | null;
  #whoTimer: ReturnType<typeof setTimeout> | undefined = undefined;

  /** Follows `objects`' changes until `close`. */
  constructor(registry: SessionRegistry, objects: Pick<ObjectStore, "onChange">) {
    this.#registry = registry;
    this.#unfollow = objects.onChange((change) => {
      const card = registry.changed(change);
      if (!card) return;
      // Where a connected player is, or whether others may see it, is the who pane's to show.
      const before = change.before, after = change.after;
      if (
        before?.location !== after?.location || before?.name !== after?.name ||
        before?.flags.join(" ") !== after?.flags.join(" ")
      ) this.#whoChanged();
      this.applyColour(card.id);
      if (charChanged(change.before, change.after)) this.#sendChar(card);
    });
  }

  /** Stops following the store (the engine is closing). */
  close(): void {
    this.#unfollow?.();
    this.#unfollow = null;
    clearTimeout(this.#whoTimer);
    this.#whoTimer = undefined;
  }

  /** Tells the web clients, once per WHO_NOTICE_MS at most, that who is where changed. */
  #whoChanged(): void {
    if (this.#whoTimer !== undefined || !this.#unfollow) return;
    this.#whoTimer = setTimeout(() => {
      this.#whoTimer = undefined;
      for (const set of this.#registry.sessions().values()) {
        for (const c of set) if (c.kind === "web") c.send(WHO_NOTICE);
      }
    }, WHO_NOTICE_MS);
  }

  /** Open connections of a player. */
  connections(playerId: string): readonly HubConnection[] {
    const set = this.#registry.connectionsOf(playerId);
    return set ? [...set] : [];
  }

  /** The logged-in connection with this id, or undefined. */
  connection(connectionId: string): HubConnection | undefined {
    return this.#registry.loggedIn(connectionId);
  }

  /** True when the player has at least one connection. */
  isOnline(playerId: string): boolean {
    return this.#registry.isOnline(playerId);
  }

  /** The latest input over the player's connections (ms), or null when offline. */
  lastInput(playerId: string): number | null {
    return this.#registry.times(playerId)?.lastInput ?? null;
  }

  /** The earliest opening of the player's connections (ms), or null when offline. */
  connectedSince(playerId: string): number | null {
    return this.#registry.times(playerId)?.connectedAt ?? null;
  }

  /** Ids of connected players in a room. */
  playersIn(roomId: string): readonly string[] {
    const members = this.#registry.members(roomId);
    return members ? [...members] : [];
  }

  /** Ids of connected players, in order of login. */
  onlinePlayers(): readonly string[] {
    return [...this.#registry.sessions().keys()];
  }

  /** A connected player's card (name, moniker, flags, owner), from memory. */
  playerCard(playerId: string): PlayerCard | undefined {
    return this.#registry.card(playerId);
  }

  /** The card of the connected player with this name (any case), from memory. */
  playerCardByName(name: string): PlayerCard | undefined {
    return this.#registry.cardByName(name);
  }

  /**
   * Offers a fresh read of a player to its card (ignored when offline or not newer). A newer
   * read also corrects the room index: it saw a change the store's events did not bring.
   */
  refreshCard(player: DbObject): void {
    if (this.#registry.refresh(player)) this.applyColour(player.id);
  }

  /** The room a connected player is in (from memory), or undefined. */
  roomOf(playerId: string): string | undefined {
    return this.#registry.roomOf(playerId);
  }

  /** Closes every connection of a player, telling it why, except `keep` when given. */
  disconnect(playerId: string, reason: string, keep?: HubConnection): void {
    const set = this.#registry.connectionsOf(playerId);
    if (!set) return;
    for (const c of [...set]) if (c !== keep) c.close(reason);
  }

  /**
   * Gives a logged-in connection a new session token (its player's sessions were ended while
   * this one goes on): JSON clients replace the token they resume with.
   */
  renewSession(conn: HubConnection, token: string): void {
    const own = conn.playerId ? this.#registry.connectionsOf(conn.playerId) : undefined;
    for (const c of own ?? []) {
      if (c !== conn || c.closed || !c.playerId || c.kind === "plain") continue;
      const card = this.#registry.card(c.playerId);
      const player = { id: c.playerId, name: card?.name ?? c.name };
      c.send(sessionFrame(token, player, false, card?.colour ?? "auto"));
    }
  }

  /** Tells a player's JSON connections (web, telnet) who the player now is (a `char` frame). */
  #sendChar(card: PlayerCard): void {
    const set = this.#registry.connectionsOf(card.id);
    if (!set) return;
    const frame = charFrame(card);
    for (const c of set) if (c.kind !== "plain") c.send(frame);
  }

  /**
   * Brings each connection of a player in line with its colour setting: plain connections
   * render by it; JSON clients (web, telnet) are told with a `colour` frame and decide
   * themselves (a telnet client knows its terminal). Only on a change, never per message.
   */
  applyColour(playerId: string): void {
    const mode = this.#registry.card(playerId)?.colour;
    const set = this.#registry.connectionsOf(playerId);
    if (!mode || !set) return;
    for (const c of set) {
      if (c.colourMode === mode) continue;
      c.colourMode = mode;
      // A plain WebSocket client says nothing of its terminal: colour unless switched off.
      c.colour = wantsColour(mode, true);
      c.send({ msg: "", data: { type: "colour", mode } });
    }
  }
}
