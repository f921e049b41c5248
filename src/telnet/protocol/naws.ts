/** NAWS (RFC 1073): the client's window size. */

import { subnegotiationBytes } from "./bytes.ts";
import { NAWS } from "./constants.ts";

/** A window size in character cells; 0 means the client does not know. */
export interface WindowSize {
  /** Columns. */
  width: number;
  /** Rows. */
  height: number;
}

/** Decodes a NAWS payload (already IAC-unescaped): four bytes, two big-endian 16-bit numbers. */
export function decodeNaws(data: Uint8Array): WindowSize | null {
  if (data.length !== 4) return null;
  return { width: (data[0] << 8) | data[1], height: (data[2] << 8) | data[3] };
}

/** Encodes a NAWS report as a client would send it (0xFF doubled). */
export function encodeNaws(width: number, height: number): Uint8Array {
  const w = Math.max(0, Math.min(0xffff, Math.floor(width)));
  const h = Math.max(0, Math.min(0xffff, Math.floor(height)));
  return subnegotiationBytes(NAWS, Uint8Array.of(w >> 8, w & 0xff, h >> 8, h & 0xff));
}
