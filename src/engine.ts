/**
 * The composition root: builds every service once and wires them together.
 * Nothing else in src/ holds state at module level; tests build isolated engines.
 */
import { AvatarFiles } from "./http/avatars.ts";
import { processEnv, processEnvironment } from "./config/process_env.ts";
import { resolve } from "node:path";
import { Config, configFile, type ConfigSources } from "./config/load.ts";
import { applySiteSettings } from "./config/site.ts";
import { DOING_HEADER } from "./commands/core/who.ts";
import { WatchedValue } from "./storage/watched.ts";
import { keys } from "./storage/keys.ts";
import { ConnectionStats } from "./world/conninfo.ts";
import { isRemoteDb, openStore } from "./storage/kv.ts";
import { ObjectStore } from "./world/objects.ts";
import { AttributeStore } from "./world/attributes/store.ts";
import { Accounts } from "./auth/accounts.ts";
import { Guests } from "./auth/guests.ts";
import { HashPool } from "./auth/hash_pool.ts";
import { resolveSecret, TokenService } from "./auth/tokens.ts";
import { TokenGenerations } from "./auth/generations.ts";
import { REGISTRATION_WINDOW_MS } from "./auth/registration.ts";
import { SecurityLog, securityLogLimits } from "./auth/security_log.ts";
import { AccountLimit } from "./auth/account_limit.ts";
import { SlidingWindows } from "./rate/sliding.ts";
import { addressGroup } from "./net/client_address.ts";
import { Players } from "./world/players.ts";
import { Texts } from "./text/texts.ts";
import { PluginApps } from "./http/plugin_apps.ts";
import { PluginWeb } from "./http/plugin_web.ts";
import { Lifecycle } from "./lifecycle.ts";
import { ensureStartingRoom, startingRoom, startingRoomNow } from "./world/start.ts";
import { runFirstRunSetup } from "./supervisor/setup.ts";
import { announcePending } from "./auth/announce.ts";
import { createApp } from "./http/app.ts";
import { Hub } from "./hub/hub.ts";
import { GmcpMap } from "./hub/gmcp_map.ts";
import { SessionRegistry } from "./hub/registry.ts";
import { HubPresence } from "./hub/presence.ts";
import { Delivery } from "./hub/delivery.ts";
import { WebSocketCarrier } from "./hub/carriers/websocket.ts";
import { TelnetCarrier } from "./hub/carriers/telnet.ts";
import { sidecarSecretFrom } from "./hub/sidecar_auth.ts";
import { CommandRegistry, dispatch, engineCommands, runLine } from "./commands/mod.ts";
import { attributeCounts, CommandQueue, haltSetter } from "./queue/queue.ts";
import { createHooks, worldEventsFrom } from "./plugins/hooks.ts";
import { HelpRegistry } from "./plugins/help_registry.ts";
import { PlayerRates } from "./plugins/rates.ts";
import { PluginManager } from "./plugins/manager.ts";
import { ENGINE_VERSION } from "./version.ts";
import { Scheduler } from "./timers/scheduler.ts";
import { recordForResume, ResumeWait } from "./hub/resume_wait.ts";
import { type Clock, systemClock } from "./timers/clock.ts";
import { pluginWorld } from "./plugins/world.ts";
import { pluginEngine } from "./plugins/engine_info.ts";
import type { CommandPorts } from "./commands/types.ts";
import type { EngineCommands } from "./engine_admin.ts";
import type { Hooks } from "./plugins/hooks.ts";
import type { Delivery as DeliveryPort } from "./hub/types.ts";
import { ScriptManager } from "./scripts/manager.ts";
import { engineSoftcode } from "./softcode/engine_ports.ts";
import { stripMarkup } from "./softcode/markup.ts";
import { EngineLockWorld } from "./world/lock_world.ts";
import type { Softcode } from "./softcode/mod.ts";
import { masterRoomId, type ProgramJob, Programs } from "./softcode/programs/mod.ts";
import { hearsWhereItIs } from "./world/move_heard.ts";
import { relayPuppets } from "./world/hearing.ts";
import { watchEars } from "./world/ears.ts";
import type { DbObject } from "./world/types.ts";
import { builtinFunctions } from "./softcode/functions/mod.ts";
import { kvUserFunctionStore, UserFunctions } from "./softcode/user_functions.ts";
import { lookIn } from "./commands/looking.ts";
import { actionAttr, didItInChain, evaluateAs } from "./commands/did_it.ts";
import { fireConnection, runStartups } from "./commands/world_actions.ts";
import { readTls, type TlsPair } from "./tls/certs.ts";
import { AutoBackups } from "./backup/auto.ts";
import { prepareLayout } from "./backup/migrate.ts";
import { LAYOUT_VERSION } from "./storage/layout.ts";
import type { SecretSink } from "./logging/logger.ts";

