import { assertEquals } from "../../tests/assert.ts";
import { Hono } from "hono";
import { PluginApps } from "./plugin_apps.ts";
import type { PluginEnv } from "./plugin_env.ts";
import { describe } from "../plugins/route_doc.ts";

Deno.test("plugin apps: the descriptions the routes carry, gone with the owner's routes", () => {
  const apps = new PluginApps();
  const x = new Hono<PluginEnv>().basePath("/api/v1/x");
  x.use("*", async (_c, next) => await next());
  x.get("/", describe({ summary: "the x", responses: { "200": "ok" } }), (c) => c.json([]));
  x.get("/plain", (c) => c.json([]));
  const y = new Hono<PluginEnv>().basePath("/api/v1/y");
  y.delete("/:id", describe({ summary: "a y", responses: { "200": "ok" } }), (c) => c.json({}));
  apps.add({ prefix: "/api/v1/x", owner: "x", app: x });
  apps.add({ prefix: "/api/v1/y", owner: "y", app: y });
  assertEquals(Object.keys(apps.docs()).sort(), ["DELETE /api/v1/y/:id", "GET /api/v1/x"]);
  assertEquals(apps.docs()["GET /api/v1/x"].summary, "the x");
  apps.removeOwner("x");
  assertEquals(Object.keys(apps.docs()), ["DELETE /api/v1/y/:id"]);
});
