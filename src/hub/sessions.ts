/**
 * Sessions: the connect screen, token login and resume, login (player cap, session frame,
 * MOTD and welcome), logout, and each connection's colour. Connecting and disconnecting are
 * announced to the room and to plugins (`player:connected`, `player:disconnected`) from here.
 */
import type { ConnectionLog } from "../world/conninfo.ts";
import type { Config } from "../config/load.ts";
import type { Texts } from "../text/texts.ts";
import type { TokenService } from "../auth/tokens.ts";
import type { ObjectStore } from "../world/objects.ts";
import type { EventBus, WorldEvents } from "../plugins/hooks.ts";
import { hasFlag, isGuest, isStaff } from "../world/flags.ts";
import type { DbObject } from "../world/types.ts";
import { wantsColour } from "../text/colour_mode.ts";
import type { Connection } from "./connection.ts";
import type { Delivery } from "./types.ts";
import type { LoginDeps, LoginHost } from "./login.ts";
import { counted } from "../text/plural.ts";
import type { Detached, SessionRegistry } from "./registry.ts";
import type { Outbound } from "./types.ts";
import { charFrame } from "./char_frame.ts";
import { SlidingWindows } from "../rate/sliding.ts";

/** A structured error message. */
export function errorOut(msg: string): Outbound {
  return { msg, data: { type: "error" } };
}

/** Refusal of a token that is invalid, expired or of an ended session (clients match "token"). */
export const EXPIRED = "Invalid or expired token.";

/** Refusal of a login past `game.loginsPerMinute`. */
export const TOO_MANY_LOGINS =
  "Too many logins for this character in the last minute; try again in a moment.";

/**
 * The `session` frame: the connection's token (JSON clients keep it to resume), its player, and
 * the player's colour setting. Sent at login, and again with a new token when the player's own
 * password change ended its other sessions.
 */
export function sessionFrame(
  token: string,
  player: { id: string; name: string },
  resumed: boolean,
  colour: string,
): Outbound {
  return { msg: "", data: { type: "session", token, player, resumed, colour } };
}

/** What logins and logouts need of the engine. */
export interface SessionDeps extends LoginDeps {
  config: Config;
  texts: Pick<Texts, "get">;
  tokens: Pick<TokenService, "session" | "generation" | "sign">;
  objects: Pick<ObjectStore, "get" | "idsWithFlag">;
  /** Where plugins hear of logins and logouts (`player:connected`, `player:disconnected`). */
  worldHooks: Pick<EventBus<WorldEvents>, "emit">;
  /** Told of every login and every connection's end, for the players' statistics. */
  connectionLog?: ConnectionLog;
}

/** What sessions need of the hub around them. */
export interface SessionHost {
  /** True once the hub is stopping: nobody is told of the connections it closes. */
  stopping(): boolean;
  /** A connection just logged in (its pre-login limits can go). */
  loggedIn(conn: Connection): void;
}

/**
 * How long a player whose last page went away (a reload, a new tab's address) may take to come
 * back before the room hears they disconnected: a reload is no departure.
 */
export const LEAVING_GRACE_MS = 5000;