/**
 * Most passes of a room's line to what is inside a listening thing, one within another (MUX's
 * ntfy_nest_lim, 20 there too): a vehicle inside a vehicle passes on, and so does an
 * @inprefix that emits where its own thing hears it.
 */
const MAX_PASS_NEST = 20;
/**
 * Most such passes for one line, all levels together: each listening thing's pass may make a
 * line that every listening thing there passes on again (three vehicles whose @inprefix emits
 * made 8,850 lines of one `say` within MAX_PASS_NEST, stopped only by their owner's CPU time).
 */
const MAX_PASSES_A_LINE = 100;

/** Options for building an engine. */
export interface EngineOptions {
  /** Directory that relative paths resolve against (default: the working directory). */
  root?: string;
  /** Environment to read (default: the process environment). */
  env?: Record<string, string>;
  /** Programmatic configuration values. */
  overrides?: ConfigSources["overrides"];
  /** The timers' clock (default: the system clock); tests pass a hand-driven one. */
  clock?: Clock;
  /**
   * The process's log scrubber, where plugins register their secrets (`ctx.secret`); main.ts
   * passes its logger. Without it (an engine built by a test) registrations are kept nowhere.
   */
  secrets?: SecretSink;
}

/**
 * What the composition root built, as main.ts and tests reach it. No layer is handed this
 * record: each is given the few parts it uses where it is built (below).
 */
export interface EngineParts {
  readonly config: Config;
  readonly kv: Deno.Kv;
  readonly objects: ObjectStore;
  readonly attributes: AttributeStore;
  /** What every lock check reads of the world (src/world/lock_world.ts). */
  readonly locks: EngineLockWorld;
  /** The softcode evaluator (looking evaluates descriptions with it). */
  readonly softcode: Softcode;
  readonly accounts: Accounts;
  /** Temporary guest characters. */
  readonly guests: Guests;
  readonly tokens: TokenService;
  readonly securityLog: SecurityLog;
  readonly players: Players;
  readonly texts: Texts;
  /** Who is online and where (the hub's memory). */
  readonly presence: HubPresence;
  /** The engine's one delivery (the same object plugins get as `ctx.deliver`). */
  readonly deliver: DeliveryPort;
  /** Ends the engine process with an exit code (`@reboot` 75, `@shutdown` 0) after its hooks. */
  readonly lifecycle: Lifecycle;
  /** The event buses. */
  readonly hooks: Hooks;
  /** The registered commands, as admin and help read them. */
  readonly commands: EngineCommands;
  readonly plugins: PluginManager;
  readonly scripts: ScriptManager;
  /** Failed logins per client IP (10 a minute). */
  readonly loginFailures: SlidingWindows;
  /** Failed logins per account (`game.accountLoginFailures`). */
  readonly accountFailures: AccountLimit;
  /** Characters created per client IP (`game.registrationsPerHour`). */
  readonly registrations: SlidingWindows;
  readonly pluginApps: PluginApps;
  readonly pluginWeb: PluginWeb;
  /** MUX's Hearer() (src/world/move_heard.ts): whether an object hears where it is. */
  readonly hears: (o: DbObject) => boolean;
  /** The doing column's header (`@doing/header`), held in memory for `who` and `poll()`. */
  readonly doingHeader: WatchedValue<string>;
}

