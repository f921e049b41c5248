/**
 * REST routes of the channels plugin: `GET /api/v1/channels` (open; hidden
 * channels only for members and staff) and `GET /api/v1/channels/:name/history`
 * (token required; members only for locked or hidden channels).
 */
import { caller, type PluginApp, requireUser, ValidationError } from "../../src/plugins/mod.ts";
import type { ChannelService, Viewer } from "./service.ts";

/** The prefix the routes are mounted on. */
export const PREFIX = "/api/v1/channels";

/** History page size: default and maximum. */
export const HISTORY_DEFAULT = 20;
/** Largest history page. */
export const HISTORY_MAX = 500;

/** Parses `?limit=`: default 20, at most 500, a 400 for anything but a whole number of 1 or more. */
export function historyLimit(raw: string | undefined): number {
  if (raw === undefined || raw === "") return HISTORY_DEFAULT;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    throw new ValidationError("limit must be a whole number of 1 or more.");
  }
  return Math.min(n, HISTORY_MAX);
}

/** Adds the channels routes to the plugin's app. */
export function channelRoutes(app: PluginApp, svc: ChannelService): void {
  app.get("/", (c) => {
    const p = c.var.player;
    const v: Viewer | null = p ? { id: p.id, flags: p.flags } : null;
    return c.json(
      svc.visible(v).map((ch) => ({
        name: ch.name,
        header: ch.header,
        members: svc.memberCount(ch),
      })),
    );
  });

  app.get("/:name/history", requireUser(), async (c) => {
    const p = caller(c);
    const v: Viewer = { id: p.id, flags: p.flags };
    const limit = historyLimit(c.req.query("limit"));
    const ch = svc.readable(v, c.req.param("name"));
    return c.json(await svc.history(v, ch, limit));
  });
}
