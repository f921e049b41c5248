/**
 * Shared setup for the plugin black-box tests: a real engine with superuser `Root`
 * (first-run variables), players registered over REST, and web-client logins.
 */
import { api, type StartOptions, startServer, type TestServer } from "./harness.ts";
import {
  connectWs,
  pacedSender,
  type WsClient,
  type WsMatcher,
  type WsMessage,
} from "./ws_client.ts";

/** Password of every test player (and of Root). */
export const PASSWORD = "password123";

/** A logged-in web client. */
export interface Player {
  id: string;
  name: string;
  token: string;
  ws: WsClient;
  /** Sends a line, staying under the hub's 10 commands a second. */
  send(line: string): Promise<void>;
  /** Sends a line and waits for a message whose text matches. */
  cmd(line: string, want: WsMatcher): Promise<WsMessage>;
}

/** A running engine with registered players. */
export interface PluginWorld {
  srv: TestServer;
  /** Tokens by player name (Root included). */
  tokens: Record<string, string>;
  /** Player ids by name (Root included). */
  ids: Record<string, string>;
  /** Logs a player in over WebSocket as a web client. */
  login(name: string): Promise<Player>;
  stop(): Promise<void>;
}

/** Matches a message by its `data.type`. */
export const isType = (type: string) => (m: WsMessage) => m.data.type === type;

/** Starts an engine with superuser Root and registers `names`. */
export async function startPluginWorld(
  names: string[],
  opts: StartOptions = {},
): Promise<PluginWorld> {
  const srv = await startServer({
    ...opts,
    env: { URSAMU_SUPERUSER_NAME: "Root", URSAMU_SUPERUSER_PASSWORD: PASSWORD, ...opts.env },
  });
  const tokens: Record<string, string> = {};
  const ids: Record<string, string> = {};
  const open: WsClient[] = [];
  try {
    const root = await api(srv.base, "POST", "/api/v1/auth/login", {
      name: "Root",
      password: PASSWORD,
    });
    if (root.status !== 200) throw new Error(`Root login: ${JSON.stringify(root.body)}`);
    tokens.Root = root.body.token;
    for (const name of names) {
      const r = await api(srv.base, "POST", "/api/v1/auth/register", { name, password: PASSWORD });
      if (r.status !== 200) throw new Error(`register ${name}: ${JSON.stringify(r.body)}`);
      tokens[name] = r.body.token;
    }
    for (const [name, token] of Object.entries(tokens)) {
      ids[name] = (await api(srv.base, "GET", "/api/v1/me", undefined, token)).body.id;
    }
  } catch (e) {
    await srv.stop();
    throw e;
  }
  return {
    srv,
    tokens,
    ids,
    async login(name) {
      const ws = await connectWs(srv, { token: tokens[name], client: "web" });
      open.push(ws);
      await ws.expect(isType("session"));
      await ws.expect(isType("room"));
      const send = pacedSender(ws);
      return {
        id: ids[name],
        name,
        token: tokens[name],
        ws,
        send,
        async cmd(line, want) {
          await send(line);
          return await ws.expect(want);
        },
      };
    },
    async stop() {
      for (const c of open) await c.close().catch(() => {});
      await srv.stop();
    },
  };
}
