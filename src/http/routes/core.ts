/** Unauthenticated core routes: config, connect screen, welcome text, who is online. */
import { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { onlineEntries } from "../../hub/online.ts";
import { playerFromRequest } from "../middleware/auth.ts";
import { pageOf, pageParams } from "../pagination.ts";

/** Routes for /api/v1/config, /connect, /welcome and /players/online. */
export function coreRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.get("/config", (c) => {
    const cfg = c.var.services.config.value;
    return c.json({
      game: {
        name: cfg.game.name,
        version: cfg.game.version,
        description: cfg.game.description,
        // Whether clients may offer `connect guest` (the web client's guest button).
        guests: cfg.game.guestEnabled,
      },
      server: {
        http: cfg.server.http,
        telnet: cfg.server.telnet,
        ws: cfg.server.ws,
        // Settable at runtime with @site, so web clients can show them.
        name: cfg.server.name,
        description: cfg.server.description,
      },
      theme: cfg.theme,
    });
  });

  r.get("/connect", (c) => c.text(c.var.services.texts.get("connect")));
  r.get("/welcome", (c) => c.text(c.var.services.texts.get("welcome")));

  // In the order the players came online, cut from the hub's memory. No login needed, but a
  // staff token sees what staff see in `who` (dark players too).
  r.get("/players/online", async (c) => {
    const page = pageParams(c.req.query("limit"), c.req.query("offset"));
    const viewer = await playerFromRequest(c.var.services, c.req.raw);
    return c.json(pageOf(await onlineEntries(c.var.services, viewer), page));
  });

  return r;
}
