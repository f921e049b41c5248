/**
 * A login attempt by name and password, shared by `POST /api/v1/auth/login` and the hub's
 * `connect` (WebSocket and telnet): the per-address and per-account failure limits are reserved
 * before the password is compared, so however many attempts arrive at once, at most `limit`
 * wrong ones a minute from one address, and wrong ones from at most `game.accountLoginFailures`
 * addresses against one account in its window, reach bcrypt.
 */
import type { Accounts, LoggedIn } from "./accounts.ts";
import type { Config } from "../config/load.ts";
import type { SlidingWindows } from "../rate/sliding.ts";
import type { AccountLimit } from "./account_limit.ts";
import type { SecurityLog } from "./security_log.ts";
import type { DbObject } from "../world/types.ts";

/** What a login attempt needs. */
export interface LoginDeps {
  accounts: Accounts;
  /** Failed logins per client address (10 a minute). */
  loginFailures: SlidingWindows;
  /** Failed logins per account (`game.accountLoginFailures` in `game.accountLoginWindow`). */
  accountFailures: AccountLimit;
  securityLog: SecurityLog;
  config: Config;
}

/**
 * The outcome: the player and the token generation to sign its session with, or why not
 * (`limited`: refused before any check, by the address's limit or the account's).
 */
export type LoginOutcome =
  | { ok: true; player: DbObject; generation: number }
  | { ok: false; limited: false | "address" | "account" };

/** The refusal a limited login is answered with, by which limit refused it. */
export const LIMITED_LOGIN = {
  address: "Too many failed logins. Try again in a minute.",
  account: "Too many failed logins for that character. Try again later.",
} as const;

/** One attempt from `ip`; `via` names the interface in the security log (e.g. `websocket`). */
export async function attemptLogin(
  deps: LoginDeps,
  ip: string,
  name: string,
  password: string,
  via?: string,
): Promise<LoginOutcome> {
  const release = deps.loginFailures.reserve(ip);
  if (!release) {
    await deps.securityLog.refused("LOGIN_RATE_LIMITED", { ip, detail: via });
    return { ok: false, limited: "address" };
  }
  let releaseAccount: (() => void) | null = null;
  let found: LoggedIn | null;
  let id: string | null = null;
  try {
    id = deps.config.value.game.accountLoginFailures > 0
      ? await deps.accounts.playerId(name)
      : null;
    if (id !== null) {
      releaseAccount = deps.accountFailures.reserve(id, ip);
      // Past the account's limit only the addresses it last logged in from (by group: an IPv6
      // /64) are let through, and their failures are not counted against it: failures from
      // anywhere else cannot keep the player out at home. Elsewhere the hold ends with the
      // window, a new password (a reset, a change, @newpassword) or a wizard's
      // @loginlimits/release (docs/security.md). The refused attempt keeps its address slot.
      if (!releaseAccount && !(await deps.accounts.knownSite(id, ip))) {
        const d = { ip, target: id, detail: via };
        await deps.securityLog.refused("LOGIN_ACCOUNT_LIMITED", d, `#${id}`);
        return { ok: false, limited: "account" };
      }
    }
    found = await deps.accounts.login(name, password);
  } catch (e) {
    // A storage failure or a full password pool is not a wrong password.
    release();
    releaseAccount?.();
    throw e;
  }
  if (found) {
    release();
    releaseAccount?.();
    await deps.accounts.rememberSite(found.player.id, ip);
    return { ok: true, ...found };
  }
  // A name that names a character is written as typed; any other may be a password typed in
  // the wrong place (docs/security.md "Failed logins").
  const known = id !== null || (await deps.accounts.playerId(name)) !== null;
  const target = known ? name.slice(0, 64) : deps.securityLog.unknownName(name.slice(0, 64));
  await deps.securityLog.write("LOGIN_FAILED", { ip, target, detail: via });
  return { ok: false, limited: false };
}
