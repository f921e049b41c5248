/** The configuration tree and its defaults: every key the engine reads has a default here. */

import { type Level, LEVELS } from "../logging/logger.ts";

/** Server listeners, storage and runtime limits. */
export interface ServerConfig {
  telnet: number;
  /** The TLS telnet port, served while `ssl.enabled`. */
  telnetTls: number;
  ws: number;
  http: number;
  host: string;
  db: string;
  counters: string;
  chans: string;
  mail: string;
  bboard: string;
  name: string;
  description: string;
  banner: string;
  corsOrigins: string[];
  maxConnections: number;
  maxConnectionsPerIp: number;
  /** Seconds a new HTTP/WebSocket connection has for its first request head (0: no bound). */
  headerTimeout: number;
  /** Seconds an HTTP connection may wait idle for its next request (0: no bound). */
  keepAliveTimeout: number;
  /** Seconds a hub connection has to log in from when it opened (0: no bound). */
  loginTimeout: number;
  /** Reverse proxies (addresses, CIDR ranges) whose `X-Forwarded-For` names the client. */
  trustedProxies: string[];
  /**
   * Bytes a second one telnet connection may send after a burst of four seconds' worth; past
   * them its socket is not read for a while, so a flood costs only its sender (0: no bound).
   */
  telnetInputBytesPerSecond: number;
  /**
   * The same for all the telnet connections of one address together (an IPv6 address by its
   * /64), in each process that holds telnet sockets, so many connections do not multiply it.
   */
  telnetInputBytesPerSecondPerIp: number;
  textDir: string;
  helpDir: string;
  /** The news topics (`news`, MUX's news.txt): one file a topic, as help files. */
  newsDir: string;
  wikiDir: string;
  pluginsDir: string;
  ssl: { enabled: boolean; key: string; cert: string };
}

/** Game identity and rules. */
export interface GameConfig {
  name: string;
  description: string;
  version: string;
  text: { connect: string };
  playerStart: string;
  startingRoom: string;
  motd: string;
  debug: boolean;
  startingMoney: number;
  maxPlayers: number;
  idleTimeout: number;
  registerEnabled: boolean;
  /** Characters one client address may create an hour (REST register and `create`); 0: no limit. */
  registrationsPerHour: number;
  /**
   * Logins one character may make in a minute on the hub (WebSocket, telnet), each announced to
   * its room; 0 = no limit. A resume after an engine restart does not count.
   */
  loginsPerMinute: number;
  /**
   * Failed logins against one character in `accountLoginWindow` seconds, each address counted
   * once, before attempts from addresses it has not logged in from are refused; 0: no limit.
   */
  accountLoginFailures: number;
  accountLoginWindow: number;
  guestEnabled: boolean;
  guestPrefix: string;
  /** Most guests at once (0: no cap). */
  maxGuests: number;
  /** Most guests at once from one address (0: no cap). */
  maxGuestsPerIp: number;
  /**
   * Seconds a guest may be away before it is removed: a client given a guest's token has this
   * long to connect, and after an engine restart this long to resume (docs/guests.md).
   */
  guestGrace: number;
  loginMessage: string;
  welcomeMessage: string;
  /**
   * REST writes that reach other players (poses, posts, mail, jobs, comments, RSVPs) a player
   * may make a minute, all plugins together (a burst of that many, then refilled); 0: no limit.
   */
  restWritesPerMinute: number;
  /**
   * Pages one player (with their things) may send a minute, after a burst of as many; staff are
   * not held; 0: no limit. A queue runs as fast as the CPU allows, so only this holds pages an
   * object's `@dolist` sends.
   */
  pagesPerMinute: number;
  /**
   * Objects one non-staff player may own (rooms, things and exits made by `@dig`, `@open`,
   * `@create` and softcode's `create()`); 0: no limit.
   */
  objectQuota: number;
}

