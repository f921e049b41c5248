/**
 * Shared setup for the black-box command tests: a real engine with a superuser from the
 * first-run variables, players registered over REST, and rooms, exits and things seeded
 * into the database between two starts (nothing outside can build yet).
 */
import { join } from "node:path";
import { api, startServer, type TestServer } from "./harness.ts";
import {
  connectWs,
  pacedSender,
  type WsClient,
  type WsMatcher,
  type WsMessage,
} from "./ws_client.ts";
import { openStore } from "../src/storage/kv.ts";
import { ObjectStore } from "../src/world/objects.ts";

/** Password of every test player. */
export const PASSWORD = "password123";

/** Ids of the seeded world. */
export interface Seeded {
  garden: string;
  north: string;
  lantern: string;
  redBall: string;
  redBox: string;
  /** Player ids by name. */
  players: Record<string, string>;
}

/** A started world: the server, its seed, and a way to log players in. */
export interface World {
  srv: TestServer;
  seed: Seeded;
  /** Logs a player in as a web client and waits for the first room view. */
  login(name: string): Promise<Player>;
  /** Security log lines, polled until `want` holds (or 3 s pass). */
  securityLog(want?: (lines: LogLine[]) => boolean): Promise<LogLine[]>;
  stop(): Promise<void>;
}

/** One security-log entry. */
export interface LogLine {
  event: string;
  actor: string | null;
  target: string | null;
  ip: string | null;
  detail?: string;
}

/** A logged-in test player. */
export interface Player {
  id: string;
  name: string;
  ws: WsClient;
  /** Sends a line, keeping under the hub's 10 commands a second. */
  send(line: string): Promise<void>;
  /** Sends a line and waits for a reply whose text matches. */
  cmd(line: string, want: WsMatcher): Promise<WsMessage>;
}

/** Matches a message by its `data.type`. */
export const isType = (type: string) => (m: WsMessage) => m.data.type === type;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts an engine with superuser `Root`, registers `names`, seeds a garden north of Limbo,
 * a lantern and two red things in Limbo, and restarts on the same database.
 */
export async function startWorld(names: string[]): Promise<World> {
  const env = { URSAMU_SUPERUSER_NAME: "Root", URSAMU_SUPERUSER_PASSWORD: "rootpassword1" };
  let srv = await startServer({ env });
  let seed: Seeded;
  try {
    const players: Record<string, string> = {};
    for (const name of names) {
      const r = await api(srv.base, "POST", "/api/v1/auth/register", { name, password: PASSWORD });
      if (r.status !== 200) throw new Error(`register ${name}: ${JSON.stringify(r.body)}`);
      const me = await api(srv.base, "GET", "/api/v1/me", undefined, r.body.token);
      players[name] = me.body.id;
    }
    await srv.stop({ keepDir: true });
    seed = await seedWorld(join(srv.dir, "ursamu.db"), players);
    srv = await startServer({ env, dir: srv.dir });
  } catch (e) {
    await srv.stop();
    throw e;
  }
  const open: WsClient[] = [];
  const world: World = {
    srv,
    seed,
    async login(name) {
      const password = name === "Root" ? "rootpassword1" : PASSWORD;
      const r = await api(srv.base, "POST", "/api/v1/auth/login", { name, password });
      if (r.status !== 200) throw new Error(`login ${name}: ${JSON.stringify(r.body)}`);
      const ws = await connectWs(srv, { token: r.body.token, client: "web" });
      open.push(ws);
      const session = await ws.expect(isType("session"));
      await ws.expect(isType("room"));
      const send = pacedSender(ws);
      return {
        id: session.data.player.id,
        name,
        ws,
        send,
        async cmd(line, want) {
          await send(line);
          return await ws.expect(want);
        },
      };
    },
    async securityLog(want = () => true) {
      const end = Date.now() + 3000;
      let lines: LogLine[] = [];
      while (Date.now() < end) {
        try {
          const text = await Deno.readTextFile(join(srv.dir, "logs", "security.log"));
          lines = text.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
          if (want(lines)) return lines;
        } catch { /* not written yet */ }
        await sleep(50);
      }
      return lines;
    },
    async stop() {
      for (const c of open) await c.close().catch(() => {});
      await srv.stop();
    },
  };
  return world;
}

async function seedWorld(path: string, players: Record<string, string>): Promise<Seeded> {
  const kv = await openStore(path);
  try {
    const objects = new ObjectStore(kv);
    const root = await objects.playerByName("Root");
    if (!root) throw new Error("first-run setup did not create Root");
    const garden = await objects.create({
      name: "Garden",
      type: "room",
      data: { description: "Roses everywhere." },
    });
    const north = await objects.create({
      name: "North;n",
      type: "exit",
      location: "1",
      data: { destination: garden.id },
    });
    await objects.create({
      name: "South",
      type: "exit",
      location: garden.id,
      data: { destination: "1", aliases: ["s"] },
    });
    const thing = (name: string, description: string) =>
      objects.create({ name, type: "thing", location: "1", data: { description } });
    const lantern = await thing("Lantern", "A brass lantern.");
    const redBall = await thing("Red Ball", "Bouncy.");
    const redBox = await thing("Red Box", "Square.");
    return {
      garden: garden.id,
      north: north.id,
      lantern: lantern.id,
      redBall: redBall.id,
      redBox: redBox.id,
      players: { ...players, Root: root.id },
    };
  } finally {
    kv.close();
  }
}
