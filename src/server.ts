/** Starts the engine's listeners and stops them again. */
import type { Engine } from "./engine.ts";
import { hubPortHandler, withHubPath } from "./hub/upgrade.ts";

/** Running listeners. */
export interface RunningServer {
  shutdown(): Promise<void>;
}

/**
 * Serves the HTTP app on `server.http` (host `server.host`), the WebSocket hub on
 * `server.ws` (any path) and on the HTTP port at `/ws`.
 */
export function serveEngine(engine: Engine): Promise<RunningServer> {
  const cfg = engine.services.config.value.server;
  const http = Deno.serve({
    port: cfg.http,
    hostname: cfg.host,
    onListen: ({ hostname, port }) => console.log(`engine: HTTP listening on ${hostname}:${port}`),
  }, withHubPath(engine.hub, (req, info) => engine.app.fetch(req, info)));
  const ws = Deno.serve({
    port: cfg.ws,
    hostname: cfg.host,
    onListen: ({ hostname, port }) => console.log(`engine: WebSocket hub on ${hostname}:${port}`),
  }, hubPortHandler(engine.hub));
  return Promise.resolve({
    async shutdown() {
      // Sockets first: an open upgraded connection would keep shutdown() waiting.
      await engine.hub.shutdown();
      await Promise.all([ws.shutdown(), http.shutdown()]);
    },
  });
}
