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
export async function serveEngine(
  engine: Engine,
  opts: { linkPort?: number } = {},
): Promise<RunningServer> {
  const cfg = engine.services.config.value.server;
  const tls = engine.tls ?? undefined;
  const appHandler = withHubPath(engine.websockets, (req, info) => engine.app.fetch(req, info));
  const servers: Deno.HttpServer<Deno.NetAddr>[] = [];
  try {
    servers.push(listen("server.http", cfg.host, cfg.http, "HTTP listening", appHandler, tls));
    servers.push(
      listen(
        "server.ws",
        cfg.host,
        cfg.ws,
        "WebSocket hub",
        hubPortHandler(engine.websockets),
        tls,
      ),
    );
    // With TLS on, the telnet sidecar reaches the engine over plain loopback (a public
    // certificate does not name 127.0.0.1); the supervisor picks the port (docs/tls.md).
    if (tls && opts.linkPort) {
      servers.push(
        listen("the sidecar link", "127.0.0.1", opts.linkPort, "sidecar link", appHandler),
      );
    }
  } catch (e) {
    await Promise.all(servers.map((s) => s.shutdown()));
    throw e;
  }
  return {
    async shutdown() {
      // Sockets first: an open upgraded connection would keep shutdown() waiting.
      await engine.hub.shutdown();
      await Promise.all(servers.map((s) => s.shutdown()));
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
  tls?: { key: string; cert: string },
): Deno.HttpServer<Deno.NetAddr> {
  try {
    return Deno.serve({
      port,
      hostname,
      ...(tls ? { key: tls.key, cert: tls.cert } : {}),
      onListen: ({ hostname, port }) =>
        console.log(`engine: ${label} on ${hostname}:${port}${tls ? " (TLS)" : ""}`),
      onError: serveError,
    }, handler);
  } catch (e) {
    if (tls && !(e instanceof Deno.errors.AddrInUse)) {
      // A key and certificate that were read but do not work (no match, not parseable).
      throw new ListenError(
        `${hostname}:${port} (${key}) cannot serve TLS with server.ssl.key and server.ssl.cert ` +
          `(${
            (e as Error).message.split("\n")[0]
          }); check that the key belongs to the certificate.`,
      );
    }
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
