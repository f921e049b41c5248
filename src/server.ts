/** Starts the engine's listeners and stops them again. */
import type { Engine } from "./engine.ts";

/** Running listeners. */
export interface RunningServer {
  shutdown(): Promise<void>;
}

/** Serves the HTTP app on `server.http` (host `server.host`). */
export function serveEngine(engine: Engine): Promise<RunningServer> {
  const cfg = engine.services.config.value.server;
  const http = Deno.serve({
    port: cfg.http,
    hostname: cfg.host,
    onListen: ({ hostname, port }) => console.log(`engine: HTTP listening on ${hostname}:${port}`),
  }, (req, info) => engine.app.fetch(req, info));
  return Promise.resolve({
    async shutdown() {
      await http.shutdown();
    },
  });
}
