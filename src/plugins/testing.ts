/**
 * The plugin test kit: a real engine on an in-memory database with the chosen plugins
 * loaded, its HTTP app and WebSocket hub on a free loopback port. Tests call routes as a
 * player, run commands as a player, and read what every connected player received. Plugin
 * tests import only this module and `src/plugins/mod.ts`.
 */
import { isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createEngine, type Engine } from "../engine.ts";
import { withHubPath } from "../hub/upgrade.ts";
import { type Clock, ManualClock } from "../timers/clock.ts";
import type { OutboundData } from "../hub/types.ts";
import { stripColour } from "../text/colour.ts";
import { openStore } from "../storage/kv.ts";
import { PluginKv } from "./kv.ts";
import type { CommandInfo } from "../engine_admin.ts";
import type { Delivery } from "../hub/types.ts";
import { type PluginWorld, pluginWorld } from "./world.ts";

/** A hand-driven clock to pass as `clock` (tests of `ctx.timers` without waiting). */
export { ManualClock };

/** The repository's `plugins/` folder (where plugin names are looked up). */
const PLUGINS_DIR = fileURLToPath(new URL("../../plugins", import.meta.url));

/** The system scripts the game ships (`system/scripts/`), loaded with `scripts: true`. */
const SHIPPED_SCRIPTS = fileURLToPath(new URL("../../system/scripts", import.meta.url));

/** Password of every player the kit makes. */
const PASSWORD = "test-kit-password";

/** Commands a player may send a second (the hub drops more than 10). */
const COMMANDS_PER_SECOND = 8;

/** Sync frames a client sends a second (the hub drops ping and sync frames over 20). */
const SYNCS_PER_SECOND = 16;

/** How long the kit waits for the engine to answer before failing the test. */
const WAIT_MS = 10_000;

/** Options of `startTestGame`. */
export interface TestGameOptions {
  /** Plugins to load: folder names under `plugins/`, or absolute paths of plugin folders. */
  plugins: string[];
  /** Configuration values, as `config/config.json` would hold them. */
  config?: Record<string, unknown>;
  /** A hand-driven clock for `ctx.timers` (see `ManualClock` in src/timers/clock.ts). */
  clock?: Clock;
  /**
   * System scripts to load, so a test sees what the game will run (a script replaces a
   * plugin's command of the same name): `true` for the ones the game ships (`system/scripts/`),
   * or the path of a scripts folder. None without (`scripts.dir` of `config` also works).
   */
  scripts?: boolean | string;
}

/** A player the kit made. */
export interface TestPlayer {
  readonly id: string;
  readonly name: string;
  /** A bearer token for REST calls. */
  readonly token: string;
}

/** A response of `request`: the body is parsed JSON when the response is JSON, else text. */
export interface TestResponse {
  status: number;
  headers: Headers;
  // deno-lint-ignore no-explicit-any
  body: any;
}

/** One message a client received. */
export interface Heard {
  /** The text with colour codes removed. */
  text: string;
  /** The structured data beside it (`{ type: ... }`). */
  data: OutboundData;
}

/** What each connected player received while something ran, by player name. */
export interface Received {
  /** Messages `name` received (empty when none, or not connected). */
  of(name: string): Heard[];
  /** The texts `name` received, one per line. */
  text(name: string): string;
}

/** Options of `request`. */
export interface RequestOptions {
  /** Call as this player (its token); anonymous without. */
  as?: TestPlayer;
  /** A JSON body (objects and arrays are sent as JSON; a string as it is). */
  body?: unknown;
  headers?: Record<string, string>;
}

/** A running test game. */
export interface TestGame {
  /** The engine (for what the kit does not wrap: `engine.timers.runDue()`, ...). */
  readonly engine: Engine;
  /** Base URL of the HTTP app, such as `http://127.0.0.1:40123`. */
  readonly base: string;
  /** The world a plugin's context holds (`ctx.world`), to drive a plugin's own store directly. */
  readonly world: PluginWorld;
  /** The delivery a plugin's context holds (`ctx.deliver`). */
  readonly deliver: Delivery;
  /** Registers a player (in room `#1` unless `room` says otherwise), with extra flags. */
  player(name: string, opts?: { flags?: string[]; room?: string }): Promise<TestPlayer>;
  /** Calls a route of the real HTTP app. */
  request(method: string, path: string, opts?: RequestOptions): Promise<TestResponse>;
  /** Connects a player as a web client (once; later calls do nothing). */
  connect(player: TestPlayer): Promise<void>;
  /**
   * Runs a command as `player` (connecting it first) and returns what every connected
   * player received until the command, and everything it sent, was done.
   */
  run(player: TestPlayer, line: string): Promise<Received>;
  /**
   * What every connected player received since the last `run` or `received` (deliveries that
   * no command caused: a timer's, a hook's), once the hub has sent it; starts a new window.
   */
  received(): Promise<Received>;
  /**
   * Moves the game's ManualClock (passed as `clock`) forward by `ms`, runs the timers that
   * came due, and returns what every connected player received meanwhile.
   */
  advance(ms: number): Promise<Received>;
  /**
   * What a typed word runs (a name or alias, any case), with its `owner`: `core`, a plugin's
   * name, or `system/scripts`; undefined when nothing does.
   */
  command(word: string): CommandInfo | undefined;
  /** Stops the engine and removes its files. */
  close(): Promise<void>;
}

