/**
 * The object a plugin's `init(ctx)` receives. Everything registered through it
 * (routes, commands, help, hook handlers, cleanup callbacks) is recorded, so the
 * manager can release it on unload or reload even when the plugin's own
 * `remove()` forgets something or throws.
 */
import { join } from "node:path";
import type { Config } from "../config/load.ts";
import type { PluginWeb } from "../http/plugin_web.ts";
import type { PluginSection } from "../config/defaults.ts";
import type { PluginApps } from "../http/plugin_apps.ts";
import type { PortalCard, PortalPane, PortalSection } from "../http/portal.ts";
import { createPluginApp, type PluginApp, type RouteHandler } from "./http.ts";
import { type CommandSpec, type PluginCommandSpec, pluginSdk } from "../commands/types.ts";
import type { EventBus, Handler, Hooks, Payloads, Unsubscribe, WorldEvents } from "./hooks.ts";
import type { HelpRegistry, HelpTopicInput } from "./help_registry.ts";
import type { PluginManifest } from "./manifest.ts";
import { PluginKv } from "./kv.ts";
import type { PluginWorld } from "./world.ts";
import type { PluginEngine } from "./engine_info.ts";
import type { Scheduler } from "../timers/scheduler.ts";
import { type PluginTimers, pluginTimers } from "./timers.ts";
import type { Delivery } from "../hub/types.ts";
import type { GmcpHandler, GmcpMap, GmcpMapper } from "../hub/gmcp_map.ts";
import type { PlayerLookup } from "../world/players.ts";
import type { SecretSink } from "../logging/logger.ts";
import { type PlayerRates, type PluginRates, pluginRates } from "./rates.ts";
import { type PluginQuota, pluginQuota, type QuotaSpec } from "./quota.ts";
import { collapsingNotices, type NoticeOptions, type PluginNotices } from "./notices.ts";
import { type FunctionHost, pluginFunction, type PluginFunctionSpec } from "./functions.ts";

/** What the context needs of the command registry. */
export interface CommandHost {
  add(spec: CommandSpec, owner: string): unknown;
  removeOwner(owner: string): unknown;
  /** Replaces every command of `owner` in one step (all validated first). */
  replaceOwner(owner: string, specs: readonly { spec: CommandSpec }[]): unknown;
}

/** Engine parts a context reads and registers into. */
export interface ContextHost {
  /** The running configuration (each plugin reads its own section). */
  config: Config;
  /** The store; a plugin's keys live under `["plugin", <name>, ...]`. */
  kv: Deno.Kv;
  /** The world as plugins see it (`ctx.world`). */
  world: PluginWorld;
  /** The engine as plugins may read it (`ctx.engine`). */
  engine: PluginEngine;
  /** Players by name, alias or dbref (`ctx.players`). */
  players: PlayerLookup;
  /** The engine's one delivery (`ctx.deliver`). */
  deliver: Delivery;
  /** Plugins' static web folders. */
  web: PluginWeb;
  apps: PluginApps;
  commands: CommandHost;
  hooks: Hooks;
  help: HelpRegistry;
  /** The engine's persistent timers. */
  timers: Scheduler;
  /** The evaluator's function table (`ctx.functions`); absent: plugins add no functions. */
  functions?: FunctionHost;
  /** The GMCP mappings the hub applies for telnet clients. */
  gmcp: GmcpMap;
  /** Per-player rate buckets, kept across plugin reloads. */
  rates: PlayerRates;
  /** Another plugin's exported API by name (case-insensitive). */
  api(name: string): unknown;
  /** The process's log scrubber (`ctx.secret`). */
  secrets: SecretSink;
}

/** A bus as another plugin sees it: subscriptions are tracked and released on unload. */
export interface BusListener<E extends object> {
  /** Adds a handler (released automatically on unload); returns its remover. */
  on<K extends keyof E>(event: K, handler: Handler<E[K]>): Unsubscribe;
  /** Removes a handler. */
  off<K extends keyof E>(event: K, handler: Handler<E[K]>): void;
  /** The event names its owner declared (none before it has). */
  readonly events: string[];
}

/** A bus as the plugin that declared it sees it: it alone emits. */
export interface PluginBus<E extends object> extends BusListener<E> {
  /** Fires an event (never rejects; does nothing once the plugin is unloaded). */
  emit<K extends keyof E>(event: K, payload: E[K]): Promise<void>;
}

