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
import { type ColourDepth, renderText } from "../../text/colour.ts";
import { encodeGmcp } from "../protocol/gmcp.ts";
import { forwardedGmcp } from "./gmcp_relay.ts";
import { type HubFrame, type HubInput, parseHubFrame } from "./hub_frames.ts";
import { encodeLine } from "../protocol/text.ts";

const UNSET = Symbol("unset");

/** A colour setting: none, the 16 colours (`true`), or a depth for RGB codes. */
export type ColourSetting = boolean | ColourDepth;

/** Slot of a colour setting in ByColour. */
function slotOf(colour: ColourSetting): number {
  if (colour === false || colour === 0) return 0;
  if (colour === true || colour === 16) return 1;
  return colour === 256 ? 2 : 3;
}

/** What one key was made into, per colour setting, each made on first ask; a new key drops them. */
class ByColour<K, V> {
  #key: K | typeof UNSET = UNSET;
  /** By slot: no colour, 16 colours, 256, 24-bit; undefined: not made yet. */
  #made: (V | undefined)[] = [];

  readonly #make: (key: K, colour: ColourSetting) => V;

  constructor(make: (key: K, colour: ColourSetting) => V) {
    this.#make = make;
  }

  get(key: K, colour: ColourSetting): V {
    if (key !== this.#key) {
      this.#key = key;
      this.#made = [];
    }
    const i = slotOf(colour);
    let value = this.#made[i];
    if (value === undefined) {
      value = this.#make(key, colour);
      this.#made[i] = value;
    }
    return value;
  }
}

/** The shared reading and rendering of the hub's frames, for one sidecar. */
export class RenderMemo {
  #text: HubInput | null = null;
  #frame: HubFrame | null = null;
  #line = new ByColour((msg: string, colour) => {
    return encodeLine(renderText(msg, colour));
  });
  #gmcp = new ByColour((gmcp: unknown, colour): Uint8Array | null => {
    const message = forwardedGmcp(gmcp, slotOf(colour) > 0);
    return message === null ? null : encodeGmcp(message[0], message[1]);
  });

  /**
   * The frame read into its parts (the same object for the same frame in a row): its text
   * parsed, or a frame in memory taken apart.
   */
  frame(input: HubInput): HubFrame {
    if (input !== this.#text || this.#frame === null) {
      this.#frame = typeof input === "string" ? parseHubFrame(input) : input.telnetParts();
      this.#text = input;
    }
    return this.#frame;
  }

  /** `msg` as a telnet line: colour codes rendered (or dropped), a line end, CRLF, UTF-8. */
  line(msg: string, colour: ColourSetting): Uint8Array {
    return this.#line.get(msg, colour);
  }

  /**
   * A frame's GMCP form (`HubFrame.gmcp`) as a telnet subnegotiation, its strings rendered for
   * `colour`; null when it is not a usable one.
   */
  gmcp(gmcp: unknown, colour: boolean): Uint8Array | null {
    return this.#gmcp.get(gmcp, colour);
  }
}