/** System scripts (docs/scripts.md): where they live and the limits of their sandbox. */
export interface ScriptsConfig {
  /** Folder of `<command>.ts` / `.js` files, relative to the game directory. */
  dir: string;
  /** CPU time of one script call (and of loading a script), in ms; at most 250. */
  timeoutMs: number;
  /** Wall-clock time of one call, its awaits included, in ms; at most 60000. */
  wallMs: number;
  /** Memory cap of each script's sandbox, in MB (at least 16). */
  memoryMb: number;
  /** Script CPU time one player may use per `budgetWindowMs`, in ms. */
  actorBudgetMs: number;
  /** Script CPU time all players together may use per `budgetWindowMs`, in ms. */
  gameBudgetMs: number;
  /** The window of the two budgets, in ms. */
  budgetWindowMs: number;
  /**
   * Script CPU time used in one turn of the event loop, in ms, after which the next script call
   * waits until the engine has read the input that came meanwhile (docs/scripts.md).
   */
  yieldMs: number;
  /**
   * Scripts turned off by name (`+who`, `+finger`): their files stay (a game update keeps
   * shipping them), their commands and help are gone, so a softcode package can own the name.
   */
  disabled: string[];
  /**
   * Watch the folder for edits (true), or look at a script's file before each of its runs
   * (false: for folders whose changes raise no events, such as some network or VM mounts).
   */
  watch: boolean;
}

/** The game on the web. */
export interface WebConfig {
  /**
   * The game's public base address (`https://game.example.org`), for links and pictures that
   * leave the game (a Discord bridge's avatars); empty when the game has none.
   */
  publicUrl: string;
  /**
   * The front page's banner: a picture on the game's own site (a path such as
   * `/banner.png`; the page's policy loads no other); empty for none.
   * `server.banner` is the connect screen's text, not this.
   */
  banner: string;
  /**
   * The fields of a character page the owner defines (`Full Name`, `Age`, `Played By`), in
   * order; each is kept as the attribute the shipped `+finger` keeps its fields in
   * (`FINGER.FULLNAME`: `profileFieldAttr`), so `+finger` and softcode's `get()` read what the
   * page shows.
   */
  profileFields: string[];
  /** What visitors (no login) may read under `/api/v1/public/` and see in the portal. */
  public: PublicWeb;
  /** Where uploaded avatars are kept, relative to the game directory (src/http/avatars.ts). */
  avatarDir: string;
}

/** Each part of the portal visitors may read (`web.public.<part>`), switched by the owner. */
export interface PublicWeb {
  /** The front page's data: the game's name, description, banner and how to connect. */
  front: boolean;
  /** Who is online (dark and unfindable players never show). */
  online: boolean;
  /** Character pages and the gallery. */
  characters: boolean;
  /** Wiki pages (the wiki plugin). */
  wiki: boolean;
  /** Scenes their owners shared (the scenes plugin). */
  scenes: boolean;
  /** Upcoming events (the events plugin; cancelled ones never). */
  events: boolean;
}

/** Softcode (docs/softcode.md): attributes on objects and the function language. */
export interface SoftcodeConfig {
  /** Bytes of attributes one non-staff player may own (names and values, UTF-8); 0: no limit. */
  attributeQuotaBytes: number;
  /** Evaluate what players type in say, pose, page, whisper, @emit and channels (MUX does). */
  evaluatePlayerText: boolean;
  /** Function calls one evaluation may make (MUX's function_invocation_limit). */
  functionInvocations: number;
  /** Function calls nested in each other (MUX's function_recursion_limit). */
  recursionDepth: number;
  /** Longest text a step produces, in characters (MUX's LBUF). */
  outputLength: number;
  /** Wall-clock time one evaluation may take, in ms. */
  evaluationMs: number;
  /** Evaluation time one actor (an object's owner) may use per window, in ms. */
  actorMs: number;
  /** That window, in ms. */
  actorWindowMs: number;
  /**
   * Evaluation time all players together may use per window before the heaviest are held to a
   * fair share of it (docs/softcode.md, "Whose time"), in ms.
   */
  gameMs: number;
  /**
   * Evaluation time one payer's work may use before the engine reads other players' input
   * again: a typed line or queue entry of a payer who has used this much since then waits for
   * it (docs/softcode.md, "Taking turns"), in ms.
   */
  yieldMs: number;
  /** Deepest nesting of `[`, `{` and arguments parsed. */
  parseDepth: number;
  /**
   * Most instructions a regular expression may compile to: matching costs program × text steps
   * in one call no time budget can interrupt (docs/softcode.md, "Limits").
   */
  regexpSize: number;
  /**
   * The master room (`#2`, or `2`): the `$-commands` of what is in it work everywhere (MUX's
   * master_room). Empty: none.
   */
  masterRoom: string;
}