/** Starts a real engine with `opts.plugins` loaded. */
export async function startTestGame(opts: TestGameOptions): Promise<TestGame> {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-kit-" });
  const pluginsDir = join(dir, "plugins");
  await Deno.mkdir(pluginsDir);
  for (const p of opts.plugins) {
    const src = isAbsolute(p) ? p : join(PLUGINS_DIR, p);
    await Deno.symlink(src, join(pluginsDir, src.split("/").filter(Boolean).pop()!));
  }
  const scripts = opts.scripts === true ? SHIPPED_SCRIPTS : opts.scripts || null;
  const engine = await createEngine({
    root: dir,
    clock: opts.clock,
    env: {},
    overrides: deepMerge(
      deepMerge(scripts ? { scripts: { dir: scripts } } : {}, opts.config ?? {}),
      {
        server: { db: ":memory:", pluginsDir, host: "127.0.0.1" },
        logging: { dir: join(dir, "logs") },
      },
    ),
  });
  const handler = withHubPath(engine.websockets, (req, info) => engine.app.fetch(req, info));
  // The kit's server is Deno's own: each request's client is its socket's peer.
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req, info) => handler(req, { remoteAddr: info.remoteAddr, ip: info.remoteAddr.hostname }),
  );
  const base = `http://127.0.0.1:${server.addr.port}`;
  const clients = new Map<string, KitClient>();
  const sinceMarks = (): Received => {
    const got = new Map([...clients].map(([n, c]) => [n.toLowerCase(), c.sinceMark()]));
    const of = (name: string) => got.get(name.toLowerCase()) ?? [];
    return { of, text: (name) => of(name).map((h) => h.text).join("\n") };
  };
  const connect = async (player: TestPlayer) => {
    if (clients.has(player.name)) return;
    clients.set(player.name, await KitClient.open(base, player));
  };
  return {
    engine,
    base,
    world: pluginWorld(engine.services),
    deliver: engine.services.deliver,
    async player(name, o = {}) {
      const s = engine.services;
      const p = await s.accounts.register(name, PASSWORD, {
        location: o.room?.replace(/^#/, "") ?? "1",
        flags: o.flags ?? [],
      });
      return { id: p.id, name: p.name, token: await s.tokens.sign(p.id) };
    },
    async request(method, path, o = {}) {
      const headers: Record<string, string> = { ...o.headers };
      if (o.as) headers.authorization = `Bearer ${o.as.token}`;
      let body: string | undefined;
      if (o.body !== undefined) {
        body = typeof o.body === "string" ? o.body : JSON.stringify(o.body);
        headers["content-type"] ??= "application/json";
      }
      const res = await fetch(base + path, { method, headers, body });
      const text = await res.text();
      // A HEAD answer has GET's JSON type and no body: its body is "".
      const json = (res.headers.get("content-type") ?? "").includes("application/json") && text;
      return { status: res.status, headers: res.headers, body: json ? JSON.parse(text) : text };
    },
    connect,
    async run(player, line) {
      await connect(player);
      for (const c of clients.values()) c.mark();
      const actor = clients.get(player.name)!;
      await actor.command(line);
      // Everything the command sent to others is queued before any later frame of theirs.
      await Promise.all([...clients.values()].map((c) => c === actor ? null : c.sync()));
      return sinceMarks();
    },
    async advance(ms) {
      const clock = opts.clock;
      if (!(clock instanceof ManualClock)) {
        throw new Error("kit: advance() needs startTestGame({ clock: new ManualClock() })");
      }
      for (const c of clients.values()) c.mark();
      clock.advance(ms);
      await engine.timers.runDue();
      // What the jobs delivered is queued before the answer to a later sync.
      await Promise.all([...clients.values()].map((c) => c.sync()));
      return sinceMarks();
    },
    async received() {
      await Promise.all([...clients.values()].map((c) => c.sync()));
      const got = sinceMarks();
      for (const c of clients.values()) c.mark();
      return got;
    },
    command: (word) => engine.services.commands.get(word),
    async close() {
      for (const c of clients.values()) c.close();
      await engine.hub.shutdown();
      await server.shutdown();
      await engine.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** A web client of the kit: every message it received, and a way to wait on the hub. */
class KitClient {
  readonly #ws: WebSocket;
  readonly #heard: Heard[] = [];
  #mark = 0;
  #nextSync = 1;
  readonly #waiting = new Map<number, () => void>();
  readonly #sent: number[] = [];
  readonly #syncs: number[] = [];

  private constructor(ws: WebSocket) {
    this.#ws = ws;
    ws.addEventListener("message", (e) => this.#receive(String(e.data)));
  }

  /** Connects with the player's token and waits until the login is done. */
  static async open(base: string, player: TestPlayer): Promise<KitClient> {
    const url = `${base.replace(/^http/, "ws")}/ws?client=web&token=${player.token}`;
    const ws = new WebSocket(url);
    await within(
      new Promise<void>((ok, fail) => {
        ws.addEventListener("open", () => ok(), { once: true });
        ws.addEventListener("error", () => fail(new Error("kit: could not connect")), {
          once: true,
        });
      }),
      `connecting ${player.name}`,
    );
    const client = new KitClient(ws);
    await client.sync();
    return client;
  }

  /** Starts a new "since" window. */
  mark(): void {
    this.#mark = this.#heard.length;
  }

  /** Messages since the last mark. */
  sinceMark(): Heard[] {
    return this.#heard.slice(this.#mark);
  }

  /** Sends a command line, paced under the hub's rate limit, and waits until it has run. */
  async command(line: string): Promise<void> {
    await pace(this.#sent, COMMANDS_PER_SECOND);
    this.#ws.send(JSON.stringify({ msg: line }));
    await this.sync();
  }

  /**
   * Resolves once the hub has run everything this client sent before. Paced too: every
   * `run` syncs each connected client, so quick commands by others would pass the hub's bound.
   */
  async sync(): Promise<void> {
    await pace(this.#syncs, SYNCS_PER_SECOND);
    const id = this.#nextSync++;
    const done = new Promise<void>((ok) => this.#waiting.set(id, ok));
    this.#ws.send(JSON.stringify({ type: "sync", id }));
    return await within(done, "the hub to answer a sync");
  }

  close(): void {
    this.#ws.close();
  }

  #receive(raw: string): void {
    let frame: { msg?: string; data?: OutboundData };
    try {
      frame = JSON.parse(raw);
    } catch {
      frame = { msg: raw };
    }
    const data = frame.data ?? { type: "text" };
    if (data.type === "sync" && typeof data.id === "number") {
      this.#waiting.get(data.id)?.();
      this.#waiting.delete(data.id);
      return;
    }
    if (data.type === "pong" || data.type === "ack") return;
    this.#heard.push({ text: stripColour(frame.msg ?? ""), data });
  }
}

/** Waits until one more frame fits in `perSecond` over the last second; records its time. */
async function pace(sent: number[], perSecond: number): Promise<void> {
  const now = Date.now();
  while (sent.length && now - sent[0] >= 1000) sent.shift();
  if (sent.length >= perSecond) {
    await new Promise((r) => setTimeout(r, 1000 - (now - sent[0])));
    sent.shift();
  }
  sent.push(Date.now());
}

/** `p`, or a clear failure after the kit's wait. */
function within<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`kit: timed out waiting for ${what}`)), WAIT_MS);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** `over` laid onto `base` (objects merged, anything else replaced). */
function deepMerge(
  base: Record<string, unknown>,
  over: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] = isObject(b) && isObject(v) ? deepMerge(b, v) : v;
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * A plugin's own key space on a fresh in-memory database, guarded like the engine's (values
 * checked before writes, unreadable entries skipped), for unit tests of a plugin's store.
 * `space(name)` gives another plugin's space on the same database; close it when done.
 */
export async function memoryPluginKv(
  name: string,
): Promise<{ kv: PluginKv; space(name: string): PluginKv; close(): void }> {
  const db = await openStore(":memory:");
  return {
    kv: new PluginKv(db, name.toLowerCase()),
    space: (other) => new PluginKv(db, other.toLowerCase()),
    close: () => db.close(),
  };
}
