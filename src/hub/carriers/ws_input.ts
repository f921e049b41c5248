/**
 * The input budget of a WebSocket client: a token bucket over the bytes of the frames it sends,
 * checked before a frame is parsed. A frame of 64 KiB may hold 8,191 lines, and each was split,
 * cleaned and counted against the command rate before the rate dropped it (about 3 ms a frame),
 * so one socket streaming such frames held every other player seconds behind (the outside probe
 * of session 56). A socket cannot be left unread to slow its sender (the runtime reads it), so a
 * frame over the budget is dropped unparsed (the client told so, at most once in a burst's time),
 * and a socket that keeps on past a second burst is closed. Each address (an IPv6 one by its /64)
 * has a budget over its sockets, so opening many does not multiply it; each socket reads within
 * its own share of it whatever the others spent (src/rate/address_share.ts), so one socket
 * flooding from an address shared by many players does not silence the others. A socket is
 * closed only for its own input. A frame costs at least MIN_FRAME_COST, so many small frames are
 * not cheaper than a few large ones.
 */
import { RateBudget, type RateBudgets, type RateShape } from "../../rate/budget.ts";
import { AddressShare, shareShape } from "../../rate/address_share.ts";
import { addressGroup } from "../../net/client_address.ts";

/** Bytes a second one socket may send after its burst: far above typing or a paced paste. */
export const WS_INPUT_BYTES_PER_SECOND = 64 * 1024;
/** The same for all the sockets of one address together. */
export const WS_INPUT_BYTES_PER_SECOND_PER_IP = 1024 * 1024;
/** Seconds of the rate a socket may send at once (a paste, the lines handed back after a restart). */
const BURST_SECONDS = 4;
/** Seconds of debt past which a socket is closed: it sent another whole burst over its budget. */
const CLOSE_AFTER_SECONDS = BURST_SECONDS;

/**
 * Bytes a frame costs at the least, however small: reading, dispatching and parsing a frame costs
 * the hub far more than its bytes, so frames of two bytes (`x` and a newline) under the byte rate,
 * 22,000 a second from one socket, held another player's `think` 0.65 s, and 32,000 a second from
 * twelve sockets of one address, 5 s (session 56's review). At this floor a socket sends at most 64
 * frames a second (256 at once) and an address 1,024: above 10 commands and 20 keepalives a second.
 */
export const MIN_FRAME_COST = 1024;

/**
 * What to do with a frame: read it, drop it unparsed (`tell`: and tell the client, the first
 * drop in a burst's time), or close the socket.
 */
export type Admission = "read" | "drop" | "tell" | "close";

function shapeOf(perSecond: number): RateShape {
  return { capacity: perSecond * BURST_SECONDS, windowMs: BURST_SECONDS * 1000 };
}

const OWN = shapeOf(WS_INPUT_BYTES_PER_SECOND);
const ADDRESS = shapeOf(WS_INPUT_BYTES_PER_SECOND_PER_IP);
/** A socket's own share of its address's budget (8 frames a second at the floor). */
const SHARE = shareShape(BURST_SECONDS);
/** Ms between two times a socket whose frames are dropped is told so. */
const TELL_EVERY_MS = BURST_SECONDS * 1000;

/** One socket's input budget and its draw on its address's, shared with the address's sockets. */
export class WsInput {
  readonly #own: RateBudget;
  readonly #address: AddressShare;
  readonly #now: () => number;
  /** When the client was last told its frames were dropped. */
  #toldAt = -Infinity;

  /** `byAddress`: the carrier's budgets by address; `ip`: this socket's peer. */
  constructor(byAddress: RateBudgets, ip: string, now: () => number = Date.now) {
    this.#own = new RateBudget(OWN, now);
    this.#address = new AddressShare(byAddress, addressGroup(ip), ADDRESS, SHARE, now);
    this.#now = now;
  }

  /** Counts a frame of `bytes`: read it, drop it unparsed (telling the client), or close. */
  admit(bytes: number): Admission {
    const cost = bytes > MIN_FRAME_COST ? bytes : MIN_FRAME_COST;
    const own = this.#own.spend(cost);
    if (own > CLOSE_AFTER_SECONDS * 1000) return "close";
    // A frame over the socket's own budget is not read, so it costs its address nothing.
    if (own === 0 && this.#address.spend(cost) === 0) return "read";
    const now = this.#now();
    if (now - this.#toldAt < TELL_EVERY_MS) return "drop";
    this.#toldAt = now;
    return "tell";
  }
}

/** A frame's size as the budget counts it (UTF-16 units of text stand in for bytes). */
export function frameBytes(data: unknown): number {
  if (typeof data === "string") return data.length;
  return data instanceof ArrayBuffer ? data.byteLength : 0;
}
