/** CHARSET (RFC 2066): agreeing on UTF-8. */

import { subnegotiationBytes } from "./bytes.ts";
import {
  CHARSET,
  CHARSET_ACCEPTED,
  CHARSET_REJECTED,
  CHARSET_REQUEST,
  CHARSET_TTABLE_IS,
  CHARSET_TTABLE_REJECTED,
} from "./constants.ts";

/** A decoded CHARSET subnegotiation. */
export type CharsetMessage =
  /** The peer offers these character sets. */
  | { kind: "request"; names: string[] }
  /** The peer accepted one of ours. */
  | { kind: "accepted"; name: string }
  /** The peer accepted none of ours. */
  | { kind: "rejected" }
  /** The peer sent a translation table, which we never use. */
  | { kind: "ttable" };

/** Most names read from one request; a longer list is cut. */
const MAX_NAMES = 32;
/** Longest character set name kept, in characters. */
const MAX_NAME = 40;
const TTABLE_MARK = "[TTABLE]";

const latin1 = (bytes: Uint8Array) => String.fromCharCode(...bytes.subarray(0, 4096));

/** `IAC SB CHARSET REQUEST ;<name>;<name> IAC SE`. */
export function charsetRequest(names: readonly string[]): Uint8Array {
  return subnegotiationBytes(
    CHARSET,
    Uint8Array.of(CHARSET_REQUEST, ...new TextEncoder().encode(`;${names.join(";")}`)),
  );
}

/** `IAC SB CHARSET ACCEPTED <name> IAC SE`. */
export function charsetAccepted(name: string): Uint8Array {
  return subnegotiationBytes(
    CHARSET,
    Uint8Array.of(CHARSET_ACCEPTED, ...new TextEncoder().encode(name)),
  );
}

/** `IAC SB CHARSET REJECTED IAC SE`. */
export function charsetRejected(): Uint8Array {
  return subnegotiationBytes(CHARSET, Uint8Array.of(CHARSET_REJECTED));
}

/** `IAC SB CHARSET TTABLE-REJECTED IAC SE`. */
export function charsetTtableRejected(): Uint8Array {
  return subnegotiationBytes(CHARSET, Uint8Array.of(CHARSET_TTABLE_REJECTED));
}

/** True for the spellings clients use for UTF-8. */
export function isUtf8(name: string): boolean {
  return /^utf-?8$/i.test(name.trim());
}

/** Decodes a CHARSET payload; null when it is empty or unknown. Never throws. */
export function decodeCharset(data: Uint8Array): CharsetMessage | null {
  if (data.length === 0) return null;
  switch (data[0]) {
    case CHARSET_REQUEST: {
      let text = latin1(data.subarray(1));
      // "[TTABLE]" and a version byte may precede the list; we never send tables, so skip it.
      if (text.startsWith(TTABLE_MARK)) text = text.slice(TTABLE_MARK.length + 1);
      if (text.length < 2) return { kind: "request", names: [] };
      const names = text.slice(1).split(text[0])
        .map((n) => n.trim().slice(0, MAX_NAME))
        .filter((n) => n !== "")
        .slice(0, MAX_NAMES);
      return { kind: "request", names };
    }
    case CHARSET_ACCEPTED:
      return { kind: "accepted", name: latin1(data.subarray(1)).trim().slice(0, MAX_NAME) };
    case CHARSET_REJECTED:
      return { kind: "rejected" };
    case CHARSET_TTABLE_IS:
      return { kind: "ttable" };
    default:
      return null;
  }
}