/** The core commands (docs/commands.md, "Turning a layer off"). */
export interface CommandsConfig {
  /**
   * Core commands turned off by name or alias (`+where`, `who`): the command, its aliases and
   * its help are gone, so a softcode package can own the name. Names the game cannot run
   * without (`quit`, `connect`, `@reload`) stay on, with a warning.
   */
  disabled: string[];
}

/** The command queue (docs/softcode.md, "The queue"): how much one owner's objects may queue. */
export interface QueueConfig {
  /** Entries one player's objects may have waiting at once (MUX's player_queue_limit). */
  playerLimit: number;
  /** The same for staff and their objects (MUX's wizard_queue_limit). */
  staffLimit: number;
  /**
   * Entries one chain (what one typed line, timer or event set off) may run without a pause
   * of a second or more; past it the chain is a runaway and its owner's queue is halted.
   */
  chainLimit: number;
}

/** Whole configuration. Plugin sections are free-form under `plugins.<name>`. */
export interface EngineConfig {
  server: ServerConfig;
  game: GameConfig;
  database: { path: string; backupDir: string; backupInterval: number; maxBackups: number };
  logging: {
    level: Level;
    file: string;
    dir: string;
    maxSize: number;
    maxFiles: number;
    securityMaxSize: number;
    securityMaxFiles: number;
  };
  theme: { primary: string; background: string; surface: string; text: string };
  scripts: ScriptsConfig;
  commands: CommandsConfig;
  web: WebConfig;
  softcode: SoftcodeConfig;
  queue: QueueConfig;
  plugins: Record<string, PluginSection>;
}

/** A plugin's own section: `enabled` plus free keys. */
export interface PluginSection {
  enabled?: boolean;
  [key: string]: unknown;
}

