/** REST route of the building plugin: `POST /api/v1/building/room` (builder or higher). */
import {
  caller,
  checkDescription,
  checkName,
  describe,
  MAX_DESCRIPTION,
  objectView,
  type PluginApp,
  requireFlag,
  s,
} from "../../src/plugins/mod.ts";
import type { Builder } from "./store.ts";

/** The prefix the routes are mounted on. */
export const PREFIX = "/api/v1/building";

const DIG = describe({
  summary: "Dig a room (builder flag or higher)",
  auth: "builder",
  body: {
    schema: s.object({
      name: s.custom({ type: "string", minLength: 1 }, (v) => checkName(v, "Room")),
      // null was always taken as no description.
      description: s.optional(
        s.custom(
          { type: ["string", "null"], maxLength: MAX_DESCRIPTION },
          (v) => v === null ? "" : checkDescription(v),
        ),
      ),
    }),
  },
  responses: {
    "201": { description: "the room", schema: { type: "object" } },
    "400": "a bad name, or a description that is not a string or too long",
    "401": "no token",
    "403": "not a builder, or the caller owns its object quota (`game.objectQuota`)",
  },
});

/** Adds the building routes to the plugin's app. */
export function buildingRoutes(app: PluginApp, b: Builder): void {
  app.post(
    "/room",
    DIG,
    requireFlag("builder", "Building needs the builder flag or higher."),
    async (c) => {
      const { name, description } = await DIG.body(c);
      const room = await b.room(caller(c), name, description ?? "");
      return c.json(objectView(room, caller(c), b.locks, []), 201);
    },
  );
}
