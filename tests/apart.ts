/**
 * The engine and the telnet sidecar started apart with one secret (as `deno task engine` and
 * `deno task telnet`), so a test can kill the engine and start the next one itself: under the
 * supervisor a crashed engine is not restarted.
 */
import { startServer, type TestServer, waitHealthy } from "./harness.ts";
import type { TelnetClient } from "./telnet_client.ts";

/** Engine and sidecar apart, and how to start the next engine on the same ports and database. */
export async function apart(): Promise<{
  engine: TestServer;
  sidecar: TestServer;
  secrets: Record<string, string>;
  restart: () => Promise<TestServer>;
}> {
  const secrets = {
    URSAMU_SIDECAR_SECRET: "handoff-secret-" + crypto.randomUUID(),
    JWT_SECRET: "jwt-" + crypto.randomUUID(),
  };
  const engine = await startServer({ env: secrets });
  const ports = { URSAMU_SERVER_HTTP: String(engine.http), URSAMU_SERVER_WS: String(engine.ws) };
  const sidecar = await startServer({ entry: "telnet.ts", env: { ...secrets, ...ports } });
  await sidecar.waitFor(/telnet: listening on .*sockets handed to the engine/);
  return {
    engine,
    sidecar,
    secrets,
    // A new engine on the old ports and database ("./main.ts": the harness's own entry would
    // wait for health on fresh ports).
    restart: async () => {
      const next = await startServer({
        dir: engine.dir,
        entry: "./main.ts",
        env: { ...secrets, ...ports, URSAMU_SERVER_TELNET: String(engine.telnet) },
      });
      await waitHealthy(engine.base);
      return next;
    },
  };
}

/** What {@linkcode withApart} hands a test: the processes apart and the clients it opens. */
export type ApartRun = Awaited<ReturnType<typeof apart>> & { open: TelnetClient[] };

/**
 * Runs `body` with the engine and sidecar apart, then closes the clients it put in `open` and
 * stops the sidecar and every engine started (the first is often killed, the next restarted).
 */
export async function withApart(body: (run: ApartRun) => Promise<void>): Promise<void> {
  const run = await apart();
  const engines = [run.engine];
  const open: TelnetClient[] = [];
  const restart = async () => {
    const next = await run.restart();
    engines.push(next);
    return next;
  };
  try {
    await body({ ...run, restart, open });
  } finally {
    for (const c of open) await c.close();
    await run.sidecar.stop();
    for (const e of engines.reverse()) await e.stop().catch(() => {});
  }
}
