/** Small byte helpers shared by the telnet encoders. */

import { IAC, SB, SE, type Verb, verbByte } from "./constants.ts";

/** Joins byte arrays into one (returns the only part itself when there is just one). */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  let total = 0;
  for (const p of parts) total += p.length;
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Doubles every 0xFF so the bytes travel as data, not as a command. */
export function escapeIac(bytes: Uint8Array): Uint8Array {
  let count = 0;
  for (let i = bytes.indexOf(IAC); i !== -1; i = bytes.indexOf(IAC, i + 1)) count++;
  if (count === 0) return bytes;
  const out = new Uint8Array(bytes.length + count);
  let at = 0;
  for (const b of bytes) {
    out[at++] = b;
    if (b === IAC) out[at++] = IAC;
  }
  return out;
}

/** `IAC <verb> <option>`. */
export function negotiationBytes(verb: Verb, option: number): Uint8Array {
  return Uint8Array.of(IAC, verbByte(verb), option);
}

/** `IAC SB <option> <payload, IAC doubled> IAC SE`. */
export function subnegotiationBytes(option: number, payload: Uint8Array): Uint8Array {
  const body = escapeIac(payload);
  const out = new Uint8Array(body.length + 5);
  out[0] = IAC;
  out[1] = SB;
  out[2] = option;
  out.set(body, 3);
  out[body.length + 3] = IAC;
  out[body.length + 4] = SE;
  return out;
}
