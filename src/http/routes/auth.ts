/** Account routes: register, login, a guest's login, password reset, and the caller's profile. */
import { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { readJsonObject } from "../middleware/body.ts";
import { me, requireAuth } from "../middleware/auth.ts";
import {
  ForbiddenError,
  RateLimitError,
  UnauthorizedError,
  ValidationError,
} from "../../errors.ts";
import { changePassword } from "../../auth/revoke.ts";
import { isGuest } from "../../world/flags.ts";
import { startingRoom } from "../../world/start.ts";
import { profileView } from "../../world/views.ts";
import { attemptLogin, LIMITED_LOGIN, type LoginDeps } from "../../auth/login.ts";
import { registerFrom, type RegistrationDeps } from "../../auth/registration.ts";
import { passwordProblem, sentence } from "../../auth/passwords.ts";
import type { Config } from "../../config/load.ts";
import type { ObjectStore } from "../../world/objects.ts";
import type { TokenService } from "../../auth/tokens.ts";
import type { Guests } from "../../auth/guests.ts";
import type { Presence } from "../../hub/types.ts";

/** What the account routes use. */
export interface AuthRouteDeps extends LoginDeps, RegistrationDeps {
  config: Config;
  objects: Pick<ObjectStore, "get" | "idsWithFlag">;
  tokens: Pick<TokenService, "sign">;
  /** Who is online: a reset password closes the player's sessions. */
  presence: Pick<Presence, "disconnect">;
  /** Temporary guest characters (`POST /auth/guest`). */
  guests: Pick<Guests, "create">;
}

/** Name from a body: `name`, or `username` as an alias. */
function nameOf(body: Record<string, unknown>): unknown {
  return body.name ?? body.username;
}

/** Routes under /api/v1/auth and /api/v1/me. */
export function authRoutes(s: AuthRouteDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.post("/auth/register", async (c) => {
    if (!s.config.value.game.registerEnabled) {
      throw new ValidationError("Registration is closed on this game.");
    }
    const body = await readJsonObject(c);
    const player = await registerFrom(
      s,
      c.var.ip,
      nameOf(body),
      body.password,
      () => startingRoom(s),
      "rest",
    );
    return c.json({ token: await s.tokens.sign(player.id) });
  });

  r.post("/auth/login", async (c) => {
    const body = await readJsonObject(c);
    const name = nameOf(body);
    if (typeof name !== "string" || typeof body.password !== "string") {
      throw new ValidationError("name and password are required.");
    }
    const outcome = await attemptLogin(s, c.var.ip, name, body.password);
    if (outcome.ok) {
      return c.json({ token: await s.tokens.sign(outcome.player.id, outcome.generation) });
    }
    if (outcome.limited) throw new RateLimitError(LIMITED_LOGIN[outcome.limited]);
    throw new UnauthorizedError("Invalid name or password.");
  });

  // A visitor's guest character, for clients that log in over REST first (the web client). It
  // counts against the guest caps at once and must connect within a minute (src/auth/guests.ts).
  r.post("/auth/guest", async (c) => {
    const guest = await s.guests.create(c.var.ip);
    const token = await s.tokens.sign(guest.id);
    return c.json({ token, player: { id: guest.id, name: guest.name } });
  });

  // Checks in order, each answering 400: token and password present (the required message);
  // the password rule (blank, too short, too long: the same rule as registration); then the
  // token. A bad password is reported before a bad token, so a refused password never uses
  // up a good token and the answer says nothing about tokens to someone who sent no valid one.
  r.post("/auth/reset-password", async (c) => {
    const body = await readJsonObject(c);
    const token = body.token;
    const newPassword = body.newPassword ?? body.password;
    if (typeof token !== "string" || !token || typeof newPassword !== "string" || !newPassword) {
      throw new ValidationError("token and newPassword are required.");
    }
    const problem = passwordProblem(newPassword);
    if (problem) throw new ValidationError(sentence(problem));
    const id = await s.accounts.consumeResetToken(token, newPassword);
    if (!id) throw new ValidationError("Invalid or expired reset token.");
    // A held account is let go: guesses at the old password tell nothing of the new one, and
    // the token came from staff (docs/security.md).
    s.accountFailures.release(id);
    // The reset advanced the player's token generation: the sessions left open close too.
    s.presence.disconnect(id, "Your password was reset; log in again with the new one.");
    await s.securityLog.write("PASSWORD_RESET", { actor: id, target: id, ip: c.var.ip });
    return c.json({ message: "Password updated successfully." });
  });

  // A player's own password change (the settings page): the current password first (a wrong
  // one counts as a failed login of the address), then every session of the player ends, its
  // sockets included, and the caller goes on with the token this answers (src/auth/revoke.ts).
  r.post("/auth/password", requireAuth(), async (c) => {
    const player = me(c);
    if (isGuest(player.flags)) throw new ForbiddenError("Guests have no password to change.");
    const body = await readJsonObject(c);
    const { oldPassword, newPassword } = body;
    if (typeof oldPassword !== "string" || !oldPassword || typeof newPassword !== "string") {
      throw new ValidationError("oldPassword and newPassword are required.");
    }
    const problem = passwordProblem(newPassword);
    if (problem) throw new ValidationError(sentence(problem));
    const done = await changePassword(s, { id: player.id, ip: c.var.ip }, newPassword, oldPassword);
    if (done === "limited") {
      throw new RateLimitError("Too many wrong passwords. Try again in a minute.");
    }
    if (done === "wrong") throw new ForbiddenError("That is not your current password.");
    await s.securityLog.write("PASSWORD_CHANGED", {
      actor: player.id,
      target: player.id,
      ip: c.var.ip,
    });
    return c.json({ token: await s.tokens.sign(player.id, done) });
  });

  r.get("/me", requireAuth(), (c) => c.json(profileView(me(c))));

  return r;
}
