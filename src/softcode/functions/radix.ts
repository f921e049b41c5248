/** Numbers in other bases: baseconv() (PennMUSH's symbols), pack() and unpack() (MUX's). */
import { define } from "./define.ts";
import type { FunctionDef } from "../types.ts";
import { i64, isInteger, toI64, toInt32, truthy } from "../numbers.ts";

/** MUX's radix-64 symbols (Myrddin's BBS codes; valid in attribute names). */
const MUX64 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz@$";
/** PennMUSH's symbols up to base 36. */
const PENN36 = "0123456789abcdefghijklmnopqrstuvwxyz";
/** PennMUSH's symbols above base 36 (base64url). */
const PENN64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

const BAD_NUMBER = "#-1 NUMBER IS NOT VALID FOR INPUT RADIX";
const NEGATIVE = "#-1 NEGATIVE NUMBER IS NOT REPRESENTABLE IN OUTPUT RADIX";

function isSpace(c: string): boolean {
  return c === " " || (c >= "\t" && c <= "\r");
}

/**
 * A number written in `from` (2–64) as a 64-bit integer, or null when a character is not one of
 * the base's symbols. Penn's symbols (baseconv, or pack/unpack asked for them) take no sign in
 * bases 63 and 64, and read `+` and `/` as 62 and 63 in base 64.
 */
function unpackNumber(text: string, from: number, to: number, penn: boolean): bigint | null {
  if (from === 10) return toI64(text);
  let symbols = MUX64;
  let signed = true;
  let plusSlash = false;
  if (penn) {
    signed = from < 63 && to < 63;
    symbols = from <= 36 ? PENN36 : PENN64;
    plusSlash = from === 64;
  }
  const value = (c: string): number => {
    const at = symbols.indexOf(c);
    if (at >= 0 && at < from) return at;
    if (plusSlash && c === "+") return 62;
    if (plusSlash && c === "/") return 63;
    return -1;
  };
  let i = 0;
  while (i < text.length && isSpace(text[i])) i++;
  let negative = false;
  if (signed && (text[i] === "-" || text[i] === "+")) {
    negative = text[i] === "-";
    i++;
  }
  let end = i;
  while (end < text.length && !isSpace(text[end])) {
    if (value(text[end]) < 0) return null;
    end++;
  }
  for (let k = end; k < text.length; k++) if (!isSpace(text[k])) return null;
  let v = 0n;
  const radix = BigInt(from);
  for (let k = i; k < end; k++) v = BigInt.asIntN(64, v * radix + BigInt(value(text[k])));
  return negative ? BigInt.asIntN(64, -v) : v;
}

/** A 64-bit integer written in `to` (2–64). */
function packNumber(v: bigint, to: number, penn: boolean): string {
  if (to === 10) return i64(v);
  if (v < 0n && to >= 63) return NEGATIVE;
  const symbols = penn ? (to <= 36 ? PENN36 : PENN64) : MUX64;
  const negative = v < 0n;
  // The lowest 64-bit number has no positive twin: work on its magnitude unbounded.
  let m = negative ? -v : v;
  const radix = BigInt(to);
  let out = "";
  do {
    out = symbols[Number(m % radix)] + out;
    m /= radix;
  } while (m > 0n);
  return negative ? "-" + out : out;
}

const RADIX = "#-1 RADIX MUST BE A NUMBER BETWEEN 2 and 64";

/** The base-conversion family. */
export const radixFunctions: FunctionDef[] = [
  define("baseconv", 3, 3, {
    family: "arithmetic",
    args: "baseconv(<number>, <from base>, <to base>)",
    summary: "The number converted between bases 2 to 64 (PennMUSH's symbols).",
    example: { think: "baseconv(255,10,16)", gives: "ff" },
  }, (_ev, _f, args) => {
    if (!isInteger(args[1]) || !isInteger(args[2])) return "#-1 ARGUMENTS MUST BE NUMBERS";
    const from = toInt32(args[1]);
    if (from < 2 || from > 64) return "#-1 INPUT RADIX MUST BE A NUMBER BETWEEN 2 and 64";
    const to = toInt32(args[2]);
    if (to < 2 || to > 64) return "#-1 OUTPUT RADIX MUST BE A NUMBER BETWEEN 2 and 64";
    const v = unpackNumber(args[0], from, to, true);
    return v === null ? BAD_NUMBER : packNumber(v, to, true);
  }),
  define("pack", 1, 3, {
    family: "arithmetic",
    args: "pack(<integer>[, <radix>[, <symbols>]])",
    summary: "The integer written in a radix up to 64 (MUX's symbols; 64 by default).",
    example: { think: "pack(255,16)", gives: "FF" },
  }, (_ev, _f, args) => {
    if (!isInteger(args[0]) || (args.length > 1 && !isInteger(args[1]))) {
      return "#-1 ARGUMENTS MUST BE NUMBERS";
    }
    const radix = args.length > 1 ? toInt32(args[1]) : 64;
    if (radix < 2 || radix > 64) return RADIX;
    return packNumber(toI64(args[0]), radix, args.length > 2 && truthy(args[2]));
  }),
  define("unpack", 1, 3, {
    family: "arithmetic",
    args: "unpack(<text>[, <radix>[, <symbols>]])",
    summary: "A number written by pack() back to an integer.",
    example: { think: "unpack(FF,16)", gives: "255" },
  }, (_ev, _f, args) => {
    let radix = 64;
    if (args.length > 1) {
      if (!isInteger(args[1])) return RADIX;
      radix = toInt32(args[1]);
      if (radix < 2 || radix > 64) return RADIX;
    }
    const v = unpackNumber(args[0], radix, 10, args.length > 2 && truthy(args[2]));
    return v === null ? BAD_NUMBER : i64(v);
  }),
];
