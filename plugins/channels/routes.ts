/**
 * REST routes of the channels plugin: `GET /api/v1/channels` (open; hidden
 * channels only for members and staff; by name, paged) and
 * `GET /api/v1/channels/:name/history` (token required; members only for locked or
 * hidden channels; paged back from the newest message).
 */
import {
  json,
  NotFoundError,
  pageOf,
  type PageSizes,
  pathBelow,
  requestPage,
  requireUser,
  type RouteHandler,
  type Services,
  UnauthorizedError,
} from "../../src/plugins/mod.ts";
import type { ChannelService, Viewer } from "./service.ts";

/** The prefix the routes are mounted on. */
export const PREFIX = "/api/v1/channels";

/** History pages: 20 messages by default, at most 500 (other lists: 50, at most 200). */
export const HISTORY_PAGE: PageSizes = { limit: 20, max: 500 };

/** Builds the channels handler. */
export function channelRoutes(services: Services, svc: ChannelService): RouteHandler {
  const viewer = async (userId: string | null): Promise<Viewer | null> => {
    if (!userId) return null;
    const p = await services.objects.get(userId);
    return p ? { id: p.id, flags: p.flags } : null;
  };
  return async (req, userId) => {
    const parts = pathBelow(req, PREFIX);
    if (req.method !== "GET") throw new NotFoundError("Not Found");
    if (parts.length === 0) {
      const v = await viewer(userId);
      return json(
        pageOf(svc.visible(v), requestPage(req)).map((ch) => ({
          name: ch.name,
          header: ch.header,
          members: svc.memberCount(ch),
        })),
      );
    }
    if (parts.length === 2 && parts[1] === "history") {
      const v = await viewer(requireUser(userId));
      if (!v) throw new UnauthorizedError();
      const page = requestPage(req, HISTORY_PAGE);
      const ch = svc.readable(v, parts[0]);
      return json(await svc.history(v, ch, page));
    }
    throw new NotFoundError("Not Found");
  };
}
