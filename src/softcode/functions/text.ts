/**
 * More string functions: articles, character maps (tr, merge, strip, accents), positions of
 * words, byte sizes, translate(), scramble(), and the evaluation counters (fdepth, fcount,
 * subeval, error). Colour is kept where MUX keeps it; characters are code points.
 */
import { define } from "./define.ts";
import { EV, EVAL_ARG, type FunctionDef } from "../types.ts";
import {
  hasMarkup,
  isMarker,
  isSimple,
  M_ATTR,
  PALETTE,
  stripMarkup,
  styled,
  styledChars,
} from "../markup.ts";
import { sepOf } from "../list.ts";
import { toInt } from "../numbers.ts";
import { HUH } from "../../commands/limits.ts";

/**
 * MUX's default article rules (its `article_rule` configuration), checked last first: the first
 * that matches the lower-cased word decides; none gives "a".
 */
const ARTICLE_RULES: readonly [RegExp, "a" | "an"][] = [
  [/^y[lt]/, "an"],
  [/^[aeiou][.-]/, "a"],
  [/^onc?e[- ]?/, "a"],
  [/^e[uw]/, "a"],
  [/^u[bcfhjkqrst][aeiou]/, "a"],
  [/^uni([acflopqtvx]|dim|dir|sex|son)/, "a"],
  [/^unanim(ous|ity)/, "a"],
  [/^un/, "an"],
  [/^ho(mag|nest|no|ur)/, "an"],
  [/^he(ir|rb)/, "an"],
  [/^[aeiou]/, "an"],
];

/** The article for a word. */
function article(word: string): string {
  const w = stripMarkup(word).toLowerCase();
  for (const [re, art] of ARTICLE_RULES) if (re.test(w)) return art;
  return "a";
}

/** Visible characters (code points) of a text. */
function chars(s: string): string[] {
  return isSimple(s) ? s.split("") : styled(s).chars;
}

/** A text with each character mapped (colour kept); `map` returns the replacement. */
function mapChars(s: string, map: (ch: string, i: number) => string): string {
  if (!hasMarkup(s)) {
    let out = "";
    let i = 0;
    for (const ch of s) out += map(ch, i++);
    return out;
  }
  const st = styled(s);
  let out = "";
  for (let i = 0; i < st.chars.length; i++) out += st.codes[i] + map(st.chars[i], i);
  return out + st.tail;
}

/** tr()'s ranges expanded: `a-z`, `A-Z`, `a-Z` (a to z, then A to Z) and `0-9`. */
function expandRanges(spec: string): string[] {
  const cs = chars(stripMarkup(spec));
  const isLower = (c: string) => c >= "a" && c <= "z";
  const isUpper = (c: string) => c >= "A" && c <= "Z";
  const isDigit = (c: string) => c >= "0" && c <= "9";
  const span = (from: number, to: number) => {
    const out: string[] = [];
    for (let c = from; c < to; c++) out.push(String.fromCharCode(c));
    return out;
  };
  for (let i = 1; i + 1 < cs.length; i++) {
    if (cs[i] !== "-") continue;
    const a = cs[i - 1], b = cs[i + 1];
    let fill: string[] | null = null;
    if ((isLower(a) && isLower(b)) || (isUpper(a) && isUpper(b)) || (isDigit(a) && isDigit(b))) {
      fill = span(a.charCodeAt(0) + 1, b.charCodeAt(0));
    } else if (isLower(a) && isUpper(b)) {
      fill = [...span(a.charCodeAt(0) + 1, 0x7b), ...span(0x41, b.charCodeAt(0))];
    }
    if (fill) {
      cs.splice(i, 1, ...fill);
      i += fill.length - 1;
    }
  }
  return cs;
}

/** Combining marks for accent()'s template characters. */
const COMBINING: Record<string, string> = {
  "`": "\u0300",
  "'": "\u0301",
  "^": "\u0302",
  "~": "\u0303",
  "-": "\u0304",
  "u": "\u0306",
  ".": "\u0307",
  ":": "\u0308",
  "o": "\u030A",
  '"': "\u030B",
  "v": "\u030C",
  ",": "\u0327",
};

/** accent()'s letters that are no composition: template character + letter. */
const SPECIAL: Record<string, string> = {
  "u?": "¿",
  "u!": "¡",
  '"<': "«",
  '">': "»",
  "Bs": "ß",
  "|P": "Þ",
  "|p": "þ",
  "-D": "Ð",
  "&o": "ð",
  "GN": "Ŋ",
  "gn": "ŋ",
  "qK": "ĸ",
  "/D": "Đ",
  "/d": "đ",
  "/H": "Ħ",
  "/h": "ħ",
  "/L": "Ł",
  "/l": "ł",
  "/O": "Ø",
  "/o": "ø",
};

