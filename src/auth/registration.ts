/**
 * Registration from a client address, shared by `POST /api/v1/auth/register` and the hub's
 * `create`: each address may create `game.registrationsPerHour` characters an hour (0: no
 * limit, for load tests). The slot is reserved before the name is looked up and the password
 * hashed, so however many requests arrive at once, at most the limit reach bcrypt; a
 * registration that fails (a taken name, a refused password, a busy password pool) gives it back.
 */
import type { Accounts, RegisterOptions } from "./accounts.ts";
import type { SlidingWindows } from "../rate/sliding.ts";
import type { SecurityLog } from "./security_log.ts";
import type { DbObject } from "../world/types.ts";
import { RateLimitError } from "../errors.ts";

/** The registration window: an hour. */
export const REGISTRATION_WINDOW_MS = 60 * 60 * 1000;

/** Refusal once an address has created its characters for the hour (429, or a line in game). */
export const TOO_MANY_REGISTRATIONS =
  "Too many characters were created from your address in the last hour. Try again later.";

/** What a registration needs. */
export interface RegistrationDeps {
  accounts: Accounts;
  /** Registrations per client address (limit: `game.registrationsPerHour`). */
  registrations: SlidingWindows;
  securityLog: SecurityLog;
}

/**
 * Creates a character for a client at `ip` (`via` names the interface in the security log).
 * `location` is asked for only once the slot is taken. Throws RateLimitError when the address
 * has used its hour, and whatever `Accounts.register` throws.
 */
export async function registerFrom(
  deps: RegistrationDeps,
  ip: string,
  name: unknown,
  password: unknown,
  location: () => Promise<string>,
  via?: string,
): Promise<DbObject> {
  const release = deps.registrations.reserve(ip);
  if (!release) {
    await deps.securityLog.refused("REGISTER_RATE_LIMITED", { ip, detail: via });
    throw new RateLimitError(TOO_MANY_REGISTRATIONS);
  }
  try {
    const opts: RegisterOptions = { location: await location() };
    return await deps.accounts.register(name, password, opts);
  } catch (e) {
    release();
    throw e;
  }
}
