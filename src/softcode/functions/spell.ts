/** Numbers in words and in Roman numerals: spellnum() and roman(), as TinyMUX 2.12 writes them. */
import { define } from "./define.ts";
import type { FunctionDef } from "../types.ts";

const ONES = [
  "zero",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen",
];
const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
const GROUPS = ["", "thousand", "million", "billion", "trillion"];
/** The fraction's denominator by its number of digits (one to fourteen), singular. */
const PLACE_NAMES = [
  "tenth",
  "hundredth",
  "thousandth",
  "ten-thousandth",
  "hundred-thousandth",
  "millionth",
  "ten-millionth",
  "hundred-millionth",
  "billionth",
  "ten-billionth",
  "hundred-billionth",
  "trillionth",
  "ten-trillionth",
  "hundred-trillionth",
];

/** Most digits either side of the point. */
const MAX_WHOLE = 15;
const MAX_FRACTION = PLACE_NAMES.length;

/** 0-999 in words ("" for 0). */
function under1000(n: number): string {
  const out: string[] = [];
  if (n >= 100) out.push(ONES[Math.floor(n / 100)], "hundred");
  n %= 100;
  if (n >= 20) out.push(TENS[Math.floor(n / 10)] + (n % 10 ? "-" + ONES[n % 10] : ""));
  else if (n > 0) out.push(ONES[n]);
  return out.join(" ");
}

/** A whole number (as digits) in words; 1100-9999 as MUX says them ("twelve hundred"). */
export function wholeInWords(digits: string): string {
  const n = Number(digits);
  if (n === 0) return "zero";
  if (n >= 1100 && n < 10000 && Math.floor(n / 100) % 10 !== 0) {
    const rest = under1000(n % 100);
    return `${under1000(Math.floor(n / 100))} hundred${rest ? " " + rest : ""}`;
  }
  const parts: string[] = [];
  // Groups of three digits from the right, read as strings so 15 digits stay exact.
  const padded = digits.padStart(Math.ceil(digits.length / 3) * 3, "0");
  const groups = padded.length / 3;
  for (let g = 0; g < groups; g++) {
    const v = Number(padded.slice(g * 3, g * 3 + 3));
    if (!v) continue;
    const name = GROUPS[groups - 1 - g];
    parts.push(under1000(v) + (name ? " " + name : ""));
  }
  return parts.join(" ");
}

/** spellnum(): a decimal number in words, or MUX's error. */
export function spellnum(text: string): string {
  const m = /^\s*(-?)(\d*)(?:\.(\d*))?\s*$/.exec(text);
  const bad = "#-1 ARGUMENT MUST BE A NUMBER";
  if (!m) return bad;
  const whole = m[2].replace(/^0+(?=\d)/, "");
  const frac = m[3] ?? "";
  if (whole.length > MAX_WHOLE || frac.length > MAX_FRACTION) return bad;
  const sign = m[1] ? "negative " : "";
  const wholeWords = wholeInWords(whole || "0");
  const numerator = frac.replace(/^0+/, "");
  // A fraction of zeros says nothing (MUX 2.12 writes "one hundred and tenths" for 100.0).
  if (!numerator) return sign + wholeWords;
  const fracWords = wholeInWords(numerator) + " " + PLACE_NAMES[frac.length - 1] +
    (numerator === "1" ? "" : "s");
  return sign + (whole && Number(whole) ? `${wholeWords} and ${fracWords}` : fracWords);
}

const ROMAN: readonly [number, string][] = [
  [1000, "M"],
  [900, "CM"],
  [500, "D"],
  [400, "CD"],
  [100, "C"],
  [90, "XC"],
  [50, "L"],
  [40, "XL"],
  [10, "X"],
  [9, "IX"],
  [5, "V"],
  [4, "IV"],
  [1, "I"],
];

/** Numbers written out. */
export const spellFunctions: FunctionDef[] = [
  define("spellnum", 1, 1, {
    family: "formatting",
    args: "spellnum(<number>)",
    summary: "The number in words (up to 15 digits, and a fraction of up to 14).",
    example: {
      think: "spellnum(-1234.5)",
      gives: "negative twelve hundred thirty-four and five tenths",
    },
  }, (_ev, _f, args) => spellnum(args[0])),
  define("roman", 1, 1, {
    family: "formatting",
    args: "roman(<number>)",
    summary: "The number (1 to 3999) in Roman numerals.",
    example: { think: "roman(1999)", gives: "MCMXCIX" },
  }, (_ev, _f, args) => {
    const t = args[0].trim();
    if (!/^\d+$/.test(t) || Number(t) < 1) return "#-1 ARGUMENT MUST BE A POSITIVE NUMBER";
    let n = Number(t);
    if (n > 3999) return "#-1 OUT OF RANGE";
    let out = "";
    for (const [v, s] of ROMAN) {
      while (n >= v) {
        out += s;
        n -= v;
      }
    }
    return out;
  }),
];
