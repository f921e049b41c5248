/**
 * REST routes of the channels plugin: `GET /api/v1/channels` (open; hidden
 * channels only for members and staff; by name, paged) and
 * `GET /api/v1/channels/:name/history` (token required; members only for locked or
 * hidden channels; paged back from the newest message).
 */
import {
  caller,
  page,
  pageOf,
  type PageSizes,
  type PluginApp,
  requireUser,
} from "../../src/plugins/mod.ts";
import type { ChannelService, Viewer } from "./service.ts";

/** The prefix the routes are mounted on. */
export const PREFIX = "/api/v1/channels";

/** History pages: 20 messages by default, at most 500 (other lists: 50, at most 200). */
export const HISTORY_PAGE: PageSizes = { limit: 20, max: 500 };

/** Adds the channels routes to the plugin's app. */
export function channelRoutes(app: PluginApp, svc: ChannelService): void {
  app.get("/", (c) => {
    const p = c.var.player;
    const v: Viewer | null = p ? { id: p.id, flags: p.flags } : null;
    return c.json(
      pageOf(svc.visible(v), page(c)).map((ch) => ({
        name: ch.name,
        header: ch.header,
        members: svc.memberCount(ch),
      })),
    );
  });

  app.get("/:name/history", requireUser(), async (c) => {
    const p = caller(c);
    const v: Viewer = { id: p.id, flags: p.flags };
    const ch = svc.readable(v, c.req.param("name"));
    return c.json(await svc.history(v, ch, page(c, HISTORY_PAGE)));
  });
}
