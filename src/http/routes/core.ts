/** Unauthenticated core routes: config, connect screen, welcome text, who is online. */
import { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { onlineEntries } from "../../world/views.ts";
import { pageOf, pageParams } from "../pagination.ts";

/** Routes for /api/v1/config, /connect, /welcome and /players/online. */
export function coreRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.get("/config", (c) => {
    const cfg = c.var.services.config.value;
    return c.json({
      game: { name: cfg.game.name, version: cfg.game.version, description: cfg.game.description },
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

  // In the order the players came online; the page is cut from the hub's memory.
  r.get("/players/online", async (c) => {
    const page = pageParams(c.req.query("limit"), c.req.query("offset"));
    return c.json(pageOf(await onlineEntries(c.var.services), page));
  });

  return r;
}
