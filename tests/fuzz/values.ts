/**
 * Hostile values: strings (unicode, bidi, lone surrogates, control and MUSH codes, long
 * runs) and JSON texts (deep, wide, huge numbers, `__proto__`, wrong types, invalid UTF-8).
 * JSON is produced as text so that shapes `JSON.stringify` would refuse or normalise
 * (duplicate keys, lone surrogate escapes, 1e400) reach the server as written.
 */
import type { Rng } from "./rng.ts";

const WORDS = ["a", "me", "here", "home", "Limbo", "Public", "pub", "north", "x", "box", "#1", "*"];
const ODD = [
  "",
  " ",
  "\u0000",
  "\u0000abc",
  "\u001b[31mred\u001b[0m",
  "\u001b]0;title\u0007",
  "\r\n",
  "\t\t",
  "\u007f",
  "\u0085",
  "\u009b2J",
  "\u202e",
  "evil\u202etxt.exe",
  "\u2066\u2067\u2068\u2069",
  "\u200b\u200c\u200d\ufeff",
  "\ud800",
  "\udfff",
  "a\udc00b",
  "\ud83d",
  "👍🏽",
  "🏳️‍🌈",
  "e\u0301\u0301\u0301\u0301\u0301",
  "漢字かなカナ",
  "مرحبا",
  "\uffff\ufffe\ufffd",
  "%r",
  "%r%r%r%r",
  "%cr%ch%cn",
  "%x",
  "%%",
  "%",
  "[",
  "]",
  "\\",
  "\\u0000",
  "{",
  "}",
  "=",
  "/",
  ":",
  ";",
  "#",
  "#-1",
  "#0",
  "#99999999999",
  "-1",
  "0",
  "1e309",
  "NaN",
  "Infinity",
  "null",
  "undefined",
  "true",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "../../../etc/passwd",
  "..%2f..%2f",
  "%2e%2e",
  "%00",
  "%ZZ",
  "${7*7}",
  "{{7*7}}",
  "<script>alert(1)</script>",
  "'; DROP TABLE obj; --",
  "(a+)+$",
  ".*",
  "*",
  "?",
  "&",
  "+",
];

/** A short word-like string. */
export function word(rng: Rng): string {
  const n = rng.int(1, 12);
  let s = "";
  for (let i = 0; i < n; i++) s += String.fromCharCode(rng.int(97, 122));
  return s;
}

/** A player-name-like string (sometimes valid, often not). */
export function nameLike(rng: Rng): string {
  return rng.weighted([
    [4, () => "Fz" + word(rng)],
    [1, () => fuzzString(rng)],
    [1, () => rng.pick(WORDS)],
  ]);
}

/** One hostile string. */
export function fuzzString(rng: Rng): string {
  return rng.weighted<string>([
    [3, () => rng.pick(ODD)],
    [2, () => word(rng)],
    [2, () => rng.pick(WORDS)],
    [3, () => {
      const parts: string[] = [];
      const n = rng.int(2, 6);
      for (let i = 0; i < n; i++) parts.push(rng.chance(0.5) ? rng.pick(ODD) : word(rng));
      return parts.join(rng.pick(["", " ", "=", "/", "%r"]));
    }],
    [1, () => rng.pick(ODD).repeat(rng.pick([2, 10, 100, 1000]))],
    [1, () => "x".repeat(rng.pick([255, 256, 512, 513, 1024, 8000, 8192, 8193, 40_000]))],
    [1, () => bigText(rng)],
    [1, () => randomCodePoints(rng, rng.int(1, 40))],
  ]);
}

/**
 * A long run of one character near the documented limits (8,000 characters of description,
 * 32 KiB of state); a character outside Latin-1 doubles its stored size.
 */
export function bigText(rng: Rng): string {
  return rng.pick(["x", "é", "漢", "👍"]).repeat(
    rng.pick([2000, 4000, 7999, 8000, 16_000, 30_000]),
  );
}

/** Random code points from every plane, surrogates included. */
export function randomCodePoints(rng: Rng, n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) {
    const cp = rng.weighted<number>([
      [3, () => rng.int(0, 0x7f)],
      [2, () => rng.int(0x80, 0x7ff)],
      [2, () => rng.int(0x800, 0xffff)],
      [1, () => rng.int(0x10000, 0x10ffff)],
    ]);
    s += cp >= 0xd800 && cp <= 0xdfff ? String.fromCharCode(cp) : String.fromCodePoint(cp);
  }
  return s;
}

