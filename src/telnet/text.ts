/** Outgoing text to telnet bytes. */

import { escapeIac } from "./bytes.ts";

/**
 * Encodes text for the wire: line ends become CRLF (a lone CR becomes CR NUL, as RFC 854 asks),
 * the text is UTF-8, and any 0xFF is doubled.
 */
export function encodeText(text: string): Uint8Array {
  const normalized = text.replace(/\r\n|\r|\n/g, (m) => m === "\r" ? "\r\0" : "\r\n");
  return escapeIac(new TextEncoder().encode(normalized));
}
