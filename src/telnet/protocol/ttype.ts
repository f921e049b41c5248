/** TTYPE (RFC 1091) and MTTS: what client and terminal the player uses. */

import { subnegotiationBytes } from "./bytes.ts";
import { TTYPE, TTYPE_IS, TTYPE_SEND } from "./constants.ts";

/** Longest terminal type name kept, in characters. */
export const MAX_TTYPE_NAME = 64;

/** `IAC SB TTYPE SEND IAC SE`: asks for the next terminal type in the client's list. */
export function ttypeSend(): Uint8Array {
  return subnegotiationBytes(TTYPE, Uint8Array.of(TTYPE_SEND));
}

/** Encodes `IAC SB TTYPE IS <name> IAC SE`, as a client would send it. */
export function encodeTtypeIs(name: string): Uint8Array {
  const body = new TextEncoder().encode(name);
  const payload = new Uint8Array(body.length + 1);
  payload[0] = TTYPE_IS;
  payload.set(body, 1);
  return subnegotiationBytes(TTYPE, payload);
}

/**
 * Decodes `IS <name>`; null for anything else. The name is printable ASCII only (RFC 1091 names
 * are ASCII), trimmed and capped, because clients show up in logs and `who` lists.
 */
export function decodeTtype(data: Uint8Array): string | null {
  if (data.length < 2 || data[0] !== TTYPE_IS) return null;
  let name = "";
  for (let i = 1; i < data.length && name.length < MAX_TTYPE_NAME; i++) {
    const b = data[i];
    if (b >= 0x20 && b < 0x7f) name += String.fromCharCode(b);
  }
  name = name.trim();
  return name === "" ? null : name;
}

/** The MTTS bit field from a third-round name such as `MTTS 2825`, else null. */
export function parseMtts(name: string): number | null {
  const m = /^MTTS (\d{1,9})$/i.exec(name);
  return m === null ? null : Number(m[1]);
}

/** MTTS bits (https://tintin.mudhalla.net/protocols/mtts/). */
export const MTTS = {
  /** Client supports ANSI colour. */
  ANSI: 1,
  /** Client supports VT100 codes. */
  VT100: 2,
  /** Client uses UTF-8. */
  UTF8: 4,
  /** Client supports 256 colours. */
  COLORS_256: 8,
  /** Client supports mouse tracking. */
  MOUSE_TRACKING: 16,
  /** Client supports OSC colour palette. */
  OSC_COLOR_PALETTE: 32,
  /** Client is a screen reader. */
  SCREEN_READER: 64,
  /** Client is a proxy. */
  PROXY: 128,
  /** Client supports 24-bit colour. */
  TRUECOLOR: 256,
  /** Client supports MNES. */
  MNES: 512,
  /** Client supports MSLP. */
  MSLP: 1024,
  /** Client supports TLS. */
  SSL: 2048,
} as const;
