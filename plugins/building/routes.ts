/** REST route of the building plugin: `POST /api/v1/building/room` (builder or higher). */
import {
  atLeast,
  ForbiddenError,
  json,
  NotFoundError,
  objectView,
  pathBelow,
  readJson,
  requireUser,
  type RouteHandler,
  type Services,
  UnauthorizedError,
} from "../../src/plugins/mod.ts";
import type { Builder } from "./store.ts";

/** The prefix the routes are mounted on. */
export const PREFIX = "/api/v1/building";

/** Builds the building handler. */
export function buildingRoutes(services: Services, b: Builder): RouteHandler {
  return async (req, userId) => {
    const parts = pathBelow(req, PREFIX);
    if (!(parts.length === 1 && parts[0] === "room" && req.method === "POST")) {
      throw new NotFoundError("Not Found");
    }
    const me = await services.objects.get(requireUser(userId));
    if (!me) throw new UnauthorizedError();
    if (!atLeast(me.flags, "builder")) {
      throw new ForbiddenError("Building needs the builder flag or higher.");
    }
    const body = await readJson(req);
    const room = await b.room(me, body.name, body.description ?? "");
    return json(objectView(room, []), 201);
  };
}
