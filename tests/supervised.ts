/**
 * Helpers for black-box tests that run the whole stack under the supervisor
 * (`src/supervisor/main.ts`: first-run setup, telnet sidecar, engine).
 */
import { type StartOptions, startServer, type TestServer, waitHealthy } from "./harness.ts";
import { TelnetClient, type TelnetClientOptions } from "./telnet_client.ts";

/** The superuser created by first-run setup from the environment. */
export const ADMIN = { name: "Admin", password: "admin-password-1" };

/**
 * Starts the supervisor and waits until the engine answers /health and the sidecar listens (up
 * to `waitMs` for the engine: a loaded machine's start takes over 20 s; an empty Deno cache's
 * more, as it downloads first).
 */
export async function startSupervised(
  opts: StartOptions = {},
  waitMs = 60_000,
): Promise<TestServer> {
  // The supervisor answers before its engine binds, so a port another test took between the
  // harness finding it free and the engine's bind shows here, not in startServer: try again.
  for (let attempt = 1;; attempt++) {
    const srv = await startServer({
      ...opts,
      entry: "src/supervisor/main.ts",
      env: {
        URSAMU_SUPERUSER_NAME: ADMIN.name,
        URSAMU_SUPERUSER_PASSWORD: ADMIN.password,
        ...opts.env,
      },
    });
    try {
      await waitHealthy(srv.base, () => false, () => srv.output(), waitMs);
      await srv.waitFor(/telnet: listening on/);
      return srv;
    } catch (e) {
      const taken = /is already in use/.test(srv.output());
      await srv.stop();
      if (!taken || attempt >= 3 || opts.firstPorts) throw e;
    }
  }
}

/** Connects over telnet, logs in with `connect <name> <password>` and waits for the room. */
export async function telnetLogin(
  srv: TestServer,
  name: string,
  password: string,
  opts: TelnetClientOptions = {},
): Promise<TelnetClient> {
  const t = await TelnetClient.connect(srv.telnet, opts);
  try {
    await t.waitFor(/connect <name>/);
    await t.send(`connect ${name} ${password}`);
    await t.waitFor(/Limbo/);
  } catch (e) {
    await t.close();
    throw e;
  }
  return t;
}

/**
 * Runs a line over telnet and answers its whole reply, trimmed: what came before the answer to a
 * `think` sent after it (lines run in order, so the marker ends the reply).
 */
export async function telnetReply(t: TelnetClient, line: string): Promise<string> {
  const from = t.mark();
  await t.send(line);
  await t.send("think --end of reply--");
  return (await t.waitFor(/([\s\S]*?)--end of reply--/, 10_000, from))[1].trim();
}

/** Counts matches of `re` in a text. */
export function count(text: string, re: RegExp): number {
  return (text.match(new RegExp(re.source, re.flags.includes("g") ? re.flags : re.flags + "g")) ??
    []).length;
}
