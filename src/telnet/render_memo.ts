/**
 * What the sidecar's telnet clients share when the hub sends one frame to many of them (a room's
 * pose crosses the link once, naming every session): the frame read once, and its text rendered
 * and encoded once per colour setting, the only part of a telnet client's profile the bytes
 * depend on (charset is UTF-8 for all; MCCP2 compresses each stream on its own, after this).
 *
 * The memo holds the last frame and the last line only: a record's sessions are handed the same
 * text one after another, so that is all a fan-out needs, and nothing grows. Whatever it returns
 * is shared: callers must not change it.
 */
import { renderText } from "../text/colour.ts";
import { encodeGmcp } from "./gmcp.ts";
import { forwardedGmcp } from "./gmcp_relay.ts";
import { type HubFrame, parseHubFrame } from "./hub_frames.ts";
import { encodeText } from "./text.ts";

/** The shared reading and rendering of the hub's frames, for one sidecar. */
export class RenderMemo {
  #text: string | null = null;
  #frame: HubFrame | null = null;
  #msg: string | null = null;
  /** The last message's bytes: index 0 without colour, 1 with. */
  #line: [Uint8Array | null, Uint8Array | null] = [null, null];
  #gmcpOf: unknown = undefined;
  /** The last frame's GMCP bytes: index 0 without colour, 1 with; null: not a usable one. */
  #gmcp: [Uint8Array | null | undefined, Uint8Array | null | undefined] = [undefined, undefined];

  /** The frame `text` read into its parts (the same object for the same text in a row). */
  frame(text: string): HubFrame {
    if (text !== this.#text || this.#frame === null) {
      this.#frame = parseHubFrame(text);
      this.#text = text;
    }
    return this.#frame;
  }

  /** `msg` as a telnet line: colour codes rendered (or dropped), a line end, CRLF, UTF-8. */
  line(msg: string, colour: boolean): Uint8Array {
    if (msg !== this.#msg) {
      this.#msg = msg;
      this.#line = [null, null];
    }
    const i = colour ? 1 : 0;
    let bytes = this.#line[i];
    if (bytes === null) {
      const text = renderText(msg, colour);
      bytes = encodeText(text.endsWith("\n") ? text : text + "\n");
      this.#line[i] = bytes;
    }
    return bytes;
  }

  /**
   * A frame's GMCP form (`HubFrame.gmcp`) as a telnet subnegotiation, its strings rendered for
   * `colour`; null when it is not a usable one.
   */
  gmcp(gmcp: unknown, colour: boolean): Uint8Array | null {
    if (gmcp !== this.#gmcpOf) {
      this.#gmcpOf = gmcp;
      this.#gmcp = [undefined, undefined];
    }
    const i = colour ? 1 : 0;
    let bytes = this.#gmcp[i];
    if (bytes === undefined) {
      const message = forwardedGmcp(gmcp, colour);
      bytes = message === null ? null : encodeGmcp(message[0], message[1]);
      this.#gmcp[i] = bytes;
    }
    return bytes;
  }
}