/** Fresh copy of the defaults (callers may mutate it). */
export function defaultConfig(): EngineConfig {
  return {
    server: {
      telnet: 4201,
      telnetTls: 4204,
      ws: 4202,
      http: 4203,
      host: "0.0.0.0",
      db: "data/ursamu.db",
      counters: "counters",
      chans: "chans",
      mail: "mail",
      bboard: "bboard",
      name: "UrsaMU",
      description: "",
      banner: "",
      corsOrigins: [],
      maxConnections: 1000,
      maxConnectionsPerIp: 50,
      headerTimeout: 10,
      keepAliveTimeout: 15,
      loginTimeout: 600,
      trustedProxies: [],
      telnetInputBytesPerSecond: 65_536,
      telnetInputBytesPerSecondPerIp: 1_048_576,
      textDir: "text",
      helpDir: "help",
      newsDir: "news",
      wikiDir: "wiki",
      pluginsDir: "plugins",
      ssl: { enabled: false, key: "", cert: "" },
    },
    game: {
      name: "UrsaMU",
      description: "",
      version: "0.0.1",
      text: { connect: "text/connect.txt" },
      playerStart: "1",
      startingRoom: "1",
      motd: "Welcome to UrsaMU!",
      debug: false,
      startingMoney: 0,
      maxPlayers: 0,
      idleTimeout: 3600,
      registerEnabled: true,
      registrationsPerHour: 30,
      loginsPerMinute: 30,
      accountLoginFailures: 10,
      accountLoginWindow: 600,
      guestEnabled: false,
      guestPrefix: "Guest",
      maxGuests: 10,
      maxGuestsPerIp: 2,
      guestGrace: 60,
      loginMessage: "",
      welcomeMessage: "",
      restWritesPerMinute: 30,
      pagesPerMinute: 60,
      objectQuota: 1000,
    },
    database: {
      path: "data/ursamu.db",
      backupDir: "backups",
      backupInterval: 86400,
      maxBackups: 7,
    },
    logging: {
      level: "info",
      file: "",
      dir: "logs",
      maxSize: 10485760,
      maxFiles: 5,
      securityMaxSize: 10485760,
      securityMaxFiles: 5,
    },
    theme: { primary: "#7c3aed", background: "#0f0f14", surface: "#1a1a24", text: "#e5e5ef" },
    scripts: {
      dir: "system/scripts",
      timeoutMs: 50,
      wallMs: 10_000,
      memoryMb: 32,
      actorBudgetMs: 200,
      gameBudgetMs: 2_000,
      budgetWindowMs: 10_000,
      yieldMs: 20,
      disabled: [],
      watch: true,
    },
    commands: { disabled: [] },
    web: {
      publicUrl: "",
      banner: "",
      profileFields: [],
      public: {
        front: true,
        online: true,
        characters: false,
        wiki: true,
        scenes: true,
        events: true,
      },
      avatarDir: "avatars",
    },
    softcode: {
      attributeQuotaBytes: 2_000_000,
      evaluatePlayerText: false,
      functionInvocations: 25_000,
      recursionDepth: 500,
      outputLength: 8_000,
      evaluationMs: 500,
      actorMs: 2_000,
      actorWindowMs: 10_000,
      gameMs: 5_000,
      yieldMs: 20,
      parseDepth: 100,
      regexpSize: 200,
      masterRoom: "",
    },
    queue: { playerLimit: 100, staffLimit: 1000, chainLimit: 2000 },
    plugins: {},
  };
}

/** Keys that must be valid TCP ports. */
export const PORT_KEYS: readonly string[] = [
  "server.telnet",
  "server.ws",
  "server.http",
  "server.telnetTls",
];

/** Keys that must be whole numbers of zero or more. */
export const NON_NEGATIVE_KEYS: readonly string[] = [
  "server.maxConnections",
  "server.maxConnectionsPerIp",
  "server.headerTimeout",
  "server.keepAliveTimeout",
  "server.loginTimeout",
  "server.telnetInputBytesPerSecond",
  "server.telnetInputBytesPerSecondPerIp",
  "game.startingMoney",
  "game.maxPlayers",
  "game.maxGuests",
  "game.maxGuestsPerIp",
  "game.guestGrace",
  "game.idleTimeout",
  "game.registrationsPerHour",
  "game.loginsPerMinute",
  "game.restWritesPerMinute",
  "game.pagesPerMinute",
  "game.accountLoginFailures",
  "game.accountLoginWindow",
  "game.objectQuota",
  "database.backupInterval",
  "database.maxBackups",
  "logging.maxSize",
  "logging.maxFiles",
  "logging.securityMaxSize",
  "logging.securityMaxFiles",
  "scripts.timeoutMs",
  "scripts.wallMs",
  "scripts.memoryMb",
  "scripts.actorBudgetMs",
  "scripts.gameBudgetMs",
  "scripts.budgetWindowMs",
  "scripts.yieldMs",
  "softcode.attributeQuotaBytes",
  "softcode.functionInvocations",
  "softcode.recursionDepth",
  "softcode.outputLength",
  "softcode.evaluationMs",
  "softcode.actorMs",
  "softcode.actorWindowMs",
  "softcode.gameMs",
  "softcode.yieldMs",
  "softcode.parseDepth",
  "softcode.regexpSize",
  "queue.playerLimit",
  "queue.staffLimit",
  "queue.chainLimit",
];

