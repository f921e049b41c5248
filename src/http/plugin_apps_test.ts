import { assertEquals } from "../../tests/assert.ts";
import { Hono } from "hono";
import { PluginApps } from "./plugin_apps.ts";
import type { PluginEnv } from "./plugin_env.ts";

Deno.test("plugin apps: route descriptions are released with the owner's routes", () => {
  const apps = new PluginApps();
  apps.add({ prefix: "/api/v1/x", owner: "x", app: new Hono<PluginEnv>() });
  apps.describe("x", { "GET /api/v1/x": { summary: "x", responses: { "200": "ok" } } });
  apps.describe("y", { "GET /api/v1/y": { summary: "y", responses: { "200": "ok" } } });
  assertEquals(Object.keys(apps.docs()).sort(), ["GET /api/v1/x", "GET /api/v1/y"]);
  apps.removeOwner("x");
  assertEquals(Object.keys(apps.docs()), ["GET /api/v1/y"]);
});
