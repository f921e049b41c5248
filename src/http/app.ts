/** The Hono app: middleware, core routes, and the plugin apps mounted at runtime. */
import { Hono } from "hono";
import type { AppEnv } from "./env.ts";
import type { Services } from "../services.ts";
import { securityHeaders } from "./middleware/headers.ts";
import { cors } from "./middleware/cors.ts";
import { errorHandler, notFound } from "./middleware/errors.ts";
import { playerFromRequest } from "./middleware/auth.ts";
import { authRoutes } from "./routes/auth.ts";
import { coreRoutes } from "./routes/core.ts";
import { objectRoutes } from "./routes/objects.ts";
import { type RouteInfo, routesOf } from "./plugin_apps.ts";
import { webPrefix } from "./plugin_web.ts";
import { dispatchToPlugin } from "../plugins/http.ts";
import { wantsHtml, WebClient } from "./web_client.ts";
import { buildOpenApi } from "./openapi/build.ts";
import { CORE_DOCS } from "./openapi/core_docs.ts";
import { ENGINE_VERSION } from "../version.ts";
import { isGuest } from "../world/flags.ts";
import { ForbiddenError } from "../errors.ts";

/** Methods that only read. */
const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/** A guest's answer to any write over REST. */
const GUEST_WRITE =
  "Guests can look around but not change anything; make a character to play (register).";

/** Builds the HTTP app over the shared services. */
export function createApp(services: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const web = new WebClient();
  const jsonNotFound = notFound();
  app.onError(errorHandler());
  // Browsers navigating to an unknown page get the client's HTML 404; the API stays JSON.
  app.notFound((c) =>
    !c.req.path.startsWith("/api/") && wantsHtml(c.req.raw)
      ? web.notFound(c.req.raw)
      : jsonNotFound(c)
  );
  app.use("*", securityHeaders());
  app.use("*", cors(services.config));
  app.use("*", async (c, next) => {
    c.set("services", services);
    c.set("player", null);
    c.set("ip", c.env?.remoteAddr?.hostname ?? "unknown");
    await next();
  });

  app.get("/health", (c) => c.json({ status: "ok", engine: "UrsaMU" }));

  // Plugins' own pages and assets: `/plugins/<name>/` is the folder's index.html. A miss is the
  // app's 404 (HTML to a browser navigating, JSON otherwise), like every other page's.
  app.get("/plugins/:name", (c) => c.redirect(`${webPrefix(c.req.param("name"))}/`, 301));
  app.get("/plugins/:name/*", async (c) => {
    const name = c.req.param("name");
    let rest: string;
    try {
      rest = decodeURIComponent(c.req.path.slice(webPrefix(name).length + 1));
    } catch {
      return c.notFound();
    }
    const res = await services.pluginWeb.serve(name, rest, c.req.method === "HEAD");
    return res ?? c.notFound();
  });

  const api = new Hono<AppEnv>();
  // The caller is resolved once here, for core routes and plugin apps alike.
  api.use("*", async (c, next) => {
    const player = await playerFromRequest(services, c.req.raw);
    c.set("player", player);
    // Guests look but do not write, here as in game (docs/guests.md); the account routes do
    // not act for the caller, so a guest may still make a character of its own.
    if (
      player && isGuest(player.flags) && !READS.has(c.req.method) &&
      !c.req.path.startsWith("/api/v1/auth/")
    ) {
      throw new ForbiddenError(GUEST_WRITE);
    }
    await next();
  });
  api.route("/", authRoutes());
  api.route("/", coreRoutes());
  api.route("/", objectRoutes());
  api.get("/routes", (c) => c.json(describeRoutes(app, services)));
  // Built from the same list, so it describes exactly what is registered (docs/api.md).
  api.get("/openapi.json", (c) => {
    const cfg = services.config.value;
    return c.json(
      buildOpenApi(
        describeRoutes(app, services),
        { ...services.pluginApps.docs(), ...CORE_DOCS },
        {
          title: `${cfg.game.name} API`,
          version: ENGINE_VERSION,
          description: "UrsaMU REST API: the core's routes and those of the loaded plugins.",
        },
      ),
    );
  });
  // Plugin apps answer whatever the core routes did not.
  api.all("*", (c) => {
    const mounted = services.pluginApps.match(c.req.path);
    if (!mounted) return jsonNotFound(c);
    return dispatchToPlugin(mounted.app, c.req.raw, { player: c.var.player, ip: c.var.ip });
  });
  app.route("/api/v1", api);

  // The browser client and portal (web/, docs/web.md): its assets and its own paths.
  app.get("/assets/*", async (c) => {
    let rest: string;
    try {
      rest = decodeURIComponent(c.req.path.slice("/assets/".length));
    } catch {
      return c.notFound();
    }
    return await web.asset(c.req.raw, rest) ?? c.notFound();
  });
  app.get("*", (c) => web.isClientPath(c.req.path) ? web.shell(c.req.raw) : c.notFound());
  return app;
}

/** Every route with its methods: the core's, then each plugin's, sorted by path. */
function describeRoutes(app: Hono<AppEnv>, services: Services): RouteInfo[] {
  const core = routesOf(app, "core").filter((r) =>
    !r.path.startsWith("/plugins/") &&
    !r.path.endsWith("*")
  );
  const pages = services.pluginWeb.owners().map((owner) => ({
    method: "GET",
    path: `${webPrefix(owner)}/*`,
    owner,
  }));
  return [...core, ...services.pluginApps.routes(), ...pages]
    .sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}
