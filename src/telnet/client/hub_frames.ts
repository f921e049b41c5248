/**
 * The frames one telnet player's hub session carries: hub frames read into their parts, and the
 * frames the sidecar sends (a typed line, a pacing ping, the client's address and times, its
 * window size). See docs/protocol.md.
 */

/** A frame from the hub, read into its parts. */
export interface HubFrame {
  /** The text to show ("" when none). */
  msg: string;
  /** The structured part (empty when none). */
  data: Record<string, unknown>;
  /** `data.type`, or "" when it has none. */
  type: string;
  /** The frame's GMCP form as the engine built it (`[package, payload]`), unchecked. */
  gmcp: unknown;
}

/**
 * A hub frame handed over in memory rather than as text (the engine's own telnet players,
 * src/hub/local_link.ts): the hub's EncodedFrame, whose parts are made once for every player
 * it goes to. Read-only, like everything a frame is read into.
 */
export interface FrameObject {
  /** The frame's parts as a telnet client reads them. */
  telnetParts(): { msg: string; data: Record<string, unknown>; gmcp: unknown };
}

/** A frame from the hub: its text (JSON, or plain text), or the frame itself in memory. */
export type HubInput = string | FrameObject;

/** True for a frame handed over in memory. */
export function isFrameObject(x: unknown): x is FrameObject {
  return typeof x === "object" && x !== null &&
    typeof (x as FrameObject).telnetParts === "function";
}

/** Reads a hub frame: JSON `{msg, data, gmcp}`, or anything else shown as text. */
export function parseHubFrame(text: string): HubFrame {
  let msg = text;
  let data: Record<string, unknown> = {};
  let gmcp: unknown = undefined;
  if (text.startsWith("{")) {
    try {
      const f = JSON.parse(text);
      if (typeof f === "object" && f !== null) {
        msg = typeof f.msg === "string" ? f.msg : "";
        if (typeof f.data === "object" && f.data !== null) data = f.data;
        gmcp = f.gmcp;
      }
    } catch { /* shown as text */ }
  }
  return { msg, data, type: typeof data.type === "string" ? data.type : "", gmcp };
}

/** A typed line for the hub; `ack` asks the hub to confirm it has read it (see pacer.ts). */
export function lineFrame(line: string, ack: number | null): string {
  return JSON.stringify(ack === null ? { msg: line } : { msg: line, ack });
}

/** A ping whose pong confirms every frame sent before it. */
export function pingFrame(id: number): string {
  return JSON.stringify({ type: "ping", id });
}

/** What the sidecar reports about one telnet connection (trusted only from the sidecar). */
export interface ClientInfo {
  ip: string;
  /** When the telnet client connected, and last typed a line (ms since epoch). */
  connectedAt: number;
  lastInput: number;
  /** The client's name (TTYPE, or `Core.Hello`'s client), or null. */
  ttype: string | null;
}

/** The `client` frame: the times let `who` and the idle limit see through engine restarts. */
export function clientFrame(info: ClientInfo): string {
  const frame: Record<string, string | number> = {
    type: "client",
    ip: info.ip,
    connectedAt: info.connectedAt,
    lastInput: info.lastInput,
  };
  if (info.ttype) frame.ttype = info.ttype.slice(0, 64);
  return JSON.stringify(frame);
}

/** The `window` frame (NAWS); an unknown height (0 or null) is sent as 24. */
export function windowFrame(width: number, height: number | null): string {
  return JSON.stringify({ type: "window", width, height: height || 24 });
}