/**
 * The events a bus carries, each with when it fires: every event of `E`, none more (the
 * compiler checks both). The engine keeps the names; the sentences are for the code's reader.
 */
export type EventList<E extends object> = { readonly [K in keyof E & string]: string };

/** The buses as a plugin sees them. */
export interface PluginHooks {
  /**
   * Declares a bus this plugin owns: its name and the events it carries (`E` types their
   * payloads). Other plugins listen with `bus(name)`; a bus another loaded plugin declared is
   * refused. Released (not forgotten: listeners stay) when the plugin unloads.
   */
  declare<E extends object>(name: string, events: EventList<E>): PluginBus<E>;
  /**
   * A bus another plugin declares, to listen on (typed by the owner's payload types, imported
   * with `import type`). It may be asked for before its owner loads: names are checked then.
   */
  bus<E extends object = Payloads>(name: string): BusListener<E>;
  /** The engine's world events: plugins listen, only the engine emits. */
  worldHooks: Pick<BusListener<WorldEvents>, "on" | "off">;
}

/** A plugin-scoped logger (prefixes the plugin name). */
export interface PluginLog {
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

/** The context a plugin's `init(ctx)` receives. */
export interface PluginContext {
  /** The plugin's name as its manifest spells it. */
  readonly name: string;
  /** Absolute path of the plugin folder (for data files; code may run from a reload copy). */
  readonly dir: string;
  readonly manifest: PluginManifest;
  /** The live `plugins.<name>` configuration section (`{}` when absent). */
  readonly config: PluginSection;
  /** False once the plugin is unloaded (late callbacks should then do nothing). */
  readonly active: boolean;
  /** Objects, rooms and exits: read, create, change, destroy; the starting room; `look`. */
  readonly world: PluginWorld;
  /** The running configuration and what is registered (read-only). */
  readonly engine: PluginEngine;
  /**
   * A new Hono app serving `prefix` (`/api/v1/x` or `x`) and everything below it: routes
   * are written relative to the prefix (`app.get("/:id", ...)`), the caller is in
   * `c.var.player`, typed errors become `{ error }`. Unmounted when the plugin unloads.
   */
  http(prefix: string): PluginApp;
  /**
   * Serves the plugin's static pages and assets (HTML, CSS, JS, images) from `dir`
   * (default: its `web/` folder) at `/plugins/<name>/`; a folder answers its `index.html`.
   */
  web(dir?: string): void;
  /**
   * The plugin's parts of the web portal, shipped in its web folder (served as by `web()`,
   * which this calls when the plugin has not): a section (pages under `/<path>` and a menu
   * entry) and panes beside the play client's output. Released when the plugin unloads.
   */
  readonly portal: {
    /** A section: its path, menu label and order, the module that renders it, its settings. */
    section(spec: PortalSection): void;
    /** A pane of the play view: the module that builds it, its order and settings. */
    pane(spec: PortalPane): void;
    /** A card on a core page (the front page, a character's page). */
    card(spec: PortalCard): void;
  };
  /** REST routes in their plainest form. */
  readonly routes: {
    /** Registers `handler` for `prefix` and everything below it (all methods). */
    add(prefix: string, handler: RouteHandler): void;
  };
  /** In-game commands. */
  readonly commands: {
    /** Registers a command owned by this plugin. */
    add(spec: PluginCommandSpec): void;
    /** Removes this plugin's commands of that name (case-insensitive); true when any went. */
    remove(name: string): boolean;
  };
  /**
   * Softcode functions over the plugin's data (`mail()`): each runs synchronously inside an
   * evaluation, so it reads what the plugin holds in memory. Removed when the plugin unloads.
   */
  readonly functions: {
    /** Adds a function; a name the table already has (a built-in's, another's) is refused. */
    add(spec: PluginFunctionSpec): void;
  };
  /** Help topics (the plugin's `help/` folder is picked up without asking). */
  readonly help: {
    /** Adds one topic. */
    add(topic: HelpTopicInput): void;
    /** Adds another folder of help files. */
    addDir(dir: string, section?: string): void;
  };
  /** Event buses; handlers are released on unload. */
  readonly hooks: PluginHooks;
  /** Key-value storage under `["plugin", <name>, ...]`. */
  readonly kv: PluginKv;
  /** Persistent timers (they survive `@reboot` and a full stop); handlers released on unload. */
  readonly timers: PluginTimers;
  /**
   * Delivery to one player, a list of players, a room (with exclusions) or everyone logged in;
   * each message is encoded once per client kind, however many receive it.
   */
  readonly deliver: Delivery;
  /**
   * Maps this plugin's messages of `data.type` `type` to GMCP package `pkg` for telnet clients
   * that speak GMCP: `map(data, msg)` builds the payload once per message (undefined: none).
   * Released on unload.
   */
  gmcp(type: string, pkg: string, map: GmcpMapper): void;
  /**
   * Answers GMCP package `pkg` when a logged-in player's telnet client sends it (IRE requests
   * such as `Comm.Channel.Players`). Packages nobody handles are ignored; a throwing handler is
   * logged. Released on unload.
   */
  gmcpHandle(pkg: string, handle: GmcpHandler): void;
  /** True when one of the player's telnet clients speaks GMCP and wants `pkg` (`Core.Supports`). */
  gmcpWants(playerId: string, pkg: string): boolean;
  /** Players by name, alias or dbref, lists of names at once, who is connected, display names. */
  readonly players: PlayerLookup;
  /**
   * Per-player rates: `restWrite()` for REST routes whose writes reach other players (one
   * budget for all plugins), `take(...)` for a budget of the plugin's own.
   */
  readonly rates: PluginRates;
  /**
   * Declares a per-player quota on what the plugin stores, set by `plugins.<name>.<setting>`:
   * a counter kept in the same commit as the records it counts.
   */
  quota(spec: QuotaSpec): PluginQuota;
  /**
   * Notices that collapse a burst: the first of a key at once, the rest of its window in one
   * line. Stopped when the plugin unloads.
   */
  notices<T>(opts: NoticeOptions<T>): PluginNotices<T>;
  readonly log: PluginLog;
  /**
   * Registers a value that must never be written in a log line (a token, a webhook address):
   * the engine's log scrubber writes `[secret]` in its place, in every line of the process.
   * Values shorter than 6 characters are ignored. Registrations last until the process ends.
   */
  secret(value: string): void;
  /** Another plugin's exported API (look it up when used: it changes on reload). */
  api<T = unknown>(name: string): T | undefined;
  /** Sets the API other plugins get from `ctx.api(<this name>)`. */
  provide(api: unknown): void;
  /** Runs `fn` when the plugin is unloaded (timers, sockets, caches). */
  onRemove(fn: () => void | Promise<void>): void;
}

/** The manager's side of a context: the tracked registrations and their release. */
export class ContextImpl implements PluginContext {
  readonly name: string;
  readonly dir: string;
  readonly manifest: PluginManifest;
  readonly world: PluginWorld;
  readonly engine: PluginEngine;
  readonly kv: PluginKv;
  readonly timers: PluginTimers;
  readonly deliver: Delivery;
  readonly players: PlayerLookup;
  readonly rates: PluginRates;
  readonly log: PluginLog;
  readonly routes: PluginContext["routes"];
  readonly commands: PluginContext["commands"];
  readonly help: PluginContext["help"];
  readonly functions: PluginContext["functions"];
  readonly hooks: PluginHooks;
  readonly portal: PluginContext["portal"];
  /** What `provide()` set. */
  provided: unknown = undefined;
  #active = true;
  readonly #host: ContextHost;
  readonly #owner: string;
  readonly #unsubs: Unsubscribe[] = [];
  readonly #cleanups: (() => void | Promise<void>)[] = [];
  #specs: CommandSpec[] = [];

