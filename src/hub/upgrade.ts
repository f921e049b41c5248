/** HTTP entry points of the hub: the WebSocket port (any path) and `/ws` on the HTTP port. */
import type { ServeHandler } from "../net/http_listener.ts";

/** What takes the upgrade requests (the WebSocket carrier, src/hub/carriers/websocket.ts). */
export interface UpgradeTaker {
  accept(req: Request, peerIp: string): Response;
}

/** Path on the HTTP port that upgrades to the hub. */
export const HTTP_WS_PATH = "/ws";

/** True when a request asks for a WebSocket upgrade. */
export function isWebSocketUpgrade(req: Request): boolean {
  return req.headers.get("upgrade")?.toLowerCase() === "websocket";
}

/** Handler for the WebSocket port: every path upgrades; anything else gets 426. */
export function hubPortHandler(hub: UpgradeTaker): ServeHandler {
  return (req, info) => {
    if (isWebSocketUpgrade(req)) return hub.accept(req, info.ip);
    return Response.json({ error: "This port speaks WebSocket only." }, {
      status: 426,
      headers: { upgrade: "websocket", "x-content-type-options": "nosniff" },
    });
  };
}

/** Wraps the HTTP handler so that `GET /ws` with an upgrade goes to the hub. */
export function withHubPath(hub: UpgradeTaker, next: ServeHandler): ServeHandler {
  return (req, info) => {
    if (isWebSocketUpgrade(req) && new URL(req.url).pathname === HTTP_WS_PATH) {
      return hub.accept(req, info.ip);
    }
    return next(req, info);
  };
}
