/** MSSP status tables: `IAC SB MSSP (VAR name (VAL value)+)* IAC SE`. */

import { concatBytes, subnegotiationBytes } from "./bytes.ts";
import { MSSP, MSSP_VAL, MSSP_VAR } from "./constants.ts";

/** An MSSP table: variable name to one value or several (e.g. `PORT`, `CODEBASE`). */
export type MsspTable = Record<string, string | string[]>;

// NUL, VAR and VAL would break the framing, so they are stripped; UTF-8 never holds 0xFF (IAC).
function clean(text: string): Uint8Array {
  return new TextEncoder().encode(text).filter((b) => b > MSSP_VAL);
}

/** Encodes a table; variables with no values are left out. */
export function encodeMssp(table: MsspTable): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const [name, value] of Object.entries(table)) {
    const values = Array.isArray(value) ? value : [value];
    const key = clean(name);
    if (values.length === 0 || key.length === 0) continue;
    parts.push(Uint8Array.of(MSSP_VAR), key);
    for (const v of values) parts.push(Uint8Array.of(MSSP_VAL), clean(String(v)));
  }
  return subnegotiationBytes(MSSP, concatBytes(parts));
}

/** Decodes an MSSP payload (without IAC SB MSSP / IAC SE); repeated values become arrays. */
export function decodeMssp(payload: Uint8Array): MsspTable {
  const dec = new TextDecoder("utf-8", { fatal: false });
  // A Map, so a hostile name such as "__proto__" stays an ordinary key.
  const table = new Map<string, string | string[]>();
  let name: string | null = null;
  let i = 0;
  while (i < payload.length) {
    const marker = payload[i++];
    let end = i;
    while (end < payload.length && payload[end] !== MSSP_VAR && payload[end] !== MSSP_VAL) end++;
    const text = dec.decode(payload.subarray(i, end));
    i = end;
    if (marker === MSSP_VAR) {
      name = text;
    } else if (marker === MSSP_VAL && name !== null) {
      const prev = table.get(name);
      table.set(name, prev === undefined ? text : [...(Array.isArray(prev) ? prev : [prev]), text]);
    }
  }
  return Object.fromEntries(table);
}
