/**
 * What carries one telnet player's hub session out of the sidecar for one connection attempt:
 * a {@linkcode Wire}, either a session of the sidecar's one link (mux_client.ts) or, for a
 * sidecar without a secret, a WebSocket of the player's own. And the frames a client sends over
 * it (docs/protocol.md): a typed line with its pacing id, a ping, the player's report, the window.
 */
import type { PlayerReport } from "../client/hub_port.ts";

/** One attempt's connection to the hub. */
export interface Wire {
  /** Sends one text frame (throws when the wire is not open). */
  send(text: string): void;
  /** Closes the wire; its `closed` event follows. */
  close(code: number, reason: string): void;
}

/** What a wire reports; nothing is reported from inside the call that dialed it. */
export interface WireEvents {
  /** The hub took the session. */
  open(): void;
  /** A text frame from the hub. */
  message(text: string): void;
  /** The wire is closed (by either side, or lost: 1006), with the hub's close code. */
  closed(code: number, reason: string): void;
  /**
   * Lines the hub had read and not run, handed back just before it closes the session for a
   * restart (oldest first): the client sends them to the next engine before anything newer.
   */
  unread?(lines: string[]): void;
}

/** Opens a wire to the hub with a WebSocket URL's query (`client=telnet&token=...&resume=1`). */
export type WireDialer = (query: string, events: WireEvents) => Wire;

/** Dials a WebSocket of its own for each wire (a sidecar without a secret: no link). */
export function webSocketWires(hubUrl: string, headers?: Record<string, string>): WireDialer {
  return (query, events) => {
    const url = new URL(hubUrl);
    url.search = query;
    const ws = new WebSocket(url.href, headers ? { headers } : undefined);
    ws.onopen = () => events.open();
    ws.onmessage = (e) => {
      if (typeof e.data === "string") events.message(e.data);
    };
    ws.onerror = () => {/* a close event always follows */};
    ws.onclose = (e) => events.closed(e.code, e.reason);
    return {
      send: (text) => ws.send(text),
      close: (code, reason) => ws.close(code, reason),
    };
  };
}

/** A typed line for the hub; `ack` asks the hub to confirm it has read it (see pacer.ts). */
export function lineFrame(line: string, ack: number | null): string {
  return JSON.stringify(ack === null ? { msg: line } : { msg: line, ack });
}

/** A ping whose pong confirms every frame sent before it. */
export function pingFrame(id: number): string {
  return JSON.stringify({ type: "ping", id });
}

/**
 * The `client` frame of a report (address, terminal, times: believed only from the sidecar), or
 * null when the report has none of them. The times let `who` and the idle limit see through
 * engine restarts.
 */
export function clientFrame(r: PlayerReport): string | null {
  const depth = typeof r.colourDepth === "number" ? r.colourDepth : null;
  if (!r.ip && !r.ttype && !r.connectedAt && !r.lastInput && depth === null) return null;
  const frame: Record<string, string | number> = { type: "client" };
  if (r.ip) frame.ip = r.ip;
  if (r.connectedAt) frame.connectedAt = r.connectedAt;
  if (r.lastInput) frame.lastInput = r.lastInput;
  if (r.ttype) frame.ttype = r.ttype.slice(0, 64);
  if (depth !== null) frame.colourDepth = depth;
  return JSON.stringify(frame);
}

/** The `gmcp-supports` frame of a report (GMCP on with these packages, or off), or null without. */
export function supportsFrame(r: PlayerReport): string | null {
  if (r.gmcp === undefined) return null;
  if (r.gmcp === null) return JSON.stringify({ type: "gmcp-supports", off: true });
  return JSON.stringify({ type: "gmcp-supports", supports: r.gmcp.supports });
}

/**
 * The `gmcp` frame of a message the client sent (`{type, package, data}`), or null when it
 * would be over the hub's frame cap (a subnegotiation is capped at 8 KiB already).
 */
export function gmcpFrame(pkg: string, data: unknown): string | null {
  const text = JSON.stringify({ type: "gmcp", package: pkg, data: data ?? null });
  return text.length > MAX_GMCP_FRAME ? null : text;
}

/** Largest `gmcp` frame passed on, in UTF-16 units (well under the hub's 64 KiB frame cap). */
const MAX_GMCP_FRAME = 16 * 1024;

/** The `window` frame (NAWS) of a report, or null when it has no width; no height is sent as 24. */
export function windowFrame(r: PlayerReport): string | null {
  if (!r.width) return null;
  return JSON.stringify({ type: "window", width: r.width, height: r.height || 24 });
}