/**
 * Keys with a hard maximum: a larger value is lowered to it, with a warning (script calls run
 * on the engine's event loop, so their time limits stay short: docs/scripts.md).
 */
export const MAX_VALUES: Readonly<Record<string, number>> = {
  "scripts.timeoutMs": 250,
  "scripts.wallMs": 60_000,
};

/** Keys no longer read: a value set for one is reported with why, and ignored. */
export const RETIRED_KEYS: Readonly<Record<string, string>> = {
  "scripts.workers":
    "scripts run in the engine's process now, one sandbox per script (docs/scripts.md)",
};

/** Where the shipped `+finger` keeps a field (system/scripts/+finger.ts): `FINGER.<FIELD>`. */
const FINGER_PREFIX = "FINGER.";

/** Most fields `web.profileFields` may name. */
export const MAX_PROFILE_FIELDS = 12;
/** A profile field's label: a letter first, then letters, digits, spaces, `-` and `'`. */
const PROFILE_FIELD_RE = /^[A-Za-z][A-Za-z0-9 '-]{0,31}$/;

/**
 * Keys with a rule of their own beyond their type; each answers why a value breaks it, or null.
 * The banner must be a path on the game's own site: the page's policy loads no other picture.
 */
export const VALUE_RULES: Readonly<Record<string, (v: unknown) => string | null>> = {
  "softcode.masterRoom": (v) =>
    /^\s*(#?\d{1,15})?\s*$/.test(v as string)
      ? null
      : "expected a dbref such as #2, or empty for none",
  "web.banner": (v) =>
    v === "" || (typeof v === "string" && v.length <= 512 && /^\/(?![/\\])[^\s\\]*$/.test(v))
      ? null
      : "expected a path on this site such as /banner.png, or empty",
  "web.profileFields": (v) => {
    const list = v as string[];
    if (list.length > MAX_PROFILE_FIELDS) return `expected at most ${MAX_PROFILE_FIELDS} fields`;
    const bad = list.find((f) => !PROFILE_FIELD_RE.test(f));
    if (bad !== undefined) {
      return `'${bad}' is not a field name (a letter, then letters, digits, spaces, - or '; 32 at most)`;
    }
    const attrs = list.map(profileFieldAttr);
    if (new Set(attrs).size !== attrs.length) return "two fields name the same attribute";
    // +finger's field words are 24 characters at most (system/scripts/+finger.ts).
    const long = list.find((f) => profileFieldAttr(f).length > FINGER_PREFIX.length + 24);
    if (long !== undefined) return `'${long}' has more than 24 letters and digits`;
    return null;
  },
};

/**
 * The attribute a profile field is kept in: the shipped `+finger`'s (`FINGER.<FIELD>`), the
 * label's letters and digits as one word, so `Full Name` is `FINGER.FULLNAME` and `Played By`
 * `FINGER.PLAYEDBY`.
 */
export function profileFieldAttr(label: string): string {
  return FINGER_PREFIX + label.toUpperCase().replace(/[^A-Z0-9]+/g, "");
}

/** Keys whose value must be one of a few words. */
export const ENUM_KEYS: Readonly<Record<string, readonly string[]>> = {
  "logging.level": LEVELS,
};

/** Keys that `@site` may change at runtime (docs/configuration.md). */
export const SITE_KEYS: readonly string[] = [
  "server.name",
  "server.description",
  "server.banner",
  "server.corsOrigins",
  "server.maxConnections",
  "game.maxPlayers",
  "game.description",
  "game.loginMessage",
  "game.welcomeMessage",
  "queue.playerLimit",
  "queue.staffLimit",
  "queue.chainLimit",
];
