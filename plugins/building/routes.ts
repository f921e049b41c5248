/** REST route of the building plugin: `POST /api/v1/building/room` (builder or higher). */
import {
  caller,
  objectView,
  type PluginApp,
  readJson,
  requireFlag,
} from "../../src/plugins/mod.ts";
import type { Builder } from "./store.ts";

/** The prefix the routes are mounted on. */
export const PREFIX = "/api/v1/building";

/** Adds the building routes to the plugin's app. */
export function buildingRoutes(app: PluginApp, b: Builder): void {
  app.post(
    "/room",
    requireFlag("builder", "Building needs the builder flag or higher."),
    async (c) => {
      const body = await readJson(c);
      const room = await b.room(caller(c), body.name, body.description ?? "");
      return c.json(objectView(room, caller(c), []), 201);
    },
  );
}
