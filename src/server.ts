/** Starts the engine's listeners and stops them again. */
import type { Engine } from "./engine.ts";
import { hubPortHandler, withHubPath } from "./hub/upgrade.ts";
import { isConnectionError, UNREADABLE_REQUEST } from "./http/connection_errors.ts";

/** Running listeners. */
export interface RunningServer {
  shutdown(): Promise<void>;
}

/**
 * Serves the HTTP app on `server.http` (host `server.host`), the WebSocket hub on
 * `server.ws` (any path) and on the HTTP port at `/ws`.
 */
export async function serveEngine(engine: Engine): Promise<RunningServer> {
  const cfg = engine.services.config.value.server;
  const http = listen(
    "server.http",
    cfg.host,
    cfg.http,
    "HTTP listening",
    withHubPath(
      engine.hub,
      (req, info) => engine.app.fetch(req, info),
    ),
  );
  let ws: Deno.HttpServer<Deno.NetAddr>;
  try {
    ws = listen("server.ws", cfg.host, cfg.ws, "WebSocket hub", hubPortHandler(engine.hub));
  } catch (e) {
    await http.shutdown();
    throw e;
  }
  return {
    async shutdown() {
      // Sockets first: an open upgraded connection would keep shutdown() waiting.
      await engine.hub.shutdown();
      await Promise.all([ws.shutdown(), http.shutdown()]);
    },
  };
}

/** A listener that could not start, with the config key to change. */
export class ListenError extends Error {
  override name = "ListenError";
}

/** Starts one listener; a taken port or a refused address becomes a ListenError naming the key. */
function listen(
  key: string,
  hostname: string,
  port: number,
  label: string,
  handler: Deno.ServeHandler<Deno.NetAddr>,
): Deno.HttpServer<Deno.NetAddr> {
  try {
    return Deno.serve({
      port,
      hostname,
      onListen: ({ hostname, port }) => console.log(`engine: ${label} on ${hostname}:${port}`),
      onError: serveError,
    }, handler);
  } catch (e) {
    const why = e instanceof Deno.errors.AddrInUse
      ? "is already in use"
      : `cannot be opened (${(e as Error).message})`;
    throw new ListenError(
      `${hostname}:${port} (${key}) ${why}; choose another port with ${key} in ` +
        `config/config.json or URSAMU_${key.replace(".", "_").toUpperCase()}.`,
    );
  }
}

/**
 * What a listener answers when its handler throws (the app maps its own errors, so this is
 * the hub's upgrade path or a bug): a failed connection quietly, anything else logged once,
 * and never Deno's default of a stack trace and a plain-text 500.
 */
function serveError(e: unknown): Response {
  const connection = isConnectionError(e);
  if (!connection) console.error("engine: request failed:", e);
  return Response.json({ error: connection ? UNREADABLE_REQUEST : "Internal server error" }, {
    status: connection ? 400 : 500,
    headers: {
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
      "referrer-policy": "strict-origin-when-cross-origin",
    },
  });
}
