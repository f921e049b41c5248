/**
 * Ending a player's sessions: the token generation advances (every token issued before stops
 * working, wherever it is kept) and the player's open connections close (WebSocket, telnet
 * through the sidecar, telnet the engine holds). A password change, a reset, `@boot` and `@toad`
 * end them all; a player's own password change keeps the connection it was made from, with a
 * token of the new generation, so that session's next resume (after `@reboot`) still works.
 */
import type { HubConnection } from "../hub/types.ts";
import type { Accounts } from "./accounts.ts";
import type { SlidingWindows } from "../rate/sliding.ts";
import type { AccountLimit } from "./account_limit.ts";
import type { SecurityLog } from "./security_log.ts";
import type { TokenService } from "./tokens.ts";

/** What ending sessions needs of who is online (the hub's presence). */
export interface SessionControl {
  /** Closes every connection of a player with a message, except `keep`. */
  disconnect(playerId: string, reason: string, keep?: HubConnection): void;
  /** Gives a logged-in connection a new session token. */
  renewSession(conn: HubConnection, token: string): void;
}

/** What ending sessions needs. */
export interface RevokeDeps {
  tokens: TokenService;
  presence: SessionControl;
}

/** Ends every session of a player; each open connection is told `reason` as it closes. */
export async function endSessions(
  deps: RevokeDeps,
  playerId: string,
  reason: string,
): Promise<void> {
  await deps.tokens.revoke(playerId);
  deps.presence.disconnect(playerId, reason);
}

/** What a player's own password change needs. */
export interface OwnPasswordDeps extends RevokeDeps {
  accounts: Accounts;
  loginFailures: SlidingWindows;
  /** Failures counted against the old password are released with it. */
  accountFailures: AccountLimit;
  securityLog: SecurityLog;
}

/** How an own password change went (a password that breaks the rules throws ValidationError). */
export type OwnPasswordOutcome = "changed" | "wrong" | "limited";

/** Told to the player's other connections as they close. */
export const CHANGED_ELSEWHERE = "Your password was changed from another session; log in again.";

/**
 * A player changes their own password from `conn`. With `oldPassword` it must match first:
 * a wrong one counts as a failed login of the connection's address (the slot is taken before
 * bcrypt, as at login), so a stolen session cannot guess at the password faster than a login
 * could. On success every other session ends and `conn` goes on with a token of the new
 * generation. The caller words the answer and writes its security log line.
 */
export async function changeOwnPassword(
  deps: OwnPasswordDeps,
  conn: HubConnection,
  newPassword: string,
  oldPassword: string | null,
): Promise<OwnPasswordOutcome> {
  const id = conn.playerId;
  if (!id) throw new Error("changeOwnPassword: the connection is not logged in");
  const done = await changePassword(
    deps,
    { id, ip: conn.ip, keep: conn },
    newPassword,
    oldPassword,
  );
  if (typeof done !== "number") return done;
  deps.presence.renewSession(conn, await deps.tokens.sign(id, done));
  return "changed";
}

/** Who changes their password: the player, the address asking, the connection that goes on. */
export interface PasswordChanger {
  id: string;
  ip: string;
  /** The connection it was typed on (kept open); none for a change over REST. */
  keep?: HubConnection;
}

/**
 * The change itself, for the game and REST alike: the old password checked as above, the new
 * one set (its commit advances the token generation), and every connection of the player but
 * `keep` closed. Answers the new generation (the caller signs the session that goes on), or
 * why nothing changed.
 */
export async function changePassword(
  deps: Pick<OwnPasswordDeps, "accounts" | "loginFailures" | "accountFailures" | "securityLog"> & {
    presence: Pick<SessionControl, "disconnect">;
  },
  who: PasswordChanger,
  newPassword: string,
  oldPassword: string | null,
): Promise<number | "wrong" | "limited"> {
  const { id, ip } = who;
  if (oldPassword !== null) {
    const release = deps.loginFailures.reserve(ip);
    if (!release) {
      await deps.securityLog.refused("LOGIN_RATE_LIMITED", { ip, detail: "password" });
      return "limited";
    }
    let right: boolean;
    try {
      right = await deps.accounts.checkPassword(id, oldPassword);
    } catch (e) {
      release();
      throw e;
    }
    if (!right) {
      await deps.securityLog.write("LOGIN_FAILED", {
        actor: id,
        target: id,
        ip,
        detail: "password",
      });
      return "wrong";
    }
    release();
  }
  const generation = await deps.accounts.setPassword(id, newPassword);
  // Guesses at the old password tell nothing of the new one (docs/security.md).
  deps.accountFailures.release(id);
  // The change advanced the generation in its commit: only the connections are left to close.
  deps.presence.disconnect(id, CHANGED_ELSEWHERE, who.keep);
  return generation;
}