/** A built engine: its parts and HTTP app, and how to close it. */
export interface Engine {
  /** What it was built from (for main.ts and tests; see EngineParts). */
  services: EngineParts;
  /** The command registry (what `services.commands` looks up and lists). */
  commands: CommandRegistry;
  /** The plugin manager (what `services.plugins` lists and reloads). */
  plugins: PluginManager;
  app: ReturnType<typeof createApp>;
  /** The hub: every client's connection, whatever carries it. */
  hub: Hub;
  /** The WebSocket carrier (server.ts hands it the upgrade requests). */
  websockets: WebSocketCarrier;
  /** The carrier of the telnet players this engine serves on sockets the sidecar handed over. */
  telnet: TelnetCarrier;
  /** The persistent timers (started once plugins have loaded). */
  timers: Scheduler;
  /** The TLS key and certificate read at start when `server.ssl.enabled`, else null. */
  tls: TlsPair | null;
  /** The bcrypt workers (started with the engine). */
  passwords: HashPool;
  /** Records who is online, for the next engine to wait for before due work runs (a restart). */
  keepForRestart(): Promise<void>;
  close(): Promise<void>;
}

/** Builds an engine: config, storage, world, auth and the HTTP app. */
export async function createEngine(opts: EngineOptions = {}): Promise<Engine> {
  const root = resolve(opts.root ?? Deno.cwd());
  const env = opts.env ?? processEnvironment();
  const config = await new Config({
    file: configFile(root, env),
    env,
    overrides: opts.overrides,
  }).load();
  const cfg = config.value;
  // Before the database: a missing certificate should stop the start before anything is opened.
  const tls = await readTls(cfg.server.ssl, root);
  // A KV Connect URL is opened as given; resolving it against the root made it a local path.
  const db = cfg.server.db;
  const kv = await openStore(db === ":memory:" || isRemoteDb(db) ? db : resolve(root, db));
  // What has been opened so far, closed in reverse order by close() or by a start that fails
  // at any later step (so no database handle, worker, timer or watcher outlives it).
  const opened: (() => unknown)[] = [() => kv.close()];
  const closeOpened = async (): Promise<void> => {
    let first: unknown = null;
    for (const close of opened.splice(0).reverse()) {
      try {
        await close();
      } catch (e) {
        first ??= e;
      }
    }
    if (first) throw first;
  };
  try {
    return await startOn(kv, opened, closeOpened, {
      root,
      env,
      config,
      tls,
      clock: opts.clock,
      secrets: opts.secrets ?? { addSecrets() {} },
    });
  } catch (e) {
    await closeOpened().catch((c) => console.error(`engine: closing a failed start: ${c}`));
    throw e;
  }
}

