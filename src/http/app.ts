/** The Hono app: middleware, core routes, and the runtime route table for plugins. */
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { EngineError } from "../errors.ts";
import type { AppEnv } from "./env.ts";
import type { Services } from "../services.ts";
import { securityHeaders } from "./middleware/headers.ts";
import { cors } from "./middleware/cors.ts";
import { errorHandler, notFound } from "./middleware/errors.ts";
import { playerFromRequest } from "./middleware/auth.ts";
import { authRoutes } from "./routes/auth.ts";
import { coreRoutes } from "./routes/core.ts";
import { objectRoutes } from "./routes/objects.ts";

/** Builds the HTTP app over the shared services. */
export function createApp(services: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.onError(errorHandler());
  app.notFound(notFound());
  app.use("*", securityHeaders());
  app.use("*", cors(services.config));
  app.use("*", async (c, next) => {
    c.set("services", services);
    c.set("player", null);
    c.set("ip", c.env?.remoteAddr?.hostname ?? "unknown");
    await next();
  });

  app.get("/health", (c) => c.json({ status: "ok", engine: "UrsaMU" }));

  const api = new Hono<AppEnv>();
  api.route("/", authRoutes());
  api.route("/", coreRoutes());
  api.route("/", objectRoutes());
  // Runtime routes (plugins) answer whatever the core routes did not.
  api.all("*", async (c) => {
    const entry = services.routes.match(c.req.path);
    if (!entry) return c.json({ error: "Not Found" }, 404);
    const player = await playerFromRequest(services, c.req.raw);
    // A plugin's bug is logged under the plugin's name (the error handler still answers 500).
    const where = `plugin ${entry.owner}: ${c.req.method} ${c.req.path}`;
    // Hono answers HEAD by running the GET route and dropping the body; a plugin handler
    // reads the raw request, so it is shown the GET that Hono is answering.
    const req = c.req.raw.method === "HEAD" ? new Request(c.req.raw, { method: "GET" }) : c.req.raw;
    let res: unknown;
    try {
      res = await entry.handler(req, player?.id ?? null);
    } catch (e) {
      if (e instanceof EngineError || e instanceof HTTPException) throw e;
      throw new Error(`${where} failed`, { cause: e });
    }
    if (!(res instanceof Response)) throw new Error(`${where}: the handler returned no Response`);
    return res;
  });
  app.route("/api/v1", api);
  return app;
}
