/** String functions: lengths, slices, padding, case, search and replace; colour kept. */
import { define, readsOnly } from "./define.ts";
import { type FunctionDef } from "../types.ts";
import {
  closeColour,
  endState,
  hasMarkup,
  isMarker,
  isSimple,
  letterMarker,
  NORMAL,
  parseRgb,
  rgbMarker,
  sliceVisible,
  stripMarkup,
  styled,
  styledChars,
  visibleLength,
  withoutIdleResets,
} from "../markup.ts";
import { bool, isInteger, toInt } from "../numbers.ts";
import { sepOf } from "../list.ts";

const MAX = 100;

/** Applies `fn` to the text between colour markers (markers stay as they are). */
export function mapText(s: string, fn: (t: string) => string): string {
  if (!hasMarkup(s)) return fn(s);
  let out = "";
  let i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (isMarker(c)) {
      const len = c >= 0xfdd3 ? 4 : 2;
      out += s.slice(i, i + len);
      i += len;
      continue;
    }
    let j = i + 1;
    while (j < s.length && !isMarker(s.charCodeAt(j))) j++;
    out += fn(s.slice(i, j));
    i = j;
  }
  return out;
}

/** Index in the plain text of each visible character (for colour-aware search). */
function plainAndMap(s: string): { plain: string; at: number[]; st: ReturnType<typeof styled> } {
  const st = styled(s);
  const at: number[] = [];
  let plain = "";
  for (let i = 0; i < st.chars.length; i++) {
    at.push(plain.length);
    plain += st.chars[i];
  }
  at.push(plain.length);
  return { plain, at, st };
}

