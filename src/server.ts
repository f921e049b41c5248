/** Starts the engine's listeners and stops them again. */
import type { Engine } from "./engine.ts";
import { hubPortHandler, withHubPath } from "./hub/upgrade.ts";
import { isConnectionError, UNREADABLE_REQUEST } from "./http/connection_errors.ts";
import { TrustedProxies } from "./net/client_address.ts";
import { HttpConnections, type HttpLimits } from "./net/http_connections.ts";
import { HttpListener, type ServeHandler } from "./net/http_listener.ts";
import { connectionServer, type ServeHttp } from "./net/serve_http.ts";
import { bindWithRetry } from "./net/bind_retry.ts";

/** Running listeners. */
export interface RunningServer {
  shutdown(): Promise<void>;
}

/** Settings of {@linkcode serveEngine}. */
export interface ServeOptions {
  /** Plain loopback port for the telnet sidecar while the public ports speak TLS. */
  linkPort?: number;
  /**
   * A listener is gone for good while the engine runs (nobody can connect on it any more): the
   * engine exits with the restart code and the supervisor starts it again (main.ts).
   */
  listenerLost?: (key: string, e: Error) => void;
  /**
   * How long a port in use is tried again before the start fails (src/net/bind_retry.ts): a
   * restarted engine's; 0 (the default) fails at once, as a first start should.
   */
  bindRetryMs?: number;
}

/**
 * Serves the HTTP app on `server.http` (host `server.host`), the WebSocket hub on
 * `server.ws` (any path) and on the HTTP port at `/ws`.
 */
export async function serveEngine(engine: Engine, opts: ServeOptions = {}): Promise<RunningServer> {
  const config = engine.services.config;
  const cfg = config.value.server;
  const tls = engine.tls ?? undefined;
  const serveHttp = connectionServer();
  if (typeof serveHttp === "string") throw new Error(serveHttp);
  const trusted = trustedProxiesOf(() => config.value.server.trustedProxies);
  const connections = new HttpConnections(() => {
    const s = config.value.server;
    return {
      headerTimeout: s.headerTimeout,
      keepAliveTimeout: s.keepAliveTimeout,
      maxConnectionsPerIp: s.maxConnectionsPerIp,
      trusted: trusted(),
    } satisfies HttpLimits;
  }, (line) => console.warn(line));
  const invalid = trusted().invalid;
  if (invalid.length) {
    console.warn(
      `engine: server.trustedProxies: ignored ${invalid.map((e) => JSON.stringify(e)).join(", ")}` +
        " (expected addresses or CIDR ranges)",
    );
  }
  const appHandler = withHubPath(engine.websockets, (req, info) => engine.app.fetch(req, info));
  const common = { connections, trusted, serveHttp, opts };
  const hub = hubPortHandler(engine.websockets);
  const listeners: HttpListener[] = [];
  try {
    listeners.push(
      await listen(common, "server.http", cfg.host, cfg.http, "HTTP listening", appHandler, tls),
    );
    listeners.push(
      await listen(common, "server.ws", cfg.host, cfg.ws, "WebSocket hub", hub, tls),
    );
    // With TLS on, the telnet sidecar reaches the engine over plain loopback (a public
    // certificate does not name 127.0.0.1); the supervisor picks the port (docs/tls.md).
    if (tls && opts.linkPort) {
      listeners.push(
        await listen(
          common,
          "the sidecar link",
          "127.0.0.1",
          opts.linkPort,
          "sidecar link",
          appHandler,
        ),
      );
    }
  } catch (e) {
    connections.stop();
    await Promise.all(listeners.map((l) => l.shutdown()));
    throw e;
  }
  return {
    async shutdown() {
      // Sockets first: the hub's connections get their notice and close code.
      await engine.hub.shutdown();
      connections.closeIdle();
      await Promise.all(listeners.map((l) => l.shutdown()));
      connections.closeAll();
      connections.stop();
    },
  };
}

/** The trusted proxies, parsed again only when the configured list changes. */
function trustedProxiesOf(list: () => readonly string[]): () => TrustedProxies {
  let seen: readonly string[] | null = null;
  let parsed = new TrustedProxies([]);
  return () => {
    const now = list();
    if (now !== seen) {
      seen = now;
      parsed = new TrustedProxies(now);
    }
    return parsed;
  };
}

/** A listener that could not start, with the config key to change. */
export class ListenError extends Error {
  override name = "ListenError";
}

/**
 * Starts one listener (a taken port tried again for `opts.bindRetryMs`); a taken port or a
 * refused address becomes a ListenError naming the key.
 */
async function listen(
  common: {
    connections: HttpConnections;
    trusted: () => TrustedProxies;
    serveHttp: ServeHttp;
    opts: ServeOptions;
  },
  key: string,
  hostname: string,
  port: number,
  label: string,
  handler: ServeHandler,
  tls?: { key: string; cert: string },
): Promise<HttpListener> {
  let listener: HttpListener;
  try {
    listener = await bindWithRetry(() =>
      new HttpListener({
        hostname,
        port,
        tls,
        label: `engine: ${key}`,
        handler,
        onError: serveError,
        connections: common.connections,
        trusted: common.trusted,
        serveHttp: common.serveHttp,
        log: (line) => console.warn(line),
        lost: (e) => common.opts.listenerLost?.(key, e),
      }), {
      budgetMs: common.opts.bindRetryMs ?? 0,
      what: `${hostname}:${port} (${key})`,
      log: (line) => console.warn(line),
    });
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
    const retried = common.opts.bindRetryMs ?? 0;
    if (e instanceof Deno.errors.AddrInUse && retried > 0) {
      // A restart that gave up: the game is not new, its players are waiting with the sidecar,
      // and the supervisor will try again; the owner needs that, not the first start's advice.
      throw new ListenError(
        `${hostname}:${port} (${key}) is still in use after ${
          Math.round(retried / 1000)
        } s of trying at this restart (something else took the port while the engine ` +
          "restarted); the telnet sidecar keeps the players and the supervisor starts the engine " +
          `again after its delay. Stop whatever holds the port, or choose another with ${key} in ` +
          `config/config.json or ${envName(key)}: the next try reads it.`,
      );
    }
    const why = e instanceof Deno.errors.AddrInUse
      ? "is already in use"
      : `cannot be opened (${(e as Error).message})`;
    throw new ListenError(
      `${hostname}:${port} (${key}) ${why}; choose another port with ${key} in ` +
        `config/config.json or ${envName(key)}.`,
    );
  }
  const { hostname: host, port: bound } = listener.addr;
  console.log(`engine: ${label} on ${host}:${bound}${tls ? " (TLS)" : ""}`);
  return listener;
}

/** The environment variable of a configuration key (`server.http` → `URSAMU_SERVER_HTTP`). */
function envName(key: string): string {
  return `URSAMU_${key.replace(".", "_").toUpperCase()}`;
}

/**
 * What a listener answers when its handler throws (the app maps its own errors, so this is
 * the hub's upgrade path or a bug): a failed connection quietly, anything else logged once,
 * and never a stack trace or a plain-text 500.
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