/** Login and logout of hub connections. */
export class Sessions implements LoginHost {
  /** Departures not yet announced, by player id: their pages went away a moment ago. */
  readonly #leaving = new Map<string, ReturnType<typeof setTimeout>>();
  /**
   * Each character's recent logins. A token login costs no password check, so one player
   * reconnecting in a loop logged in 70 times a second, and everyone in the room heard each
   * arrival and departure (20 such players: 2,400 lines a second to each of the others).
   */
  readonly #logins = new SlidingWindows({
    limit: () => this.deps.config.value.game.loginsPerMinute,
    windowMs: 60_000,
  });

  constructor(
    readonly deps: SessionDeps,
    private readonly host: SessionHost,
    private readonly registry: SessionRegistry,
    private readonly delivery: Delivery,
  ) {}

  /** A new connection: a login with the token it came with, or the connect screen. */
  opened(conn: Connection, login: { token: string; resume: boolean } | null): void {
    if (login) conn.enqueue(() => this.tokenLogin(conn, login.token, login.resume, true));
    else this.#connectScreen(conn);
  }

  #connectScreen(conn: Connection): void {
    const s = this.deps;
    let screen = s.texts.get("connect").trimEnd();
    // A screen that does not say how to come in as a guest gets a line for it while guests are open.
    if (s.guests.enabled && !/connect guest/i.test(screen)) {
      screen += "\n\n  %cgconnect guest%cn   to look around as a guest";
    }
    // server.banner (set with @site) is a notice for everyone about to log in.
    const banner = s.config.value.server.banner.trim();
    conn.send({ msg: banner ? `${screen}\n\n${banner}` : screen, data: { type: "connect" } });
  }

  /** Logs in with a session token (`auth` frame, or `?token=` when `atOpen`). */
  async tokenLogin(
    conn: Connection,
    token: string,
    resume: boolean,
    atOpen: boolean,
  ): Promise<void> {
    const s = this.deps;
    if (conn.playerId) {
      conn.send(errorOut("You are already logged in."));
      return;
    }
    const session = await s.tokens.session(token);
    const player = session ? await s.objects.get(session.id) : null;
    if (conn.closed) return;
    if (!session || !player || !hasFlag(player.flags, "player")) {
      conn.send(errorOut(EXPIRED));
      if (atOpen) this.#connectScreen(conn);
      return;
    }
    // The renewed token is of the generation this one came from: it never outlives it.
    await this.login(conn, player, resume, session.generation);
  }

  /** Why a new non-staff player could not log in now, or null. */
  fullProblem(): string | null {
    const max = this.deps.config.value.game.maxPlayers;
    if (max > 0 && this.registry.onlineCount >= max) {
      return `The game is full (${counted(max, "player")}). Please try again later.`;
    }
    return null;
  }

  /**
   * Logs a connection in as `player`; `resumed` is the silent resume after an engine restart.
   * `generation`: the token generation the login was proven in (a token's, or the one read
   * before the password was compared); refused when the player's sessions were ended since.
   * Without it (a character just created), the current one.
   */
  async login(
    conn: Connection,
    player: DbObject,
    resumed: boolean,
    generation?: number,
  ): Promise<boolean> {
    const s = this.deps;
    const id = player.id;
    const current = await s.tokens.generation(id);
    if (conn.closed) return false;
    if (conn.playerId) {
      conn.send(errorOut("You are already logged in."));
      return false;
    }
    // From this check to the attach below nothing waits, so a revocation either comes first
    // (and is seen here) or finds the connection attached (and closes it).
    if (generation !== undefined && generation !== current) {
      conn.send(errorOut(EXPIRED));
      return false;
    }
    // A full game refuses before the login is counted: the limit is of logins the room hears
    // (each announced), and a refused one is not heard.
    if (!resumed && !isStaff(player.flags) && !this.registry.isOnline(id)) {
      const full = this.fullProblem();
      if (full) {
        conn.send(errorOut(full));
        return false;
      }
    }
    if (!resumed && this.#logins.take(id) > 0) {
      conn.send(errorOut(TOO_MANY_LOGINS));
      return false;
    }
    // The cap check and attach are synchronous together, so two logins cannot both pass.
    const first = this.registry.attach(conn, player);
    s.connectionLog?.started(this.registry.loggedInCount);
    const colour = this.registry.card(id)?.colour ?? "auto";
    conn.colourMode = colour;
    conn.colour = wantsColour(colour, true);
    this.host.loggedIn(conn);
    if (conn.kind !== "plain") {
      const token = await s.tokens.sign(id, current);
      if (conn.closed) return false;
      conn.send(sessionFrame(token, { id, name: player.name }, resumed, colour));
      conn.send(charFrame(this.registry.card(id) ?? player));
    }
    // Back within the grace after a page went away: nobody heard them go, so nobody hears them
    // come back; the session goes on (the motd still comes to a login that is not a resume).
    const returning = this.#cancelLeaving(id);
    if (returning && !resumed) {
      this.#welcome(conn, player);
      conn.enqueueNext("look");
    }
    if (returning) return true;
    const connected = { id, name: player.name, first, resumed };
    if (resumed) {
      void s.worldHooks.emit("player:connected", connected);
      return true;
    }
    const room = first ? this.registry.roomOf(id) : undefined;
    if (room) {
      // Said by the player, as MUX's announce_connect: the room's listening objects hear it.
      this.delivery.toRoom(
        room,
        {
          msg: `${player.name} has connected.`,
          data: { type: "connect", player: { id, name: player.name } },
        },
        [id],
        id,
      );
    }
    this.#welcome(conn, player);
    // Plugins hear of the login after the player has seen the room (mail's notice follows it).
    conn.enqueueNext(() => {
      if (!conn.closed) void s.worldHooks.emit("player:connected", connected);
      return Promise.resolve();
    });
    conn.enqueueNext("look");
    return true;
  }

  /** The texts of a login: the message of the day and the welcome. */
  #welcome(conn: Connection, player: DbObject): void {
    const s = this.deps;
    const game = s.config.value.game;
    this.#text(conn, s.texts.get("motd"), "motd");
    this.#text(conn, game.loginMessage, "motd");
    // Guests get their own welcome: what they may do, and that they do not last.
    this.#text(conn, s.texts.get(isGuest(player.flags) ? "guest" : "welcome"), "welcome");
    this.#text(conn, game.welcomeMessage, "welcome");
  }

  /** True when `id` was leaving (its announcement is now cancelled). */
  #cancelLeaving(id: string): boolean {
    const timer = this.#leaving.get(id);
    if (timer === undefined) return false;
    clearTimeout(timer);
    this.#leaving.delete(id);
    return true;
  }

  /** Drops departures not yet announced (the hub stops: nothing is announced then). */
  stop(): void {
    for (const timer of this.#leaving.values()) clearTimeout(timer);
    this.#leaving.clear();
  }

  #text(conn: Connection, text: string, type: string): void {
    const msg = text.replace(/\s+$/, "");
    if (msg) conn.send({ msg, data: { type } });
  }

  /**
   * MUX's LOGOUT: the connection's player disconnects as if it had closed (the room, the hooks,
   * @adisconnect hear it at once), and the connection stays open at the connect screen, as new
   * as one just opened (its OUTPUTPREFIX/OUTPUTSUFFIX cleared, the login bound counted afresh).
   * A `logout` frame tells a client that keeps the session's token (web, telnet) to drop it.
   */
  logout(conn: Connection): void {
    const gone = this.registry.detach(conn);
    const now = Date.now();
    if (gone) this.#ended(gone.playerId, conn, now);
    conn.playerId = null;
    conn.name = "";
    conn.outputPrefix = "";
    conn.outputSuffix = "";
    conn.colourMode = "auto";
    conn.colour = true;
    conn.openedAt = now;
    conn.connectedAt = now;
    conn.lastInput = now;
    if (gone) this.#announceGone(gone);
    if (conn.kind !== "plain") conn.send({ msg: "", data: { type: "logout" } });
    this.#connectScreen(conn);
  }

  /** A closed connection's logout: the room hears of a player's last connection going. */
  loggedOut(conn: Connection): void {
    const gone = this.registry.detach(conn);
    if (!gone || this.host.stopping()) return;
    const id = gone.playerId;
    this.#ended(id, conn, Date.now());
    const announce = () => this.#announceGone(gone);
    // A page that went away is announced only if it does not come back within the grace.
    if (!gone.last || !conn.leaving) return announce();
    this.#cancelLeaving(id);
    this.#leaving.set(
      id,
      setTimeout(() => {
        this.#leaving.delete(id);
        if (!this.host.stopping() && !this.registry.isOnline(id)) announce();
      }, LEAVING_GRACE_MS),
    );
  }

  /** Tells the connection log that one of a player's connections ended (it is detached). */
  #ended(playerId: string, conn: Connection, at: number): void {
    const log = this.deps.connectionLog;
    if (!log) return;
    const others = [];
    for (const c of this.registry.connectionsOf(playerId) ?? []) others.push(c.connectedAt);
    log.ended({ playerId, since: conn.connectedAt, others, at });
  }

  /** Tells the room (for a player's last connection) and the plugins that a player went. */
  #announceGone(gone: Detached): void {
    const { playerId: id, name } = gone;
    if (gone.last && gone.room) {
      this.delivery.toRoom(
        gone.room,
        {
          msg: `${name} has disconnected.`,
          data: { type: "disconnect", player: { id, name } },
        },
        [id],
        id,
      );
    }
    void this.deps.worldHooks.emit("player:disconnected", {
      id,
      name,
      stillConnected: !gone.last,
    });
  }
}