/** A JSON string literal, sometimes with escapes `JSON.stringify` never writes. */
export function jsonString(rng: Rng, s = fuzzString(rng)): string {
  if (rng.chance(0.15)) {
    return rng.pick(['"\\ud800"', '"\\udfff\\ud800"', '"\\u0000"', '"a\\/b"', '"\\u202e"']);
  }
  return JSON.stringify(s);
}

/** How deep nesting goes (3,000 levels is about 18 KB as an object chain). */
const DEPTHS = [16, 64, 200, 1000, 3000, 5000, 12_000];

/** A deeply nested JSON text: arrays, an object chain, or both mixed. */
export function deepJson(rng: Rng, depth = rng.pick(DEPTHS)): string {
  return rng.weighted<string>([
    [2, () => '{"a":'.repeat(depth) + "1" + "}".repeat(depth)],
    [1, () => "[".repeat(depth) + "]".repeat(depth)],
    [1, () => '{"a":['.repeat(depth >> 1) + "{}" + "]}".repeat(depth >> 1)],
  ]);
}

/** A JSON text of any type, hostile with some probability. */
export function jsonValue(rng: Rng, depth = 0): string {
  const scalar = () =>
    rng.weighted<string>([
      [2, () => jsonString(rng)],
      [1, () => rng.pick(["0", "-0", "1", "-1", "1.5", "1e400", "-1e400", "1e-400"])],
      [1, () => rng.pick(["9007199254740993", "123456789012345678901234567890", "0.1e1"])],
      [1, () => rng.pick(["true", "false", "null"])],
    ]);
  if (depth > 4) return scalar();
  return rng.weighted<string>([
    [6, scalar],
    [2, () => {
      const n = rng.int(0, 5);
      return "[" + Array.from({ length: n }, () => jsonValue(rng, depth + 1)).join(",") + "]";
    }],
    [3, () => jsonObject(rng, depth + 1)],
    [1, () => deepJson(rng)],
    [1, () => wideJson(rng)],
  ]);
}

/** An object text with random and hostile keys (duplicates, `__proto__`, empty, huge). */
export function jsonObject(rng: Rng, depth = 0): string {
  const n = rng.int(0, 6);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    const key = rng.weighted<string>([
      [3, () => JSON.stringify(word(rng))],
      [
        1,
        () =>
          JSON.stringify(rng.pick(["__proto__", "constructor", "prototype", "", "$where", "id"])),
      ],
      [1, () => jsonString(rng)],
    ]);
    parts.push(`${key}:${jsonValue(rng, depth + 1)}`);
  }
  return "{" + parts.join(",") + "}";
}

/** A wide JSON text: many keys or many elements. */
export function wideJson(rng: Rng): string {
  const n = rng.pick([100, 1000, 5000, 20_000]);
  if (rng.chance(0.5)) return "[" + Array.from({ length: n }, (_, i) => String(i)).join(",") + "]";
  return "{" + Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(",") + "}";
}

/** Byte sequences that are not valid UTF-8. */
export const INVALID_UTF8: readonly Uint8Array[] = [
  Uint8Array.of(0xff),
  Uint8Array.of(0xfe, 0xff),
  Uint8Array.of(0xc3),
  Uint8Array.of(0xc0, 0xaf),
  Uint8Array.of(0xe0, 0x80, 0xaf),
  Uint8Array.of(0xed, 0xa0, 0x80),
  Uint8Array.of(0xf4, 0x90, 0x80, 0x80),
  Uint8Array.of(0x80, 0x80),
  Uint8Array.of(0xf0, 0x9f, 0x98),
];

/** Byte-level mutations of a text: cuts, flips, invalid UTF-8, repeats. */
export function mutateBytes(rng: Rng, data: Uint8Array): Uint8Array {
  const out = [...data];
  const n = rng.int(1, 3);
  for (let i = 0; i < n; i++) {
    const at = rng.int(0, out.length);
    rng.weighted<void>([
      [2, () => out.splice(at, 0, ...rng.pick(INVALID_UTF8))],
      [2, () => out.splice(at)],
      [2, () => {
        if (out.length) out[Math.min(at, out.length - 1)] ^= 1 << rng.int(0, 7);
      }],
      [1, () => out.splice(at, 0, ...rng.bytes(rng.int(1, 16)))],
      [1, () => out.splice(at, rng.int(1, 8))],
      [1, () => out.splice(at, 0, 0)],
    ]);
  }
  return Uint8Array.from(out);
}