/** Letters with a stroke, which have no decomposition, as stripaccents() plains them. */
const STROKED: Record<string, string> = {
  "Đ": "D",
  "đ": "d",
  "Ħ": "H",
  "ħ": "h",
  "Ł": "L",
  "ł": "l",
  "Ø": "O",
  "ø": "o",
  "Ð": "D",
  "ð": "o",
  "Þ": "P",
  "þ": "p",
  "ß": "s",
  "¿": "?",
  "¡": "!",
  "«": "<",
  "»": ">",
};

/** One character with an accent from the template, or as it is when none applies. */
function accented(ch: string, t: string): string {
  const special = SPECIAL[t + ch];
  if (special) return special;
  const mark = COMBINING[t];
  if (!mark) return ch;
  const composed = (ch + mark).normalize("NFC");
  return [...composed].length === 1 ? composed : ch;
}

const COMBINING_MARKS = /[\u0300-\u036f]/g;

/** A character without its accent. */
function plainLetter(ch: string): string {
  if (ch.charCodeAt(0) < 0x80) return ch;
  const s = STROKED[ch];
  if (s) return s;
  const d = ch.normalize("NFD").replace(COMBINING_MARKS, "");
  return d === "" ? ch : d;
}

const BG_LETTERS = "xrgybmcw";

/** The `%x` codes that take a text from one colour state (markers) to another. */
function transition(from: string, to: string): string {
  if (from === to) return "";
  const codes = (state: string) => {
    const out: string[] = [];
    for (let i = 0; i < state.length;) {
      const c = state.charCodeAt(i);
      const len = c >= 0xfdd3 ? 4 : 2;
      out.push(state.slice(i, i + len));
      i += len;
    }
    return out;
  };
  const a = codes(from), b = codes(to);
  // Anything turned off needs a reset first; otherwise only what is new is written.
  const reset = a.some((m) => !b.includes(m) && (m[0] === M_ATTR || !b.some((n) => n[0] === m[0])));
  const add = reset ? b : b.filter((m) => !a.includes(m));
  let out = reset ? "%xn" : "";
  for (const m of add) out += markerEscape(m);
  return out;
}

/** One marker as MUX's `%x` substitution. */
function markerEscape(m: string): string {
  const c = m.charCodeAt(0);
  if (c === 0xfdd0) return "%x" + m[1];
  if (c === 0xfdd1 || c === 0xfdd2) {
    const n = m.charCodeAt(1) - 0x100;
    const bg = c === 0xfdd2;
    if (n < 8) return "%x" + (bg ? BG_LETTERS[n].toUpperCase() : BG_LETTERS[n]);
    const [r, g, b] = PALETTE[n];
    return `%${bg ? "X" : "x"}<${r} ${g} ${b}>`;
  }
  const [r, g, b] = [1, 2, 3].map((k) => m.charCodeAt(k) - 0x100);
  return `%${c === 0xfdd4 ? "X" : "x"}<${r} ${g} ${b}>`;
}

/** What translate(..., p) writes for a character that softcode would read as special. */
const ESCAPES: Record<string, string> = {
  "\t": "%t",
  "\n": "%r",
  "\r": "",
  "%": "%%",
  "(": "%(",
  ")": "%)",
  "[": "%[",
  "]": "%]",
  "{": "%{",
  "}": "%}",
  "\\": "\\\\",
};

/**
 * MUX's translate(): colour, line breaks and tabs made plain (`type` 0 or `s`: colour dropped,
 * a line break a space) or made into substitutions to be evaluated again (`1` or `p`).
 */
function translate(s: string, convert: boolean): string {
  let out = "";
  let state = "";
  let written = "";
  for (let i = 0; i < s.length;) {
    const c = s.charCodeAt(i);
    if (isMarker(c)) {
      const len = c >= 0xfdd3 ? 4 : 2;
      const m = s.slice(i, i + len);
      state = m === M_ATTR + "n" ? "" : state + m;
      i += len;
      continue;
    }
    const ch = s[i];
    i++;
    if (!convert) {
      out += ch === "\n" ? " " : ch === "\r" ? "" : ch;
      continue;
    }
    out += transition(written, state);
    written = state;
    if (ch === " ") out += s[i] === " " ? "%b" : " ";
    else out += ESCAPES[ch] ?? ch;
  }
  return out;
}

