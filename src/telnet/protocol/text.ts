/** Outgoing text to telnet bytes. */

import { escapeIac } from "./bytes.ts";

/** Longest text encoded by the plain loop; longer text goes to the runtime's encoder. */
const SHORT_TEXT = 1024;

/**
 * Encodes text for the wire: line ends become CRLF (a lone CR becomes CR NUL, as RFC 854 asks),
 * the text is UTF-8, and any 0xFF is doubled.
 */
export function encodeText(text: string): Uint8Array {
  const plain = text.length <= SHORT_TEXT ? plainAscii(text, false) : null;
  if (plain !== null) return plain;
  const normalized = text.replace(/\r\n|\r|\n/g, (m) => m === "\r" ? "\r\0" : "\r\n");
  return escapeIac(new TextEncoder().encode(normalized));
}

/**
 * `text` as a line for the wire (`encodeText`), ending with a line break unless it has one: a
 * player's line is encoded with its CRLF in one go, not first joined to "\n" as a new string.
 */
export function encodeLine(text: string): Uint8Array {
  const ended = text.endsWith("\n");
  const plain = text.length <= SHORT_TEXT ? plainAscii(text, !ended) : null;
  return plain ?? encodeText(ended ? text : text + "\n");
}

/**
 * Most lines a player reads: ASCII with LF line ends. Encoded in one loop (each LF as CRLF, and
 * a CRLF after the text when `newline`), no regular expression and no call into the runtime;
 * null for anything else.
 */
function plainAscii(text: string, newline: boolean): Uint8Array | null {
  let lf = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80 || c === 13) return null;
    if (c === 10) lf++;
  }
  const out = new Uint8Array(text.length + lf + (newline ? 2 : 0));
  let j = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) out[j++] = 13;
    out[j++] = c;
  }
  if (newline) {
    out[j++] = 13;
    out[j] = 10;
  }
  return out;
}
