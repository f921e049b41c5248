/**
 * The byte encoding Deno KV gives keys (an ordered tuple encoding): enough to turn a key
 * into the bytes list cursors are made of and back. The skipping of unreadable entries
 * (src/storage/unreadable.ts) needs it to name a key it has only seen as a range boundary.
 *
 * Part tags: 0x01 bytes, 0x02 string (both 0x00-terminated, a 0x00 inside escaped as
 * 0x00 0xFF), 0x0b..0x1d bigint (0x14 is zero, then the byte length above or below it),
 * 0x21 number (8 bytes, ordered), 0x26 false, 0x27 true.
 */

const BYTES = 0x01;
const STRING = 0x02;
const INT_ZERO = 0x14;
const NEG_INT_LONG = 0x0b;
const POS_INT_LONG = 0x1d;
const DOUBLE = 0x21;
const FALSE = 0x26;
const TRUE = 0x27;

function pushEscaped(out: number[], bytes: Uint8Array): void {
  for (const b of bytes) {
    out.push(b);
    if (b === 0) out.push(0xff);
  }
  out.push(0);
}

function bigintBytes(n: bigint): number[] {
  const out: number[] = [];
  while (n > 0n) {
    out.unshift(Number(n & 0xffn));
    n >>= 8n;
  }
  return out;
}

function pushBigint(out: number[], n: bigint): void {
  if (n === 0n) return void out.push(INT_ZERO);
  const mag = bigintBytes(n < 0n ? -n : n);
  if (n > 0n) {
    if (mag.length <= 8) out.push(INT_ZERO + mag.length, ...mag);
    else out.push(POS_INT_LONG, mag.length, ...mag);
    return;
  }
  const inv = mag.map((b) => b ^ 0xff);
  if (mag.length <= 8) out.push(INT_ZERO - mag.length, ...inv);
  else out.push(NEG_INT_LONG, mag.length ^ 0xff, ...inv);
}

function pushDouble(out: number[], n: number): void {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setFloat64(0, Number.isNaN(n) ? NaN : n);
  if (b[0] & 0x80) { for (let i = 0; i < 8; i++) b[i] ^= 0xff; }
  else b[0] ^= 0x80;
  out.push(DOUBLE, ...b);
}

/** The bytes Deno KV orders a key by. */
export function encodeKey(key: Deno.KvKey): Uint8Array {
  const out: number[] = [];
  for (const part of key) {
    if (part instanceof Uint8Array) {
      out.push(BYTES);
      pushEscaped(out, part);
    } else if (typeof part === "string") {
      out.push(STRING);
      pushEscaped(out, new TextEncoder().encode(part));
    } else if (typeof part === "bigint") pushBigint(out, part);
    else if (typeof part === "number") pushDouble(out, part);
    else if (typeof part === "boolean") out.push(part ? TRUE : FALSE);
    else throw new TypeError("not a KV key part");
  }
  return new Uint8Array(out);
}

/** Reads an escaped, 0x00-terminated run from `at`; returns the bytes and the next offset. */
function readEscaped(b: Uint8Array, at: number): [Uint8Array, number] | null {
  const out: number[] = [];
  for (let i = at; i < b.length; i++) {
    if (b[i] !== 0) {
      out.push(b[i]);
    } else if (b[i + 1] === 0xff) {
      out.push(0);
      i++;
    } else return [new Uint8Array(out), i + 1];
  }
  return null;
}

function readMagnitude(bytes: Uint8Array, invert: boolean): bigint {
  let n = 0n;
  for (const x of bytes) n = (n << 8n) | BigInt(invert ? x ^ 0xff : x);
  return n;
}

/** The key whose encoding is `b`, or null when `b` is not a whole encoded key. */
export function decodeKey(b: Uint8Array): Deno.KvKey | null {
  const key: Deno.KvKeyPart[] = [];
  let i = 0;
  while (i < b.length) {
    const tag = b[i++];
    if (tag === BYTES || tag === STRING) {
      const run = readEscaped(b, i);
      if (!run) return null;
      key.push(tag === BYTES ? run[0] : new TextDecoder("utf-8", { fatal: true }).decode(run[0]));
      i = run[1];
    } else if (tag === FALSE || tag === TRUE) {
      key.push(tag === TRUE);
    } else if (tag === DOUBLE) {
      if (i + 8 > b.length) return null;
      const d = b.slice(i, i + 8);
      if (d[0] & 0x80) d[0] ^= 0x80;
      else for (let j = 0; j < 8; j++) d[j] ^= 0xff;
      key.push(new DataView(d.buffer).getFloat64(0));
      i += 8;
    } else if (tag > NEG_INT_LONG && tag < POS_INT_LONG) {
      const len = Math.abs(tag - INT_ZERO);
      if (i + len > b.length) return null;
      const mag = readMagnitude(b.subarray(i, i + len), tag < INT_ZERO);
      key.push(tag < INT_ZERO ? -mag : mag);
      i += len;
    } else if (tag === NEG_INT_LONG || tag === POS_INT_LONG) {
      if (i >= b.length) return null;
      const len = tag === POS_INT_LONG ? b[i] : b[i] ^ 0xff;
      if (i + 1 + len > b.length) return null;
      const mag = readMagnitude(b.subarray(i + 1, i + 1 + len), tag === NEG_INT_LONG);
      key.push(tag === NEG_INT_LONG ? -mag : mag);
      i += 1 + len;
    } else return null;
  }
  return key;
}

/** Orders two byte strings the way KV orders keys. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/** URL-safe base64 with padding, the form of KV list cursors. */
export function toCursor(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_");
}

/** The bytes of a KV list cursor. */
export function fromCursor(cursor: string): Uint8Array {
  const b64 = cursor.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
  return Uint8Array.from(atob(b64 + "===".slice((b64.length + 3) % 4)), (c) => c.charCodeAt(0));
}

/** A readable form of a key for logs: `["obj","12"]`, bytes and bigints spelled out. */
export function keyText(key: Deno.KvKey): string {
  return JSON.stringify(
    key,
    (_k, v) =>
      typeof v === "bigint"
        ? `${v}n`
        : v instanceof Uint8Array
        ? `bytes(${[...v].map((x) => x.toString(16).padStart(2, "0")).join("")})`
        : v,
  );
}