/** A uniform shuffle of an array, in place (Fisher–Yates). */
export function shuffleInPlace<T>(a: T[]): T[] {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    const t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
  return a;
}

/** The second string family. */
export const textFunctions: FunctionDef[] = [
  define("art", 1, 1, {
    family: "strings",
    args: "art(<word>)",
    summary: "The article for a word: a or an, by MUX's rules.",
    example: { think: "[art(apple)] [art(hour)] [art(unicorn)]", gives: "an an a" },
  }, (_ev, _f, args) => article(args[0])),
  define("merge", 3, 3, {
    family: "strings",
    args: "merge(<text>, <other>, <character>)",
    summary:
      "The text with each of its character replaced by the other text's character at that place (the two as long as each other).",
    example: { think: "merge(AB--EF,abcdef,-)", gives: "ABcdEF" },
  }, (_ev, _f, args) => {
    const c = chars(stripMarkup(args[2]));
    if (c.length > 1) return "#-1 TOO MANY CHARACTERS";
    const want = c[0] ?? " ";
    if (!hasMarkup(args[0]) && !hasMarkup(args[1])) {
      const a = chars(args[0]), b = chars(args[1]);
      if (a.length !== b.length) return "#-1 STRING LENGTHS MUST BE EQUAL";
      return a.map((ch, i) => (ch === want ? b[i] : ch)).join("");
    }
    // A replaced character comes with its colour from the second string.
    const a = styled(args[0]), b = styled(args[1]);
    if (a.chars.length !== b.chars.length) return "#-1 STRING LENGTHS MUST BE EQUAL";
    const ca = styledChars(a), cb = styledChars(b);
    return a.chars.map((ch, i) => (ch === want ? cb[i] : ca[i])).join("");
  }),
  define("strip", 1, 2, {
    family: "strings",
    args: "strip(<text>[, <characters>])",
    summary: "The text without colour, and without any of the characters.",
    example: { think: "strip(This is a test,is)", gives: "Th  a tet" },
  }, (_ev, _f, args) => {
    const plain = stripMarkup(args[0]);
    if (args.length < 2 || args[1] === "") return plain;
    const drop = new Set(chars(stripMarkup(args[1])));
    let out = "";
    for (const ch of plain) if (!drop.has(ch)) out += ch;
    return out;
  }),
  define("strmem", 0, 1, {
    family: "strings",
    args: "strmem(<text>)",
    summary: "The bytes the text takes as MUX stores it (UTF-8, colour codes counted).",
    example: { think: "strmem(héllo)", gives: "6" },
  }, (_ev, _f, args) => {
    // Bytes as MUX stores them: UTF-8, colour as its escape codes.
    const s = args[0] ?? "";
    return String(new TextEncoder().encode(stripMarkup(s)).length + colourBytes(s));
  }, { parse: 1 }),
  define("wordpos", 2, 3, {
    family: "strings",
    args: "wordpos(<text>, <position>[, <delimiter>])",
    summary: "Which word (from 1) the character at the position is in, or #-1.",
    example: { think: "wordpos(This is a test,6)", gives: "2" },
  }, (_ev, _f, args) => {
    const sep = sepOf(args[2]);
    if (typeof sep !== "string") return sep.error;
    const cs = chars(stripMarkup(args[0]));
    const pos = toInt(args[1]);
    if (pos < 1 || pos > cs.length) return "#-1";
    const sc = chars(sep);
    let a = 0, b = cs.length;
    if (sep === " ") {
      while (a < b && cs[a] === " ") a++;
      while (b > a && cs[b - 1] === " ") b--;
    }
    // Each word's end; the delimiter before a word belongs to it.
    let word = 1;
    let i = a;
    while (i < b) {
      let end = i;
      while (end < b && !sc.every((c, k) => cs[end + k] === c)) end++;
      if (pos - 1 < end) return String(word);
      i = end + sc.length;
      if (sep === " ") { while (i < b && cs[i] === " ") i++; }
      word++;
    }
    return String(word);
  }),
  define("tr", 3, 3, {
    family: "strings",
    args: "tr(<text>, <from>, <to>)",
    summary:
      "The text with each character of from replaced by the one at its place in to; a-z ranges allowed.",
    example: { think: "tr(uryyb,a-z,n-za-m)", gives: "hello" },
  }, (_ev, _f, args) => {
    if (args[0] === "") return "";
    const from = expandRanges(args[1]), to = expandRanges(args[2]);
    if (from.length !== to.length) return "#-1 STRING LENGTHS MUST BE EQUAL";
    const map = new Map<string, string>();
    from.forEach((c, i) => map.set(c, to[i]));
    return mapChars(args[0], (ch) => map.get(ch) ?? ch);
  }),
  define("stripaccents", 1, 1, {
    family: "strings",
    args: "stripaccents(<text>)",
    summary: "The text with accented letters made plain.",
    example: { think: "stripaccents(héllo wörld)", gives: "hello world" },
  }, (_ev, _f, args) => mapChars(args[0], plainLetter)),
  define("accent", 2, 2, {
    family: "strings",
    args: "accent(<text>, <marks>)",
    summary:
      "The text with the accent each mark stands for put on the letter at its place (' acute, ` grave, : umlaut, ^ circumflex, ~ tilde, , cedilla, o ring).",
    example: { think: "accent(cafe,___')", gives: "café" },
  }, (_ev, _f, args) => {
    const t = chars(stripMarkup(args[1]));
    if (chars(args[0]).length !== t.length) return "#-1 STRING LENGTHS MUST BE EQUAL";
    return mapChars(args[0], (ch, i) => accented(ch, t[i]));
  }),
  define("translate", 2, 2, {
    family: "strings",
    args: "translate(<text>, <type>)",
    summary:
      "The text with its colour and special characters as codes (type p or 1: %r %t %x..., so it can be set back) or as spaces (s or 0).",
    example: { think: "translate(a%tb,p)", gives: "a%tb" },
  }, (_ev, _f, args) => {
    const t = args[1][0];
    return translate(args[0], t === "p" || t === "1");
  }),
  define("scramble", 1, 1, {
    family: "strings",
    args: "scramble(<text>)",
    summary: "The characters of the text in a random order.",
    example: { think: "scramble(abcdef)", gives: "fbdace", varies: true },
  }, (_ev, _f, args) => {
    if (!hasMarkup(args[0])) return shuffleInPlace(chars(args[0])).join("");
    const st = styled(args[0]);
    const order = shuffleInPlace([...st.chars.keys()]);
    const each = styledChars(st);
    return order.map((i) => each[i]).join("");
  }),
  define("fdepth", 0, 0, {
    family: "control",
    args: "fdepth()",
    summary: "How deeply nested the function calls are where it is called.",
    example: { think: "add(fdepth(),0)", gives: "1" },
  }, (ev) => String(ev.nest)),
  define("fcount", 0, 1, {
    family: "control",
    args: "fcount([<expression>])",
    summary:
      "How many functions the evaluation has called so far (with an expression: how many it calls).",
    example: { think: "fcount(add(1,add(2,3)))", gives: "2" },
  }, (ev, f, args) => {
    if (!args.length) return String(ev.invocations);
    const before = ev.invocations;
    ev.eval(f, args[0], EVAL_ARG);
    return String(ev.invocations - before);
  }, { lazy: true }),
  define("subeval", 1, 1, {
    family: "control",
    args: "subeval(<text>)",
    summary: "The text with its % substitutions made, but no functions called.",
    example: { think: "subeval(lit(%#:[add(1,2)]))", gives: "#1:[add(1,2)]" },
  }, (ev, f, args) => {
    // Substitutions and escapes only: no functions, no braces, %l gives nothing.
    return ev.eval(f, args[0], EV.EVAL | EV.NOFCHECK | EV.NO_LOCATION | EV.NO_COMPRESS);
  }),
  define("error", 0, 1, {
    family: "control",
    args: "error([<text>])",
    summary: "The game's answer to a command it does not know.",
    example: { think: "error()", gives: "Huh? Type 'help' for help." },
  }, () => HUH),
  define(
    "beep",
    0,
    0,
    {
      family: "effects",
      args: "beep()",
      summary: "The bell character (staff only): the player's client beeps.",
      example: { think: "strlen(beep())", gives: "1" },
    },
    () => "\x07",
    { staff: true },
  ),
];

/** Bytes MUX spends on a text's colour: each change is a 3-byte code (its UTF-8 PUA form). */
function colourBytes(s: string): number {
  if (!hasMarkup(s)) return 0;
  let n = 0;
  for (let i = 0; i < s.length;) {
    const c = s.charCodeAt(i);
    if (isMarker(c)) {
      n += 3;
      i += c >= 0xfdd3 ? 4 : 2;
    } else i++;
  }
  return n;
}