/** The rest of the start, on an open store; everything it opens goes onto `opened`. */
async function startOn(
  kv: Deno.Kv,
  opened: (() => unknown)[],
  closeOpened: () => Promise<void>,
  { root, env, config, tls, clock, secrets }: {
    root: string;
    env: Record<string, string>;
    config: Config;
    tls: TlsPair | null;
    clock?: Clock;
    secrets: SecretSink;
  },
): Promise<Engine> {
  const cfg = config.value;
  const plumbing = processEnv(env);
  // Before anything reads or writes the world: a newer database is refused, an older one migrated.
  await prepareLayout(kv, cfg, root);
  // @site settings made in earlier runs sit between the file and the environment.
  await applySiteSettings(kv, config);
  // The world in memory is only right while this engine is the database's only writer.
  const soleWriter = !isRemoteDb(cfg.server.db);
  const loading = performance.now();
  const objects = new ObjectStore(kv, { live: soleWriter });
  const held = await objects.load();
  // Closed last: writes made in memory (softcode's create() and tel()) are committed first.
  opened.push(() => objects.flush());
  // Control (src/world/control.ts) reads the lock world, which reads these attributes.
  let controlWorld: EngineLockWorld | null = null;
  const attributes = new AttributeStore(kv, objects, {
    live: soleWriter,
    quotaBytes: cfg.softcode.attributeQuotaBytes,
    controlWorld: () => controlWorld,
  });
  // Closed before the store: its queued writes are committed first.
  opened.push(() => attributes.close());
  const attrs = await attributes.load();
  if (soleWriter) {
    console.log(
      `world: ${held} objects and ${attrs.attributes} attributes read into memory in ` +
        `${Math.round(performance.now() - loading)} ms`,
    );
  }
  await ensureStartingRoom(objects);
  const texts = new Texts(config, root);
  await texts.load();
  // Who is online and where: the hub's registry, which presence answers from and delivery walks.
  const registry = new SessionRegistry();
  const gmcp = new GmcpMap(registry);
  const presence = new HubPresence(registry, objects);
  opened.push(() => presence.close());
  // Frozen: plugins get this very object as `ctx.deliver`.
  const deliver = Object.freeze(new Delivery(registry, gmcp));
  const hooks = createHooks();
  // Plugins learn of destroyed objects and toaded players from every writer of the store.
  objects.onChange(worldEventsFrom(hooks.worldHooks));
  // Who came and went, for the game log (docs/logging.md); no address or secret in the line.
  hooks.worldHooks.on("player:connected", (p) => {
    console.log(`hub: ${p.name}(#${p.id}) ${p.resumed ? "resumed a session" : "connected"}`);
  });
  hooks.worldHooks.on("player:disconnected", (p) => {
    console.log(`hub: ${p.name}(#${p.id}) disconnected`);
  });
  const timeSource = clock ?? systemClock();
  const timers = new Scheduler(kv, { clock: timeSource });
  const commands = new CommandRegistry();
  // The command queue runs lines through the dispatcher with the ports built below (it runs
  // nothing before the engine has started).
  const queue = new CommandQueue({
    run: (actor, line, frame) => runLine(ports, commands, { actor, frame }, line),
    object: (id) => objects.world?.object(id) ?? null,
    notify: (id, msg) => deliver.toPlayer(id, { msg }),
    setHalt: haltSetter(objects),
    // Kept in the semaphore's attribute, as MUX does: a count survives a restart.
    counts: attributeCounts({
      object: (id) => objects.world?.object(id) ?? null,
      attributes,
      tell: (id, msg) => deliver.toPlayer(id, { msg }),
    }),
    timers,
    clock: timeSource,
    limits: () => config.value.queue,
    // A payer whose softcode used its slice lets other players in first (docs/softcode.md).
    turnWait: (payer) => softcode.turnWait(payer),
    log: (m) => console.error(m),
  });
  // bcrypt off the event loop, so a login storm does not delay connected players.
  const passwords = new HashPool();
  opened.push(() => passwords.close());
  const guests = new Guests({
    config,
    objects,
    presence,
    startingRoom: () => startingRoom({ config, objects }),
  });
  // One function table: the built-ins, and the game's @functions added to it as they load.
  const functions = builtinFunctions();
  const userFunctions = new UserFunctions(functions, kvUserFunctionStore(kv));
  await userFunctions.load((m) => console.warn(m));
  // Checked on every token use, from memory while this engine is the only writer.
  const generations = new TokenGenerations(kv, soleWriter);
  const accounts = new Accounts(kv, objects, passwords, generations);
  const tokens = new TokenService(
    resolveSecret(plumbing.jwtSecret, (m) => console.warn(m)),
    generations,
  );
  const securityLog = new SecurityLog(resolve(root, cfg.logging.dir, "security.log"), {
    limits: () => securityLogLimits(config.value),
  });
  opened.push(() => securityLog.close());
  const players = new Players(objects, presence);
  const loginFailures = new SlidingWindows({ limit: 10, windowMs: 60_000, group: addressGroup });
  const accountFailures = new AccountLimit(
    () => config.value.game.accountLoginFailures,
    () => config.value.game.accountLoginWindow * 1000,
  );
  const registrations = new SlidingWindows({
    limit: () => config.value.game.registrationsPerHour,
    windowMs: REGISTRATION_WINDOW_MS,
    group: addressGroup,
  });
  const pluginApps = new PluginApps();
  const pluginWeb = new PluginWeb();
  const lifecycle = new Lifecycle({ updateDir: plumbing.updateDir });
  // Every lock check reads the world through this; evaluation keys run through the evaluator
  // below (called only after both exist).
  const locks = new EngineLockWorld({
    world: () => objects.world,
    peek: (id, name) => attributes.peek(id, name),
    evaluate: (code, executor, enactor) =>
      stripMarkup(softcode.evaluate(code, { executor, enactor })),
    refused: () => void softcode.begun++,
  });
  controlWorld = locks;
  // Players' connection statistics and the game's record of connections at once (connnum(),
  // connrecord()), told by the hub of each login and each connection's end.
  const connectionStats = new ConnectionStats(kv, objects);
  await connectionStats.load();
  // The doing column's header in memory for who and poll(): written through by @doing/header,
  // and followed for another engine's writes on a shared database.
  const doingHeader = new WatchedValue<string>(kv, keys.doingHeader());
  await doingHeader.start();
  opened.push(() => doingHeader.stop());
  // Automatic backups need a local database file (docs/backups.md); started once the game runs,
  // made here for dumping().
  const local = soleWriter && cfg.server.db !== ":memory:";
  const backups = local
    ? new AutoBackups({
      dbPath: resolve(root, cfg.server.db),
      wikiDir: resolve(root, cfg.server.wikiDir),
      dir: resolve(root, cfg.database.backupDir),
      intervalMs: cfg.database.backupInterval * 1000,
      maxBackups: cfg.database.maxBackups,
      engine: ENGINE_VERSION,
      layout: LAYOUT_VERSION,
      log: (line) => console.log(line),
    })
    : null;
  // The evaluator gets narrow ports, built once here; its limits follow the configuration.
  // What a thing's listening makes of what it is told alone (`@pemit`), set once the programs
  // that hear it are made, below.
  let hearTold: (id: string, from: string, msg: string) => void = () => {};
  const softcode = engineSoftcode(
    {
      world: () => objects.world,
      locks,
      attributes,
      presence,
      connectionRecord: () => connectionStats.record,
      poll: () => doingHeader.value || DOING_HEADER,
      deliver,
      objects,
      objectQuota: () => config.value.game.objectQuota,
      // A teleported player looks at its new room as one who walked in does (MUX's look_in),
      // its messages said but no action queued: an evaluation has no line to count a loop along.
      look: (viewer, room) =>
        lookIn(
          { softcode, presence, objects, attributes, deliver, locks, queue: null },
          viewer,
          room,
          presence.connections(viewer.id)[0]?.width ?? 78,
        ),
      now: () => Date.now(),
      startedAt: Date.now(),
      gameName: () => config.value.game.name,
      config: () => config.value,
      run: plumbing.engineRun,
      dumping: () => backups?.busy ?? false,
      startingRoom: () =>
        startingRoomNow(config, (id) => !!objects.world?.object(id)?.flags.includes("room")),
      queue,
      // The programs are made with the evaluator's regexps, below; asked only once running.
      listens: (o) => programs.listens(o),
      hearTold: (id, from, msg) => hearTold(id, from, msg),
      // A place's refusal of tel() says its messages as @teleport's does; its action joins the
      // evaluating line's chain, as trigger()'s does.
      didIt: didItInChain(() => ({ softcode, attributes, deliver, objects, queue })),
    },
    () => config.value.softcode,
    functions,
  );
  // `$-commands` and listening, indexed as attributes change (docs/softcode.md).
  const programs = new Programs({
    world: () => objects.world,
    attributes,
    masterRoom: () => masterRoomId(config.value.softcode.masterRoom),
    regexps: softcode.regexps,
    locks,
  });
  opened.push(() => programs.close());
  const hears = (o: DbObject) =>
    hearsWhereItIs(o, {
      isConnected: (id) => presence.isOnline(id),
      listens: (x) => programs.listens(x),
    });
  // An object whose attributes make it come to hear, or stop, says so (MUX's handle_ears),
  // whatever wrote them: a command, softcode or a script.
  opened.push(watchEars(attributes, {
    deliver,
    world: () => objects.world,
    sexOf: (id) => actionAttr({ attributes, softcode }, id, "SEX")?.value ?? "",
  }, hears));
  // How many passes to what is inside a listening thing are running, one within another, and
  // how many more the outermost line may make.
  let passDepth = 0, passesLeft = 0;
  /**
   * Queues what `from`'s line woke (`hear` answers it, charged to the speaker's payer, as the
   * use locks it wakes are; it ends with that time), in the chain of the entry that spoke, if
   * one did. Then MUX's MSG_INV_L: a thing whose @listen matched shows the line to what is
   * inside it (a vehicle's passengers hear the room outside), after its @inprefix when
   * `inprefix` (a line shown in a place; not one told to the thing alone, as MUX's
   * MSG_S_OUTSIDE). Not past MAX_PASS_NEST passes within passes (MUX's ntfy_nest_lim): an
   * @inprefix that emits where its thing is, is heard by that thing again, at once, not through
   * the queue.
   */
  const hearAndPass = (
    from: string,
    msg: string,
    exclude: readonly string[],
    inprefix: boolean,
    hear: (more: () => boolean, passes: string[]) => ProgramJob[],
  ): void => {
    const passes: string[] = [];
    const jobs = softcode.metered({ executor: from }, (more) => hear(more, passes));
    if (jobs.length) {
      const chain = queue.runningChain(from);
      for (const job of jobs) queue.enqueue({ ...job, chain });
    }
    if (!passes.length || passDepth >= MAX_PASS_NEST) return;
    if (passDepth === 0) passesLeft = MAX_PASSES_A_LINE;
    passDepth++;
    try {
      for (const id of passes) {
        if (passesLeft <= 0) break;
        passesLeft--;
        const a = inprefix ? actionAttr({ attributes, softcode }, id, "INPREFIX") : null;
        const prefix = a ? evaluateAs({ softcode }, id, from, a.value) : "";
        // Who the line left out stays left out inside: "<name> has left." is said once the
        // mover is in the place it entered, which may be this thing (MUX says it before).
        deliver.toRoom(id, { msg: prefix ? `${prefix} ${msg}` : msg }, [...exclude, id], from);
      }
    } finally {
      passDepth--;
    }
  };
  // What is shown in a room reaches its puppets' owners elsewhere; shown by someone, it is heard
  // by its listening objects.
  deliver.hearRooms((room, from, msg, exclude) => {
    relayPuppets(objects.world, programs.hearersIn(room), msg, exclude, deliver);
    if (from === undefined) return;
    hearAndPass(
      from,
      msg,
      exclude,
      true,
      (more, passes) => programs.heard(room, from, msg, exclude, more, passes),
    );
  });
  hearTold = (id, from, msg) =>
    hearAndPass(from, msg, [], false, (more, passes) => programs.told(id, from, msg, more, passes));
  const help = new HelpRegistry();
  const registered = engineCommands(commands, () => config.value.commands.disabled);
  // The per-player rate buckets, one set for plugins and core commands (`page`).
  const rates = new PlayerRates();
  const plugins = new PluginManager(
    {
      config,
      kv,
      world: pluginWorld({
        objects,
        attributes,
        presence,
        config,
        locks,
        softcode,
        deliver,
        players,
        hears,
      }),
      engine: pluginEngine(
        { config, root, commands: registered, soleWriter, functions: softcode.functions },
        help,
      ),
      players,
      deliver,
      web: pluginWeb,
      apps: pluginApps,
      commands,
      hooks,
      help,
      timers,
      gmcp,
      secrets,
      rates,
      functions,
    },
    { dir: resolve(root, cfg.server.pluginsDir), engineVersion: ENGINE_VERSION },
  );
  opened.push(() => plugins.closeAll());
  // Built before the commands load, so QuickJS compiles (when there are scripts) meanwhile.
  const scripts = new ScriptManager(
    { root, presence, deliver, disabled: () => config.value.scripts.disabled },
    commands,
    cfg.scripts,
  );
  opened.push(() => scripts.close());
  const warming = scripts.warm();
  const core = await registered.loadCore();
  for (const f of core.failed) {
    console.error(`commands: core module ${f.module} failed: ${f.error}`);
  }
  for (const p of core.turnedOff?.problems ?? []) console.warn(p);
  if (core.turnedOff?.names.length) {
    console.log(`commands: turned off (commands.disabled): ${core.turnedOff.names.join(", ")}`);
  }
  // After core commands, so plugins see them (and may override them); a broken plugin is reported,
  // never fatal.
  await plugins.loadAll();
  // System scripts last: their layer wins over core and plugin commands of the same name.
  await warming;
  await scripts.start();
  // Players made while no engine ran (the supervisor's setup) get the event plugins act on.
  await announcePending(kv, objects, (p) => hooks.worldHooks.emit("player:created", p));
  // What every command gets (the SDK `u`): the everyday ports, and the staff ones apart.
  const ports: CommandPorts = {
    objects,
    attributes,
    locks,
    players,
    presence,
    deliver,
    events: hooks.worldHooks,
    softcode,
    queue,
    programs,
    rates,
    engine: {
      config,
      lifecycle,
      texts,
      commands: registered,
      plugins,
      scripts,
      accounts,
      tokens,
      loginFailures,
      accountFailures,
      securityLog,
      kv,
      userFunctions,
      doingHeader,
    },
  };
  const hub = new Hub({
    config,
    texts,
    tokens,
    objects,
    accounts,
    securityLog,
    loginFailures,
    accountFailures,
    registrations,
    guests,
    worldHooks: hooks.worldHooks,
    connectionLog: connectionStats,
    registry,
    delivery: deliver,
    run: (conn, line) => dispatch(ports, commands, conn, line),
    gmcpIn: (from, pkg, data) => gmcp.receive({ player: from.player }, pkg, data),
  });
  opened.push(() => hub.shutdown());
  // A guest goes when its last connection does (not when the engine stops: a restart resumes
  // it); the sweep removes guests whose clients never came, or never came back.
  hooks.worldHooks.on("player:disconnected", (p) => {
    if (!p.stillConnected) return guests.remove(p.id).then(() => {});
  });
  guests.start();
  opened.push(() => guests.stop());
  // What the engine fires outside commands: @aconnect, @adisconnect and @startup.
  const fired = {
    queue,
    softcode,
    attributes,
    world: () => objects.world,
    masterRoom: () => masterRoomId(config.value.softcode.masterRoom),
  };
  // MUX runs @aconnect for every connection and @adisconnect when the last one goes; a session
  // resumed after a restart is neither.
  hooks.worldHooks.on("player:connected", (p) => {
    if (!p.resumed) fireConnection(fired, p.id, "ACONNECT");
  });
  hooks.worldHooks.on("player:disconnected", (p) => {
    if (!p.stillConnected) fireConnection(fired, p.id, "ADISCONNECT");
  });
  const websockets = new WebSocketCarrier(
    hub,
    sidecarSecretFrom(plumbing.sidecarSecret, (m) => console.warn(m)),
  );
  const telnet = new TelnetCarrier(hub);
  // The supervisor prompts interactively before the engine starts (and says what is missing);
  // here only the environment path runs, so an engine started on its own can still be seeded.
  const supervised = plumbing.supervised;
  await runFirstRunSetup(
    { objects, accounts, startRoom: await startingRoom({ config, objects }) },
    env,
    {
      interactive: false,
      ask: () => Promise.resolve(null),
      print: supervised ? () => {} : console.log,
    },
  );
  const app = createApp({
    config,
    texts,
    objects,
    attributes,
    locks,
    softcode,
    presence,
    accounts,
    guests,
    tokens,
    securityLog,
    loginFailures,
    accountFailures,
    registrations,
    pluginApps,
    pluginWeb,
    avatars: new AvatarFiles(() => resolve(root, config.value.web.avatarDir)),
  });
  // Every worker starts with the engine (this late, so an engine that fails earlier leaves none;
  // before the timers, so jobs that came due while it was down do not wait for it): their
  // memory is in the engine's baseline rather than the first login's, which waits for none.
  await passwords.start();
  // Off Linux the workers keep the engine's priority by design; on Linux that is a surprise.
  const unlowered = passwords.threads().find((t) => !t.lowered);
  if (unlowered && Deno.build.os === "linux") {
    console.warn(
      `passwords: workers keep their priority and share the CPU with play (${unlowered.error})`,
    );
  }
  // Only now, with every plugin's handlers registered, do the jobs that came due while the
  // engine was down run; not awaited, so a backlog does not hold up the start.
  // Stopped before the hub and the store, so no job runs against them closing (its rest stays due).
  opened.push(() => timers.stop());
  // Closed before the timers, the hub and the store: the command it is running ends first.
  opened.push(() => queue.close());
  // The queue takes over the waits stored by earlier runs before the timers run them.
  await queue.start();
  // After a restart, what came due meanwhile (and each @startup) waits for the players the last
  // engine had to resume, bounded, or what it tells them is lost (docs/operations.md).
  const resumes = await ResumeWait.open(kv);
  hooks.worldHooks.on("player:connected", (p) => void (p.resumed && resumes.resumed(p.id)));
  let closing = false;
  const begin = async () => {
    if (closing) return;
    // Each @startup, once the queue holds the stored waits (its object's are dropped first, since
    // the @startup arms them again) and before the timers run them (docs/softcode.md).
    const started = await runStartups(fired);
    if (started) console.log(`softcode: @startup queued for ${started} objects`);
    if (!closing) void timers.start();
  };
  // Closed first: a wait that ends as the engine closes starts nothing.
  opened.push(() => {
    closing = true;
    resumes.cancel();
  });
  if (resumes.waiting) {
    void resumes.ready().then(begin).catch((e) => console.error("engine: due work:", e));
  } else await begin();
  if (backups) opened.push(() => backups.stop());
  await backups?.start();
  return {
    services: {
      config,
      kv,
      objects,
      attributes,
      locks,
      softcode,
      accounts,
      guests,
      tokens,
      securityLog,
      players,
      texts,
      presence,
      deliver,
      lifecycle,
      hooks,
      commands: registered,
      plugins,
      scripts,
      loginFailures,
      accountFailures,
      registrations,
      pluginApps,
      pluginWeb,
      hears,
      doingHeader,
    },
    commands,
    plugins,
    app,
    hub,
    websockets,
    telnet,
    timers,
    tls,
    passwords,
    keepForRestart: () => recordForResume(kv, presence.onlinePlayers()),
    close: closeOpened,
  };
}
