/** Checksums and ciphers: crc32(), sha1(), digest(), encrypt(), decrypt(). */
import { createHash, getHashes } from "node:crypto";
import { define } from "./define.ts";
import type { FunctionDef } from "../types.ts";
import { stripMarkup } from "../markup.ts";

/** The CRC-32 table (IEEE 802.3 polynomial, reflected). */
const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

const encoder = new TextEncoder();

/** CRC-32 of the UTF-8 bytes of each text in turn (MUX's crc32() of several arguments). */
function crc32(texts: string[]): number {
  let c = 0xffffffff;
  for (const t of texts) {
    for (const b of encoder.encode(stripMarkup(t))) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  }
  return (c ^ 0xffffffff) >>> 0;
}

/** The digests offered: what the runtime has, by lower-case name. */
let hashes: Set<string> | null = null;

function hasHash(name: string): boolean {
  hashes ??= new Set(getHashes().map((h) => h.toLowerCase()));
  return hashes.has(name);
}

/** A digest of the texts' UTF-8 bytes in upper-case hex, as MUX prints it. */
function hexDigest(algorithm: string, texts: string[]): string {
  const h = createHash(algorithm);
  for (const t of texts) h.update(stripMarkup(t));
  return h.digest("hex").toUpperCase();
}

/** Printable ASCII, the alphabet encrypt() works in. */
const FIRST = 0x20;
const SPAN = 0x7e - 0x20 + 1;

/**
 * MUX's encrypt() and decrypt() (from DarkZone): each printable character of the text is
 * shifted by the next printable character of the key, round the 95 printable characters;
 * anything else (colour, non-ASCII) is dropped.
 */
function crypt(text: string, key: string, encrypt: boolean): string {
  if (text === "") return "";
  const codes: number[] = [];
  for (const ch of stripMarkup(key)) {
    const c = ch.charCodeAt(0);
    if (ch.length === 1 && c >= FIRST && c <= 0x7e) codes.push(c - FIRST);
  }
  if (!codes.length) return text;
  let out = "";
  let k = 0;
  for (const ch of stripMarkup(text)) {
    const c = ch.charCodeAt(0);
    if (ch.length !== 1 || c < FIRST || c > 0x7e) continue;
    let v = c - FIRST + (encrypt ? codes[k] : -codes[k]);
    if (v >= SPAN) v -= SPAN;
    if (v < 0) v += SPAN;
    out += String.fromCharCode(v + FIRST);
    k = (k + 1) % codes.length;
  }
  return out;
}

/** The checksum and cipher family. */
export const digestFunctions: FunctionDef[] = [
  define("crc32", 0, 100, {
    family: "crypto",
    args: "crc32(<text>[, <text>...])",
    summary: "The CRC-32 checksum of the texts, as an unsigned number.",
    example: { think: "crc32(hello)", gives: "907060870" },
  }, (_ev, _f, args) => String(crc32(args))),
  define(
    "sha1",
    0,
    1,
    {
      family: "crypto",
      args: "sha1(<text>)",
      summary: "The SHA-1 digest of the text, in hexadecimal.",
      example: { think: "sha1(abc)", gives: "A9993E364706816ABA3E25717850C26C9CD0D89D" },
    },
    (_ev, _f, args) => hexDigest("sha1", args),
    { parse: 1 },
  ),
  define("digest", 1, 2, {
    family: "crypto",
    args: "digest(<algorithm>, <text>)",
    summary: "The text's digest by the algorithm (md5, sha1, sha256, sha512...), in hexadecimal.",
    example: { think: "digest(md5,abc)", gives: "900150983CD24FB0D6963F7D28E17F72" },
  }, (_ev, _f, args) => {
    const algorithm = args[0].toLowerCase();
    if (!/^[a-z0-9-]+$/.test(algorithm) || !hasHash(algorithm)) {
      return "#-1 UNSUPPORTED DIGEST TYPE";
    }
    return hexDigest(algorithm, args.slice(1));
  }, { parse: 2 }),
  define("encrypt", 2, 2, {
    family: "crypto",
    args: "encrypt(<text>, <password>)",
    summary:
      "The text enciphered with the password (decrypt() with the same password gives it back).",
    example: { think: "decrypt(encrypt(secret,pw),pw)", gives: "secret" },
  }, (_ev, _f, args) => crypt(args[0], args[1], true)),
  define("decrypt", 2, 2, {
    family: "crypto",
    args: "decrypt(<text>, <password>)",
    summary: "A text enciphered by encrypt() with the password, back as it was.",
    example: { think: "decrypt(encrypt(secret,pw),pw)", gives: "secret" },
  }, (_ev, _f, args) => crypt(args[0], args[1], false)),
];
