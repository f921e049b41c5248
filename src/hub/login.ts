/**
 * What a connection can do before login: `connect <name> <password>`, `connect guest`,
 * `create <name> <password>` and `quit`. The rules are the REST ones: the same
 * accounts and guests services, name and password checks, and per-IP failure limiter.
 */
import { ConflictError, RateLimitError, ValidationError } from "../errors.ts";
import type { Config } from "../config/load.ts";
import type { ObjectStore } from "../world/objects.ts";
import type { Guests } from "../auth/guests.ts";
import { startingRoom } from "../world/start.ts";
import { attemptLogin, LIMITED_LOGIN, type LoginDeps as AuthLoginDeps } from "../auth/login.ts";
import { registerFrom, type RegistrationDeps } from "../auth/registration.ts";
import type { DbObject } from "../world/types.ts";
import type { Connection } from "./connection.ts";

/** What `connect`, `connect guest` and `create` need of the engine. */
export interface LoginDeps extends AuthLoginDeps, RegistrationDeps {
  config: Config;
  objects: Pick<ObjectStore, "get" | "idsWithFlag">;
  /** Temporary guest characters. */
  guests: Pick<Guests, "enabled" | "isGuestWord" | "create" | "remove">;
}

/** What the pre-login commands need from the hub. */
export interface LoginHost {
  readonly deps: LoginDeps;
  /**
   * Logs a connection in; false (after telling the client) when refused. `generation`: the
   * token generation the login was proven in (see sessions.ts).
   */
  login(
    conn: Connection,
    player: DbObject,
    resumed: boolean,
    generation?: number,
  ): Promise<boolean>;
  /** Why a new login of a non-staff player would be refused now (game full), or null. */
  fullProblem(): string | null;
}

/** The short prompt sent for anything that is not a pre-login command. */
export const PROMPT =
  "Please log in: connect <name> <password>  |  create <name> <password>  |  quit";

/** The prompt, with `connect guest` on a line of its own (80 columns) when guests are open. */
function prompt(guests: boolean): string {
  return guests ? `${PROMPT}\n          or: connect guest   to look around as a guest` : PROMPT;
}

/** Reply to a failed `connect` (does not say which part was wrong). */
export const BAD_LOGIN = "Either that player does not exist, or has a different password.";

/** Handles one line from a connection that is not logged in. */
export async function preLogin(host: LoginHost, conn: Connection, line: string): Promise<void> {
  const trimmed = line.trim();
  const space = trimmed.search(/\s/);
  const word = (space === -1 ? trimmed : trimmed.slice(0, space)).toLowerCase();
  const rest = space === -1 ? "" : trimmed.slice(space).trim();
  switch (word) {
    case "quit":
      conn.close("Goodbye!");
      return;
    case "connect":
    case "co":
      await connect(host, conn, rest);
      return;
    case "create":
    case "cr":
      await create(host, conn, rest);
      return;
    default:
      conn.send({ msg: prompt(host.deps.guests.enabled), data: { type: "prompt" } });
  }
}

/** Splits `<name> <password>`; the password is the rest of the line (it may hold spaces). */
function nameAndPassword(rest: string): [string, string] | null {
  const space = rest.search(/\s/);
  if (space === -1) return null;
  const name = rest.slice(0, space);
  const password = rest.slice(space).trim();
  return password ? [name, password] : null;
}

function error(conn: Connection, msg: string): void {
  conn.send({ msg, data: { type: "error" } });
}

async function connect(host: LoginHost, conn: Connection, rest: string): Promise<void> {
  const s = host.deps;
  const first = rest.split(/\s+/, 1)[0];
  if (first && s.guests.isGuestWord(first)) {
    // `connect guest` (any password is ignored, as MUX does) while guests are open.
    if (s.guests.enabled) return await guest(host, conn);
    if (first.length === rest.length) return error(conn, "Guest logins are not open on this game.");
  }
  const parts = nameAndPassword(rest);
  if (!parts) return error(conn, "Usage: connect <name> <password>");
  const [name, password] = parts;
  let outcome;
  try {
    outcome = await attemptLogin(s, conn.ip, name, password, "websocket");
  } catch (e) {
    // The password pool is full: answered at once, the attempt is not counted as a failure.
    if (e instanceof RateLimitError) return conn.closed ? undefined : error(conn, e.message);
    // Closed under the check: the engine stopped past its wait for logins (its password pool
    // went with it); the client, told of the restart, is asked to log in again by the next one.
    if (conn.closed) return;
    throw e;
  }
  if (conn.closed) return;
  if (!outcome.ok) {
    return error(conn, outcome.limited ? LIMITED_LOGIN[outcome.limited] : BAD_LOGIN);
  }
  await host.login(conn, outcome.player, false, outcome.generation);
}

async function create(host: LoginHost, conn: Connection, rest: string): Promise<void> {
  const s = host.deps;
  const parts = nameAndPassword(rest);
  if (!parts) return error(conn, "Usage: create <name> <password>");
  if (!s.config.value.game.registerEnabled) {
    return error(conn, "Character creation is closed on this game.");
  }
  const full = host.fullProblem();
  if (full) return error(conn, full);
  const [name, password] = parts;
  let player: DbObject;
  try {
    player = await registerFrom(s, conn.ip, name, password, () => startingRoom(s), "websocket");
  } catch (e) {
    if (e instanceof ValidationError) {
      return error(conn, `Cannot create that character: ${e.message}.`);
    }
    if (e instanceof ConflictError || e instanceof RateLimitError) return error(conn, e.message);
    if (conn.closed) return;
    throw e;
  }
  if (conn.closed) return;
  await host.login(conn, player, false);
}

/** `connect guest`: a new guest character, logged in at once; removed again if that fails. */
async function guest(host: LoginHost, conn: Connection): Promise<void> {
  const s = host.deps;
  const full = host.fullProblem();
  if (full) return error(conn, full);
  let player: DbObject;
  try {
    player = await s.guests.create(conn.ip);
  } catch (e) {
    if (e instanceof ValidationError || e instanceof RateLimitError) return error(conn, e.message);
    throw e;
  }
  if (conn.closed || !(await host.login(conn, player, false))) await s.guests.remove(player.id);
}