/** The visible-character index of a UTF-16 offset of the plain text. */
function charIndex(at: number[], offset: number): number {
  let lo = 0, hi = at.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (at[mid] < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Replaces every `from` with `to` in `s` (colour of the rest kept). */
function editOnce(s: string, from: string, to: string): string {
  if (from === "^") return to + s;
  if (from === "$") return s + to;
  if (from === "") return s;
  const plainFrom = stripMarkup(from);
  const toMarked = hasMarkup(to);
  if (!hasMarkup(s) && !toMarked) return s.split(plainFrom).join(to);
  // As MUX 2.12: a replacement with colour of its own keeps it alone and the text's colour
  // resumes after it; one without takes the colour of what it replaces.
  const own = toMarked && hasColouredChar(to);
  const put = own ? NORMAL + to + NORMAL : toMarked ? stripMarkup(to) : to;
  const { plain, at, st } = plainAndMap(s);
  let out = "";
  let codes = "";
  let pos = 0;
  for (;;) {
    const hit = plain.indexOf(plainFrom, pos);
    if (hit < 0) break;
    const a = charIndex(at, pos), b = charIndex(at, hit);
    for (let i = a; i < b; i++) {
      out += st.codes[i] + st.chars[i];
      codes += st.codes[i];
    }
    pos = hit + plainFrom.length;
    // The colour codes of what is replaced still count for what follows.
    const c = charIndex(at, pos);
    let cut = "";
    for (let i = b; i < c; i++) cut += st.codes[i];
    // Kept as the colour in force, not every code since the start: read again at each hit,
    // those made an edit of n coloured hits O(n²).
    codes = endState(codes + cut);
    out += own ? put + codes : cut + put;
  }
  const a = charIndex(at, pos);
  for (let i = a; i < st.chars.length; i++) out += st.codes[i] + st.chars[i];
  return out + st.tail;
}

/** True when some visible character of the text is coloured. */
function hasColouredChar(s: string): boolean {
  const st = styled(s);
  let codes = "";
  for (const c of st.codes) {
    if (c === "") continue;
    codes = endState(codes + c);
    if (codes !== "") return true;
  }
  return false;
}

/** Visible characters of a text as an array (code points). */
function charsOf(s: string): string[] {
  return isSimple(s) ? s.split("") : styled(s).chars;
}

const SECURE = /[%$\\[\](){},;]/g;
const ESCAPED = /[%\\[\]{};,()^$]/;

/**
 * The string functions whose code reads only their arguments (FunctionDef.reads): a call hands
 * them an argument array its node reuses.
 */
const STRING_LEAVES = [
  "strlen",
  "mid",
  "right",
  "strtrunc",
  "delete",
  "repeat",
  "stripansi",
  "capstr",
  "lcstr",
  "ucstr",
  "trim",
  "squish",
  "edit",
  "before",
  "after",
  "pos",
  "lpos",
  "comp",
  "chr",
  "ord",
  "reverse",
];

/** The string family, before STRING_LEAVES are marked. */
const stringDefs: FunctionDef[] = [
  define(
    "strlen",
    0,
    1,
    {
      family: "strings",
      args: "strlen(<text>)",
      summary: "The number of characters (colour not counted).",
      example: { think: "strlen(hello)", gives: "5" },
    },
    (_ev, _f, args) => String(visibleLength(args[0] ?? "")),
    { parse: 1 },
  ),
  define("mid", 3, 3, {
    family: "strings",
    args: "mid(<text>, <first>, <length>)",
    summary: "length characters from position first (0 is the first).",
    example: { think: "mid(abcdef,2,3)", gives: "cde" },
  }, (_ev, _f, args) => {
    let start = toInt(args[1]);
    let n = toInt(args[2]);
    if (n < 0) {
      start += 1 + n;
      n = -n;
    }
    if (start < 0) {
      n += start;
      start = 0;
    }
    if (n <= 0 || start >= 8000) return "";
    return sliceVisible(args[0], start, start + n);
  }),
  define("right", 2, 2, {
    family: "strings",
    args: "right(<text>, <length>)",
    summary: "The last length characters.",
    example: { think: "right(abcdef,2)", gives: "ef" },
  }, (_ev, _f, args) => {
    const n = toInt(args[1]);
    if (n < 0) return "#-1 OUT OF RANGE";
    const len = visibleLength(args[0]);
    return sliceVisible(args[0], Math.max(0, len - n), len);
  }),
  define("strtrunc", 2, 2, {
    family: "strings",
    args: "strtrunc(<text>, <length>)",
    summary: "The first length characters.",
    example: { think: "strtrunc(abcdef,3)", gives: "abc" },
  }, (_ev, _f, args) => {
    const n = toInt(args[1]);
    if (n < 0) return "#-1 OUT OF RANGE";
    return sliceVisible(args[0], 0, n);
  }),
  define("delete", 3, 3, {
    family: "strings",
    args: "delete(<text>, <first>, <length>)",
    summary: "The text without length characters from position first (0 is the first).",
    example: { think: "delete(abcdef,1,2)", gives: "adef" },
  }, (_ev, _f, args) => {
    let start = toInt(args[1]);
    let n = toInt(args[2]);
    if (n < 0) {
      start += 1 + n;
      n = -n;
    }
    if (start < 0) {
      n += start;
      start = 0;
    }
    if (n <= 0 || start >= 8000) return args[0];
    const len = visibleLength(args[0]);
    return closeColour(sliceVisible(args[0], 0, start)) +
      sliceVisible(args[0], Math.min(len, start + n), len);
  }),
  define("space", 0, 1, {
    family: "strings",
    args: "space([<count>])",
    summary: "That many spaces (one by default).",
    example: { think: "a[space(3)]b", gives: "a   b" },
  }, (_ev, _f, args) => {
    if (!args.length || args[0] === "") return " ";
    let n = toInt(args[0]);
    if (n === 0 && !isInteger(args[0])) n = 1;
    return " ".repeat(Math.max(0, Math.min(n, 7999)));
  }),
  define("repeat", 2, 2, {
    family: "strings",
    args: "repeat(<text>, <count>)",
    summary: "The text repeated count times.",
    example: { think: "repeat(ab,3)", gives: "ababab" },
  }, (_ev, _f, args) => {
    const times = toInt(args[1]);
    const s = args[0];
    if (times < 1 || s === "") return "";
    if (times === 1) return s;
    if (s.length === 1) return s.repeat(Math.min(times, 7999));
    if (times > 7999 || s.length * times > 7999) return "#-1 STRING TOO LONG";
    return s.repeat(times);
  }),
  define("ansi", 2, MAX, {
    family: "strings",
    args: "ansi(<codes>, <text>[, <codes>, <text>...])",
    summary: "The text in colour.",
    example: { think: "ansi(hr,Warning)", gives: "Warning" },
    more:
      "Codes: x r g y b m c w (black, red, green, yellow, blue, magenta, cyan, white; upper case for the background), h highlight, u underline, f flash, i inverse, n normal, <#rrggbb> or <r g b> (a / before one for the background). The example shows Warning in bright red.",
  }, (_ev, _f, args) => {
    let out = "";
    for (let i = 0; i + 1 < args.length; i += 2) {
      // Colour in the codes is not read as codes (MUX reads the letters alone).
      const text = args[i + 1];
      // A reset with no colour before it is nothing in MUX's strings (see withoutIdleResets).
      out += closeColour(
        codesOf(stripMarkup(args[i])) + (hasMarkup(text) ? withoutIdleResets(text) : text),
      );
    }
    return out;
  }),
  define("stripansi", 1, 1, {
    family: "strings",
    args: "stripansi(<text>)",
    summary: "The text without its colour.",
    example: { think: "stripansi(ansi(r,red))", gives: "red" },
  }, (_ev, _f, args) => stripMarkup(args[0])),
  define("capstr", 1, 1, {
    family: "strings",
    args: "capstr(<text>)",
    summary: "The text with its first letter capitalised.",
    example: { think: "capstr(hello world)", gives: "Hello world" },
  }, (_ev, _f, args) => {
    const s = args[0];
    let done = false;
    return mapText(s, (t) => {
      if (done || !t) return t;
      done = true;
      const first = String.fromCodePoint(t.codePointAt(0)!);
      return upper(first) + t.slice(first.length);
    });
  }, { parse: 1 }),
  define(
    "lcstr",
    1,
    1,
    {
      family: "strings",
      args: "lcstr(<text>)",
      summary: "The text in lower case.",
      example: { think: "lcstr(HeLLo)", gives: "hello" },
    },
    (_ev, _f, args) => mapText(args[0], lower),
    { parse: 1 },
  ),
  define(
    "ucstr",
    1,
    1,
    {
      family: "strings",
      args: "ucstr(<text>)",
      summary: "The text in upper case.",
      example: { think: "ucstr(HeLLo)", gives: "HELLO" },
    },
    (_ev, _f, args) => mapText(args[0], upper),
    { parse: 1 },
  ),
  define(
    "lit",
    1,
    1,
    {
      family: "control",
      args: "lit(<text>)",
      summary: "The text exactly as written, not evaluated.",
      example: { think: "lit([add(1,2)])", gives: "[add(1,2)]" },
    },
    (_ev, _f, args) => args[0],
    { lazy: true, parse: 1, raw: true },
  ),
  define("null", 1, 1, {
    family: "control",
    args: "null(<text>)",
    summary: "Nothing: its argument is evaluated for its effects and the result dropped.",
    example: { think: "[null(setq(0,x))]%q0", gives: "x" },
  }, () => ""),
  define(
    "@@",
    1,
    1,
    {
      family: "control",
      args: "@@(<text>)",
      summary: "Nothing, and its argument is not even evaluated: a comment.",
      example: { think: "a[@@(a comment)]b", gives: "ab" },
    },
    () => "",
    { lazy: true, parse: 1 },
  ),
  define(
    "secure",
    1,
    1,
    {
      family: "strings",
      args: "secure(<text>)",
      summary:
        "The text with % $ \\ [ ] ( ) { } , and ; replaced by spaces, so it is safe to evaluate.",
      example: { think: "secure(a\\[b\\]c)", gives: "a b c" },
    },
    (_ev, _f, args) => mapText(args[0], (t) => t.replace(SECURE, " ")),
    {
      parse: 1,
    },
  ),
  define("escape", 1, 1, {
    family: "strings",
    args: "escape(<text>)",
    summary:
      "The text with a backslash before its first character and before each of % \\ [ ] { } ( ) , ; ^ $, so it is not evaluated.",
    example: { think: "escape(a\\[b\\])", gives: "\\a\\[b\\]" },
  }, (_ev, _f, args) => {
    const s = args[0];
    if (s === "") return "";
    let first = true;
    // Colour kept, as MUX keeps it.
    return mapText(s, (t) => {
      let out = "";
      for (const ch of t) {
        if (first || ESCAPED.test(ch)) out += "\\";
        first = false;
        out += ch;
      }
      return out;
    });
  }, { parse: 1 }),
  define("trim", 1, 3, {
    family: "strings",
    args: "trim(<text>[, <side>[, <characters>]])",
    summary:
      "The text without leading and trailing spaces (or characters); side is b (both, the default), l or r.",
    example: { think: "trim(--abc--,b,-)", gives: "abc" },
  }, (_ev, _f, args) => {
    const style = (args[1] ?? "b")[0]?.toLowerCase() ?? "b";
    const left = style !== "r", right = style !== "l";
    const what = args[2] ? stripMarkup(args[2]) : " ";
    const chars = charsOf(args[0]);
    let a = 0, b = chars.length;
    const wlen = charsOf(what).length || 1;
    const matches = (i: number) => chars.slice(i, i + wlen).join("") === what;
    if (left) { while (a + wlen <= b && matches(a)) a += wlen; }
    if (right) { while (b - wlen >= a && matches(b - wlen)) b -= wlen; }
    return sliceVisible(args[0], a, b);
  }),
  define("squish", 0, 2, {
    family: "strings",
    args: "squish(<text>[, <character>])",
    summary: "The text with each run of spaces (or the character) made one.",
    example: { think: "squish(a--b---c,-)", gives: "a-b-c" },
  }, (_ev, _f, args) => {
    if (!args.length) return "";
    const given = sepOf(args[1]);
    if (typeof given !== "string") return given.error;
    // MUX squishes runs of the delimiter's first character.
    const sep = [...given][0] ?? " ";
    const run = new RegExp(`(?:${escapeRe(sep)})+`, "g");
    return mapText(args[0], (t) => t.replace(run, sep));
  }),
  define("edit", 3, MAX, {
    family: "strings",
    args: "edit(<text>, <from>, <to>[, <from>, <to>...])",
    summary: "The text with every from replaced by to; ^ adds at the start and $ at the end.",
    example: { think: "edit(hello world,o,0)", gives: "hell0 w0rld" },
  }, (_ev, _f, args) => {
    let s = args[0];
    for (let i = 1; i + 1 < args.length; i += 2) s = editOnce(s, args[i], args[i + 1]);
    return s;
  }),
  define("before", 1, 2, {
    family: "strings",
    args: "before(<text>[, <search>])",
    summary:
      "The text before the first search (a space when not given); all of it when search is not there or empty.",
    example: { think: "before(user@example.com,@)", gives: "user" },
  }, (_ev, _f, args) => {
    const pat = args.length > 1 ? args[1] : " ";
    let s = args[0];
    if (pat === " ") s = s.replace(/^ +/, "").replace(/ +$/, "");
    // As MUX: an empty search is never found (before(a b,) is a b).
    if (pat === "") return s;
    const { plain, at } = plainAndMap(s);
    const hit = plain.indexOf(stripMarkup(pat));
    if (hit < 0) return s;
    return sliceVisible(s, 0, charIndex(at, hit));
  }),
  define("after", 1, 2, {
    family: "strings",
    args: "after(<text>[, <search>])",
    summary:
      "The text after the first search (a space when not given); nothing when search is not there or empty.",
    example: { think: "after(user@example.com,@)", gives: "example.com" },
  }, (_ev, _f, args) => {
    const pat = args.length > 1 ? args[1] : " ";
    let s = args[0];
    if (pat === " ") s = s.replace(/^ +/, "").replace(/ +$/, "");
    if (pat === "") return "";
    const p = stripMarkup(pat);
    const { plain, at } = plainAndMap(s);
    const hit = plain.indexOf(p);
    if (hit < 0) return "";
    return sliceVisible(s, charIndex(at, hit + p.length), at.length);
  }),
  define("pos", 2, 2, {
    family: "strings",
    args: "pos(<search>, <text>)",
    summary: "The position (from 1) of search in the text, or #-1.",
    example: { think: "pos(lo,hello)", gives: "4" },
  }, (_ev, _f, args) => {
    const want = stripMarkup(args[0]);
    if (want === "") return "#-1";
    const { plain, at } = plainAndMap(args[1]);
    const hit = plain.indexOf(want);
    return hit < 0 ? "#-1" : String(charIndex(at, hit) + 1);
  }),
  define("lpos", 2, 2, {
    family: "strings",
    args: "lpos(<text>, <character>)",
    summary: "The positions (from 0) of each occurrence of the character.",
    example: { think: "lpos(a-b-c,-)", gives: "1 3" },
  }, (_ev, _f, args) => {
    const chars = charsOf(args[0]);
    // As MUX 2.12: the whole search text is looked for, at every position (lpos(aaa,aa) is 0 1).
    const find = charsOf(stripMarkup(args[1]));
    if (!find.length) find.push(" ");
    // Knuth-Morris-Pratt: every (overlapping) match in one pass, so a long search text in a long
    // text costs their sum, not their product (8,000 x 4,000 was ~100 ms in one call).
    const back = new Int32Array(find.length);
    for (let i = 1, k = 0; i < find.length; i++) {
      while (k > 0 && find[i] !== find[k]) k = back[k - 1];
      if (find[i] === find[k]) k++;
      back[i] = k;
    }
    const out: number[] = [];
    for (let i = 0, k = 0; i < chars.length; i++) {
      while (k > 0 && chars[i] !== find[k]) k = back[k - 1];
      if (chars[i] === find[k]) k++;
      if (k === find.length) {
        out.push(i - k + 1);
        k = back[k - 1];
      }
    }
    return out.join(" ");
  }),
  define("index", 4, 4, {
    family: "strings",
    args: "index(<text>, <character>, <first>, <count>)",
    summary: "count items from item first of a text split at the character.",
    example: { think: "index(a|b|c|d,|,2,2)", gives: "b|c" },
  }, (_ev, _f, args) => {
    const c = args[1][0] ?? " ";
    let start = toInt(args[2]);
    let count = toInt(args[3]);
    const s = args[0];
    if (start < 1 || count < 1 || s === "") return "";
    let from = 0;
    while (--start > 0) {
      const at = s.indexOf(c, from);
      if (at < 0) return "";
      from = at + 1;
    }
    while (s[from] === " ") from++;
    if (from >= s.length) return "";
    let p = from;
    for (;;) {
      const at = s.indexOf(c, p);
      if (at < 0) return s.slice(from);
      if (--count === 0) return s.slice(from, at).replace(/ +$/, "");
      p = at + 1;
    }
  }),
  define("strcat", 0, MAX, {
    family: "strings",
    args: "strcat(<text>[, <text>...])",
    summary: "The texts joined together.",
    example: { think: "strcat(foo,bar)", gives: "foobar" },
  }, (_ev, _f, args) => args.join("")),
  define("comp", 2, 2, {
    family: "logic",
    args: "comp(<text1>, <text2>)",
    summary: "-1, 0 or 1 as the first text sorts before, the same as, or after the second.",
    example: { think: "comp(apple,banana)", gives: "-1" },
  }, (_ev, _f, args) => {
    const [a, b] = args;
    return a < b ? "-1" : bool(a !== b);
  }),
  define("chr", 1, 1, {
    family: "strings",
    args: "chr(<code>)",
    summary: "The character with that Unicode code point.",
    example: { think: "chr(65)", gives: "A" },
  }, (_ev, _f, args) => {
    if (!isInteger(args[0])) return "#-1 ARGUMENT MUST BE A NUMBER";
    const n = toInt(args[0]);
    if (n < 0x20 || (n >= 0x7f && n < 0xa0) || n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) {
      return "#-1 UNPRINTABLE CHARACTER";
    }
    // Unicode's noncharacters print nothing; U+FDD0-U+FDEF are the engine's own markers
    // (colour, iter()'s stand-ins: src/softcode/markup.ts, template.ts), which no text may forge.
    if ((n >= 0xfdd0 && n <= 0xfdef) || (n & 0xfffe) === 0xfffe) {
      return "#-1 UNPRINTABLE CHARACTER";
    }
    return String.fromCodePoint(n);
  }),
  define("ord", 1, 1, {
    family: "strings",
    args: "ord(<character>)",
    summary: "The Unicode code point of the character.",
    example: { think: "ord(A)", gives: "65" },
  }, (_ev, _f, args) => {
    const chars = charsOf(args[0]);
    if (chars.length !== 1) return "#-1 FUNCTION EXPECTS ONE CHARACTER";
    return String(chars[0].codePointAt(0));
  }),
  define(
    "reverse",
    1,
    1,
    {
      family: "strings",
      args: "reverse(<text>)",
      summary: "The text backwards.",
      example: { think: "reverse(hello)", gives: "olleh" },
    },
    (_ev, _f, args) => reverseText(args[0]),
    { parse: 1 },
  ),
  // MUX compares the text with its colour: a coloured text does not match a plain pattern.
  define("strmatch", 2, 2, {
    family: "strings",
    args: "strmatch(<text>, <pattern>)",
    summary:
      "1 when the text matches the wildcard pattern (* any run, ? one character), in any case.",
    example: { think: "strmatch(Hello,h*o)", gives: "1" },
  }, (ev, _f, args) => bool(ev.wild(args[1], args[0]))),
];

/** The string family. */
export const stringFunctions: FunctionDef[] = readsOnly(stringDefs, STRING_LEAVES, "args");

/**
 * Text in upper or lower case, one character for one (MUX maps each character alone:
 * `ucstr(ß)` stays `ß`, where full Unicode casing would give `SS`, and `lcstr(ΣΑΣ)` is `σασ`,
 * where the word-final sigma would be `ς`).
 */
function recase(t: string, up: boolean): string {
  const all = up ? t.toUpperCase() : t.toLowerCase();
  if (all.length === t.length && (up || !t.includes("\u03a3"))) return all;
  let out = "";
  for (const ch of t) {
    const c = up ? ch.toUpperCase() : ch.toLowerCase();
    out += c.length === ch.length ? c : ch;
  }
  return out;
}

function upper(t: string): string {
  return recase(t, true);
}

function lower(t: string): string {
  return recase(t, false);
}

/** A text backwards, each character keeping its colour. */
function reverseText(s: string): string {
  if (isSimple(s)) return s.split("").reverse().join("");
  return styledChars(styled(s)).reverse().join("");
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** MUX's ansi() codes as markers: letters, `<#RRGGBB>` and `<R G B>`, `/` before a background. */
export function codesOf(codes: string): string {
  let out = "";
  let bg = false;
  for (let i = 0; i < codes.length; i++) {
    const ch = codes[i];
    if (ch === "/") {
      bg = true;
      continue;
    }
    if (ch === "<") {
      const close = codes.indexOf(">", i + 1);
      if (close < 0) break;
      const rgb = parseRgb(codes.slice(i + 1, close));
      if (rgb) out += rgbMarker(rgb[0], rgb[1], rgb[2], bg);
      bg = false;
      i = close;
      continue;
    }
    out += letterMarker(ch);
  }
  return out;
}