  constructor(host: ContextHost, manifest: PluginManifest, dir: string) {
    this.#host = host;
    this.manifest = manifest;
    this.name = manifest.name;
    this.#owner = manifest.name.toLowerCase();
    this.dir = dir;
    this.world = host.world;
    this.engine = host.engine;
    this.kv = new PluginKv(host.kv, this.#owner);
    this.players = host.players;
    this.rates = pluginRates(
      host.rates,
      this.#owner,
      () => host.config.value.game.restWritesPerMinute,
    );
    this.timers = pluginTimers(
      host.timers,
      this.#owner,
      (off) => void this.#unsubs.push(off),
      () => this.#check(),
      (op) => this.kv.scoped(op),
    );
    // The engine's one delivery itself: what a plugin sends goes the way a command's does.
    this.deliver = host.deliver;
    const tag = `plugin ${manifest.name}:`;
    this.log = {
      info: (...a) => console.log(tag, ...a),
      warn: (...a) => console.warn(tag, ...a),
      error: (...a) => console.error(tag, ...a),
    };
    this.routes = {
      add: (prefix, handler) => {
        if (typeof handler !== "function") throw new Error("route handler must be a function");
        this.http(prefix).all("*", async (c) => {
          // Hono answers HEAD by running the GET route without the body: show the handler a GET.
          const req = c.req.raw.method === "HEAD"
            ? new Request(c.req.raw, { method: "GET" })
            : c.req.raw;
          const res = await handler(req, c.var.player?.id ?? null);
          if (!(res instanceof Response)) throw new Error("the handler returned no Response");
          return res;
        });
      },
    };
    this.commands = {
      add: (spec) => {
        this.#check();
        const engineSpec = withPluginSdk(spec);
        host.commands.add(engineSpec, this.#owner);
        this.#specs.push(engineSpec);
      },
      remove: (name) => {
        this.#check();
        const lower = String(name).toLowerCase();
        const keep = this.#specs.filter((s) => s.name.toLowerCase() !== lower);
        if (keep.length === this.#specs.length) return false;
        host.commands.replaceOwner(this.#owner, keep.map((spec) => ({ spec })));
        this.#specs = keep;
        return true;
      },
    };
    this.functions = {
      add: (spec) => {
        this.#check();
        const table = host.functions;
        if (!table) throw new Error("softcode functions cannot be added here");
        const def = pluginFunction(spec, this.#owner);
        if (table.get(def.name)) {
          throw new Error(`a softcode function ${def.name.toLowerCase()}() exists already`);
        }
        table.add(def);
        // Only its own: a later definition of the name (an @function) is left alone.
        this.#cleanups.push(() => {
          if (table.get(def.name) === def) table.remove(def.name);
        });
      },
    };
    this.help = {
      add: (topic) => {
        this.#check();
        host.help.addTopic({ section: this.#owner, ...topic, owner: this.#owner });
      },
      addDir: (d, section) => {
        this.#check();
        host.help.addDir({ dir: d, owner: this.#owner, section });
      },
    };
    const web = () => {
      this.#check();
      const pages = host.web;
      if (!pages.serves(this.#owner)) this.web();
      return { pages, has: (file: string) => pages.hasFile(this.#owner, file) };
    };
    this.portal = {
      section: (spec) => {
        const { pages, has } = web();
        pages.portal.section(this.#owner, spec, has);
      },
      pane: (spec) => {
        const { pages, has } = web();
        pages.portal.pane(this.#owner, spec, has);
      },
      card: (spec) => {
        const { pages, has } = web();
        pages.portal.card(this.#owner, spec, has);
      },
    };
    this.hooks = {
      declare: <E extends object>(name: string, events: EventList<E>) => {
        this.#check();
        if (typeof events !== "object" || events === null || Array.isArray(events)) {
          throw new Error(`bus '${name}': events must be an object of event names`);
        }
        const bus = host.hooks.buses.declare(name, Object.keys(events), this.#owner);
        const owned = this.#track(bus) as unknown as PluginBus<E>;
        // An unloaded version's late callback must not speak on its successor's bus.
        (owned as { emit: PluginBus<E>["emit"] }).emit = (event, payload) =>
          this.#active ? bus.emit(event as string, payload as Payloads[string]) : Promise.resolve();
        return owned;
      },
      bus: <E extends object>(name: string) =>
        this.#track(host.hooks.buses.bus(name)) as unknown as BusListener<E>,
      worldHooks: (({ on, off }) => ({ on, off }))(this.#track(host.hooks.worldHooks)),
    };
  }

  http(prefix: string): PluginApp {
    this.#check();
    const full = fullPrefix(prefix);
    const app = createPluginApp(full, this.#owner);
    this.#host.apps.add({ prefix: full, owner: this.#owner, app });
    return app;
  }

  web(dir = join(this.dir, "web")): void {
    this.#check();
    this.#host.web.add(this.#owner, dir);
  }

  gmcp(type: string, pkg: string, map: GmcpMapper): void {
    this.#check();
    this.#host.gmcp.set(type, pkg, map, this.#owner);
  }

  gmcpHandle(pkg: string, handle: GmcpHandler): void {
    this.#check();
    this.#host.gmcp.handle(pkg, handle, this.#owner);
  }

  gmcpWants(playerId: string, pkg: string): boolean {
    return this.#host.gmcp.wants(playerId, pkg);
  }

  quota(spec: QuotaSpec): PluginQuota {
    this.#check();
    return pluginQuota(spec, this.kv, () => this.config);
  }

  notices<T>(opts: NoticeOptions<T>): PluginNotices<T> {
    this.#check();
    const n = collapsingNotices(opts, (e) => this.log.error("a notice failed:", e));
    this.#cleanups.push(() => n.close());
    return n;
  }

  get config(): PluginSection {
    return this.#host.config.value.plugins[this.#owner] ?? {};
  }

  /** False once released: later registrations are refused. */
  get active(): boolean {
    return this.#active;
  }

  secret(value: string): void {
    if (typeof value !== "string") throw new Error("ctx.secret needs a string");
    this.#host.secrets.addSecrets([value]);
  }

  api<T = unknown>(name: string): T | undefined {
    return this.#host.api(name) as T | undefined;
  }

  provide(api: unknown): void {
    this.#check();
    this.provided = api;
  }

  onRemove(fn: () => void | Promise<void>): void {
    this.#check();
    if (typeof fn !== "function") throw new Error("onRemove needs a function");
    this.#cleanups.push(fn);
  }

  /**
   * Releases everything registered through this context. Never throws: each
   * cleanup failure is logged and the rest still run.
   */
  async release(): Promise<void> {
    if (!this.#active) return;
    this.#active = false;
    for (const fn of this.#cleanups.splice(0).reverse()) {
      try {
        await fn();
      } catch (e) {
        this.log.error("cleanup failed:", e);
      }
    }
    for (const off of this.#unsubs.splice(0)) off();
    const steps: [string, () => unknown][] = [
      ["routes", () => this.#host.apps.removeOwner(this.#owner)],
      ["web pages", () => this.#host.web.removeOwner(this.#owner)],
      ["commands", () => this.#host.commands.removeOwner(this.#owner)],
      ["help", () => this.#host.help.removeOwner(this.#owner)],
      ["gmcp", () => this.#host.gmcp.removeOwner(this.#owner)],
      ["buses", () => this.#host.hooks.buses.release(this.#owner)],
    ];
    for (const [what, fn] of steps) {
      try {
        fn();
      } catch (e) {
        this.log.error(`releasing ${what} failed:`, e);
      }
    }
    this.provided = undefined;
  }

  #check(): void {
    if (!this.#active) throw new Error(`plugin ${this.name} is unloaded; registration refused`);
  }

  #track<E extends object>(bus: EventBus<E>): BusListener<E> {
    return {
      on: (event, handler) => {
        this.#check();
        const off = bus.on(event, handler);
        this.#unsubs.push(off);
        return off;
      },
      off: (event, handler) => bus.off(event, handler),
      get events() {
        return bus.events.map(String);
      },
    };
  }
}

/**
 * The engine form of a plugin command: its exec gets the SDK without the engine's ports
 * (objects, players, presence, delivery, ...), at run time as in its type (a plugin reaches the
 * engine through its context).
 * Anything that is not a spec with an exec goes to the registry as it is, to be refused there.
 */
function withPluginSdk(spec: PluginCommandSpec): CommandSpec {
  if (typeof spec !== "object" || spec === null || typeof spec.exec !== "function") {
    return spec as unknown as CommandSpec;
  }
  const exec = spec.exec;
  return {
    ...spec,
    exec: (u) => {
      return exec.call(spec, pluginSdk(u));
    },
  };
}

/** A full route prefix: `/api/v1` and at least one segment of URL-safe characters. */
const PREFIX_RE = /^\/api\/v1(?:\/[A-Za-z0-9._~-]+)+$/;

/**
 * `kettle`, `/kettle` and `/api/v1/kettle` all mean `/api/v1/kettle`. Refused: `/api/v1`
 * itself (it would answer every unknown path), other API roots, `.`/`..` segments and
 * characters a URL path would have to escape.
 */
export function fullPrefix(prefix: string): string {
  if (typeof prefix !== "string" || prefix.trim() === "") {
    throw new Error("route prefix is required");
  }
  const p = prefix.trim().replace(/\/+$/, "");
  const rest = p.startsWith("/api/v1/") ? p.slice("/api/v1/".length) : p.replace(/^\/+/, "");
  const full = `/api/v1/${rest}`;
  if (
    rest === "" || rest.startsWith("api/") || !PREFIX_RE.test(full) ||
    full.split("/").some((s) => s === "." || s === "..")
  ) {
    throw new Error(`bad route prefix '${prefix}'`);
  }
  return full;
}
