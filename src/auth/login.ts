/**
 * A login attempt by name and password, shared by `POST /api/v1/auth/login` and the hub's
 * `connect`: the per-IP failure limit is reserved before the password is compared, so however
 * many attempts arrive at once, at most `limit` wrong ones a minute reach bcrypt.
 */
import type { Accounts, LoggedIn } from "./accounts.ts";
import type { WindowCounter } from "./rate_limit.ts";
import type { SecurityLog } from "./security_log.ts";
import type { DbObject } from "../world/types.ts";

/** What a login attempt needs. */
export interface LoginDeps {
  accounts: Accounts;
  loginFailures: WindowCounter;
  securityLog: SecurityLog;
}

/**
 * The outcome: the player and the token generation to sign its session with, or why not
 * (`limited`: refused before any check).
 */
export type LoginOutcome =
  | { ok: true; player: DbObject; generation: number }
  | { ok: false; limited: boolean };

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
    return { ok: false, limited: true };
  }
  let found: LoggedIn | null;
  try {
    found = await deps.accounts.login(name, password);
  } catch (e) {
    // A storage failure or a full password pool is not a wrong password.
    release();
    throw e;
  }
  if (found) {
    release();
    return { ok: true, ...found };
  }
  await deps.securityLog.write("LOGIN_FAILED", { ip, target: name.slice(0, 64), detail: via });
  return { ok: false, limited: false };
}
