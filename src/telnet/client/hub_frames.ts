/**
 * The hub's frames as a telnet client reads them: JSON text over a wire (docs/protocol.md), or the
 * hub's own frame object in memory, read into their parts. (What a client sends over a wire is in
 * src/telnet/sidecar/wire.ts.)
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
 * A hub frame handed over in memory rather than as text (the telnet players the engine serves,
 * src/hub/carriers/telnet.ts): the hub's EncodedFrame, whose parts are made once for every
 * player it goes to. Read-only, like everything a frame is read into.
 */
export interface FrameObject {
  /** The frame's parts as a telnet client reads them, made once for all its recipients. */
  telnetParts(): HubFrame;
}

/** A frame from the hub: its text (JSON, or plain text), or the frame itself in memory. */
export type HubInput = string | FrameObject;

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
