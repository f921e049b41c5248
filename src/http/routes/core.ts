/** Unauthenticated core routes: config, connect screen, welcome text, who is online. */
import { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { onlineEntries } from "../../hub/online.ts";
import { type CallerDeps, playerFromRequest } from "../middleware/auth.ts";
import { pageOf, pageParams } from "../pagination.ts";
import { profileFields } from "./public.ts";
import type { Config } from "../../config/load.ts";
import type { Texts } from "../../text/texts.ts";
import type { Presence } from "../../hub/types.ts";
import type { ObjectStore } from "../../world/objects.ts";

/** What the core routes read: the configuration, the texts, who is online and their rooms. */
export interface CoreRouteDeps extends CallerDeps {
  config: Config;
  texts: Pick<Texts, "get">;
  presence: Presence;
  objects: Pick<ObjectStore, "get" | "getMany">;
}

/** Routes for /api/v1/config, /connect, /welcome and /players/online. */
export function coreRoutes(s: CoreRouteDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.get("/config", (c) => {
    const cfg = s.config.value;
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
      // What the portal's pages need: the banner, the fields of a character page (each an
      // attribute) and what visitors may read (docs/web.md, "Visitors").
      web: {
        banner: cfg.web.banner,
        profileFields: profileFields(s.config),
        public: { ...cfg.web.public },
      },
    });
  });

  r.get("/connect", (c) => c.text(s.texts.get("connect")));
  r.get("/welcome", (c) => c.text(s.texts.get("welcome")));

  // In the order the players came online, cut from the hub's memory. No login needed, but a
  // staff token sees what staff see in `who` (dark players too).
  r.get("/players/online", async (c) => {
    const page = pageParams(c.req.query("limit"), c.req.query("offset"));
    const viewer = await playerFromRequest(s, c.req.raw);
    return c.json(pageOf(await onlineEntries(s, viewer), page));
  });

  return r;
}
