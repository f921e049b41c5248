/** The shared services the composition root builds once and hands to every layer. */
import type { Config } from "./config/load.ts";
import type { ObjectStore } from "./world/objects.ts";
import type { AttributeStore } from "./world/attributes/store.ts";
import type { Softcode } from "./softcode/mod.ts";
import type { Accounts } from "./auth/accounts.ts";
import type { Guests } from "./auth/guests.ts";
import type { TokenService } from "./auth/tokens.ts";
import type { SecurityLog } from "./auth/security_log.ts";
import type { WindowCounter } from "./auth/rate_limit.ts";
import type { Players } from "./world/players.ts";
import type { Texts } from "./text/texts.ts";
import type { PluginApps } from "./http/plugin_apps.ts";
import type { PluginWeb } from "./http/plugin_web.ts";
import type { Lifecycle } from "./lifecycle.ts";
import type { Delivery, Presence } from "./hub/types.ts";
import type { EngineCommands, EnginePlugins } from "./engine_admin.ts";
import type { Hooks } from "./plugins/hooks.ts";
import type { EngineScripts } from "./scripts/types.ts";

/** Services shared by HTTP routes, the hub, commands and plugins. */
export interface Services {
  config: Config;
  kv: Deno.Kv;
  objects: ObjectStore;
  /** Attributes of objects (src/world/attributes): values, owners, flags, quota. */
  attributes: AttributeStore;
  /** The softcode evaluator (src/softcode), over the world in memory. */
  softcode: Softcode;
  accounts: Accounts;
  /** Temporary guest characters (`connect guest`). */
  guests: Guests;
  tokens: TokenService;
  securityLog: SecurityLog;
  /** Players by name, alias or dbref; who is connected; display names. */
  players: Players;
  texts: Texts;
  /** Failed logins per client IP (10 a minute). */
  loginFailures: WindowCounter;
  /** Characters created per client IP (`game.registrationsPerHour`; src/auth/registration.ts). */
  registrations: WindowCounter;
  /** The Hono apps plugins mount and unmount at runtime. */
  pluginApps: PluginApps;
  /** Plugins' static web folders, served at `/plugins/<name>/`. */
  pluginWeb: PluginWeb;
  /** Directory relative paths resolve against. */
  root: string;
  /** When the engine started (ms since epoch). */
  startedAt: number;
  /**
   * True while this engine is the database's only writer (a local file or `:memory:`, not a
   * shared KV Connect server): what it read or wrote last is then what the database holds.
   */
  soleWriter: boolean;
  /** Ends the engine process with an exit code (`@reboot` 75, `@shutdown` 0) after its hooks. */
  lifecycle: Lifecycle;
  /** Who is online and where (the hub's memory). */
  presence: Presence;
  /** The engine's one delivery to players (the same object plugins get as `ctx.deliver`). */
  deliver: Delivery;
  /** In-game commands (core and plugins): look up, list, reload the core ones. */
  commands: EngineCommands;
  /** Loaded plugins: list, reload, unload (src/plugins/manager.ts). */
  plugins: EnginePlugins;
  /** The engine's world events and the buses plugins declare. */
  hooks: Hooks;
  /** System scripts (src/scripts/manager.ts): list, show, check. */
  scripts: EngineScripts;
}
