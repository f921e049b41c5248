/** The Hono app: middleware, core routes, and the plugin apps mounted at runtime. */
import { Hono } from "hono";
import type { AppEnv } from "./env.ts";
import { securityHeaders } from "./middleware/headers.ts";
import { cors } from "./middleware/cors.ts";
import { errorHandler, notFound } from "./middleware/errors.ts";
import { playerFromRequest } from "./middleware/auth.ts";
import { authRoutes } from "./routes/auth.ts";
import { coreRoutes } from "./routes/core.ts";
import { objectRoutes } from "./routes/objects.ts";
import { publicRoutes } from "./routes/public.ts";
import { avatarRoutes } from "./routes/avatars.ts";
import { profileRoutes } from "./routes/profile.ts";
import type { AvatarFiles } from "./avatars.ts";
import type { Config } from "../config/load.ts";
import type { Texts } from "../text/texts.ts";
import type { ObjectStore } from "../world/objects.ts";
import type { Presence } from "../hub/types.ts";
import type { Accounts } from "../auth/accounts.ts";
import type { Guests } from "../auth/guests.ts";
import type { AttributeStore } from "../world/attributes/store.ts";
import type { TokenService } from "../auth/tokens.ts";
import type { SecurityLog } from "../auth/security_log.ts";
import type { SlidingWindows } from "../rate/sliding.ts";
import type { AccountLimit } from "../auth/account_limit.ts";
import { type PluginApps, type RouteInfo, routesOf } from "./plugin_apps.ts";
import { type PluginWeb, webPrefix } from "./plugin_web.ts";
import { dispatchToPlugin } from "../plugins/http.ts";
import { wantsHtml, WebClient } from "./web_client.ts";
import { buildOpenApi } from "./openapi/build.ts";
import { CORE_DOCS } from "./openapi/core_docs.ts";
import { ENGINE_VERSION } from "../version.ts";
import { isGuest } from "../world/flags.ts";
import type { ControlWorld } from "../world/control.ts";
import type { Softcode } from "../softcode/mod.ts";
import { ForbiddenError } from "../errors.ts";

/** Methods that only read. */
const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/** A guest's answer to any write over REST. */
const GUEST_WRITE =
  "Guests can look around but not change anything; make a character to play (register).";

/** What the HTTP app serves: the core routes' needs, and what plugins mounted. */
export interface AppDeps {
  config: Config;
  texts: Pick<Texts, "get">;
  objects: ObjectStore;
  presence: Presence;
  attributes: AttributeStore;
  /** What control reads (the engine's lock world; null on a shared database). */
  locks: ControlWorld | null;
  /** Whose softcode time a request's lock and control checks spend (its caller's). */
  softcode: Pick<Softcode, "onBehalfOf" | "turnWait">;
  accounts: Accounts;
  guests: Guests;
  tokens: TokenService;
  securityLog: SecurityLog;
  loginFailures: SlidingWindows;
  /** Failed logins per account (`game.accountLoginFailures`). */
  accountFailures: AccountLimit;
  /** Characters created per client address (`game.registrationsPerHour`). */
  registrations: SlidingWindows;
  /** The Hono apps plugins mount and unmount at runtime. */
  pluginApps: PluginApps;
  /** Plugins' static web folders, served at `/plugins/<name>/`. */
  pluginWeb: PluginWeb;
  /** Avatars players uploaded (`web.avatarDir`). */
  avatars: AvatarFiles;
}

/** Builds the HTTP app. */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const web = new WebClient(undefined, (first) => deps.pluginWeb.portal.has(first));
  const jsonNotFound = notFound();
  app.onError(errorHandler());
  // Browsers navigating to an unknown page get the client's HTML 404; the API stays JSON.
  app.notFound((c) =>
    !c.req.path.startsWith("/api/") && wantsHtml(c.req.raw)
      ? web.notFound(c.req.raw)
      : jsonNotFound(c)
  );
  app.use("*", securityHeaders());
  app.use("*", cors(deps.config));
  app.use("*", async (c, next) => {
    c.set("player", null);
    // The client's address: the peer, or what a trusted proxy forwarded (src/net).
    c.set("ip", c.env?.ip ?? c.env?.remoteAddr?.hostname ?? "unknown");
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
    const res = await deps.pluginWeb.serve(c.req.raw, name, rest);
    return res ?? c.notFound();
  });

  const api = new Hono<AppEnv>();
  // The caller is resolved once here, for core routes and plugin apps alike.
  api.use("*", async (c, next) => {
    const player = await playerFromRequest(deps, c.req.raw);
    c.set("player", player);
    // Guests look but do not write, here as in game (docs/guests.md); the account routes do
    // not act for the caller, so a guest may still make a character of its own.
    if (
      player && isGuest(player.flags) && !READS.has(c.req.method) &&
      !c.req.path.startsWith("/api/v1/auth/")
    ) {
      throw new ForbiddenError(GUEST_WRITE);
    }
    // A lock or a zone's lock a request's checks evaluate is paid for by the player asking, as
    // in game (docs/softcode.md, "Whose time"); with no caller, by the objects' owners. A
    // player whose softcode used its slice of the turn waits for its end, as a typed line does.
    // A request without a caller waits for no turn, so it runs on behalf of nobody: what it
    // evaluates does not put the turn's end off for the payers waiting (Softcode.onBehalfOf).
    if (!player) {
      await next();
      return;
    }
    const wait = deps.softcode.turnWait(player.id);
    if (wait !== null) await wait;
    await deps.softcode.onBehalfOf(player.id, next);
  });
  api.route("/", authRoutes(deps));
  api.route("/", coreRoutes(deps));
  api.route("/", objectRoutes(deps));
  api.route("/", publicRoutes(deps));
  api.route("/", avatarRoutes(deps));
  api.route("/", profileRoutes(deps));
  api.get("/routes", (c) => c.json(describeRoutes(app, deps)));
  // The plugins' portal sections and play panes: the web client builds its menu from it.
  api.get("/portal", (c) => c.json(deps.pluginWeb.portal.view()));
  // Built from the same list, so it describes exactly what is registered (docs/api.md).
  api.get("/openapi.json", (c) => {
    const cfg = deps.config.value;
    return c.json(
      buildOpenApi(
        describeRoutes(app, deps),
        { ...deps.pluginApps.docs(), ...CORE_DOCS },
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
    const mounted = deps.pluginApps.match(c.req.path);
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
function describeRoutes(
  app: Hono<AppEnv>,
  plugins: Pick<AppDeps, "pluginApps" | "pluginWeb">,
): RouteInfo[] {
  const core = routesOf(app, "core").filter((r) =>
    !r.path.startsWith("/plugins/") &&
    !r.path.endsWith("*")
  );
  const pages = plugins.pluginWeb.owners().map((owner) => ({
    method: "GET",
    path: `${webPrefix(owner)}/*`,
    owner,
  }));
  return [...core, ...plugins.pluginApps.routes(), ...pages]
    .sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}
