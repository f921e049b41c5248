/**
 * REST routes of the channels plugin: `GET /api/v1/channels` (open; hidden
 * channels only for members and staff) and `GET /api/v1/channels/:name/history`
 * (token required; members only for locked or hidden channels).
 */
import {
  json,
  NotFoundError,
  pathBelow,
  query,
  requireUser,
  type RouteHandler,
  type Services,
  UnauthorizedError,
  ValidationError,
} from "../../src/plugins/mod.ts";
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
        svc.visible(v).map((ch) => ({
          name: ch.name,
          header: ch.header,
          members: svc.memberCount(ch),
        })),
      );
    }
    if (parts.length === 2 && parts[1] === "history") {
      const v = await viewer(requireUser(userId));
      if (!v) throw new UnauthorizedError();
      const limit = historyLimit(query(req, "limit"));
      const ch = svc.readable(v, parts[0]);
      return json(await svc.history(v, ch, limit));
    }
    throw new NotFoundError("Not Found");
  };
}
