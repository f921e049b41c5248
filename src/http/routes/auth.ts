/** Account routes: register, login, password reset, and the caller's profile. */
import { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { readJsonObject } from "../middleware/body.ts";
import { me, requireAuth } from "../middleware/auth.ts";
import { RateLimitError, UnauthorizedError, ValidationError } from "../../errors.ts";
import { startingRoom } from "../../world/start.ts";
import { profileView } from "../../world/views.ts";

/** Name from a body: `name`, or `username` as an alias. */
function nameOf(body: Record<string, unknown>): unknown {
  return body.name ?? body.username;
}

/** Routes under /api/v1/auth and /api/v1/me. */
export function authRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.post("/auth/register", async (c) => {
    const s = c.var.services;
    if (!s.config.value.game.registerEnabled) {
      throw new ValidationError("Registration is closed on this game.");
    }
    const body = await readJsonObject(c);
    const player = await s.accounts.register(nameOf(body), body.password, {
      location: await startingRoom(s),
    });
    return c.json({ token: await s.tokens.sign(player.id) });
  });

  r.post("/auth/login", async (c) => {
    const s = c.var.services;
    const ip = c.var.ip;
    if (s.loginFailures.exceeded(ip)) {
      await s.securityLog.write("LOGIN_RATE_LIMITED", { ip });
      throw new RateLimitError("Too many failed logins. Try again in a minute.");
    }
    const body = await readJsonObject(c);
    const name = nameOf(body);
    if (typeof name !== "string" || typeof body.password !== "string") {
      throw new ValidationError("name and password are required.");
    }
    const player = await s.accounts.authenticate(name, body.password);
    if (!player) {
      s.loginFailures.hit(ip);
      await s.securityLog.write("LOGIN_FAILED", { ip, target: name.slice(0, 64) });
      throw new UnauthorizedError("Invalid name or password.");
    }
    return c.json({ token: await s.tokens.sign(player.id) });
  });

  r.post("/auth/reset-password", async (c) => {
    const s = c.var.services;
    const body = await readJsonObject(c);
    const token = body.token;
    const newPassword = body.newPassword ?? body.password;
    if (typeof token !== "string" || !token || typeof newPassword !== "string" || !newPassword) {
      throw new ValidationError("token and newPassword are required.");
    }
    if (newPassword.length > 512) {
      throw new ValidationError("Password must be 512 characters or fewer.");
    }
    const id = await s.accounts.consumeResetToken(token, newPassword);
    if (!id) throw new ValidationError("Invalid or expired reset token.");
    await s.securityLog.write("PASSWORD_RESET", { actor: id, target: id, ip: c.var.ip });
    return c.json({ message: "Password updated successfully." });
  });

  r.get("/me", requireAuth(), (c) => c.json(profileView(me(c))));

  return r;
}
