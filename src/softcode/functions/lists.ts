/** List functions: words, picking, searching, sorting, sets. */
import { define, plainResults, readsOnly } from "./define.ts";
import type { FunctionDef } from "../types.ts";
import type { Evaluation } from "../eval.ts";
import {
  countList,
  extractList,
  itemPosition,
  sepOf,
  splitList,
  splitStyledList,
  splitTokens,
} from "../list.ts";
import { bool, isInteger, isReal, toInt, toReal } from "../numbers.ts";
import { stripMarkup } from "../markup.ts";
import { sortIntegers } from "./int_sort.ts";

/** Input and output separators from argument positions (output defaults to input). */
function seps(
  args: string[],
  inAt: number,
  outAt: number,
): { sep: string; osep: string } | string {
  const sep = sepOf(args[inAt]);
  if (typeof sep !== "string") return sep.error;
  if (args[outAt] === undefined) return { sep, osep: sep };
  const osep = sepOf(args[outAt], { allowNull: true });
  if (typeof osep !== "string") return osep.error;
  return { sep, osep };
}

/** Positions (1-based, negative from the end) as 0-based indexes within `n`. */
function positions(list: string, n: number): number[] {
  const out: number[] = [];
  for (const w of splitList(list, " ")) {
    let p = toInt(w);
    if (p < 0) p = n + p + 1;
    if (p >= 1 && p <= n) out.push(p - 1);
  }
  return out;
}

type SortKind = "a" | "i" | "n" | "f" | "d";

/** MUX's automatic sort type: dbrefs, integers, numbers, else words. */
function detect(words: string[]): SortKind {
  if (words.length && words.every((w) => /^#-?\d+$/.test(w))) return "d";
  if (words.every((w) => isInteger(w))) return "n";
  if (words.every((w) => isReal(w))) return "f";
  return "a";
}

function sortKind(arg: string | undefined, words: string[], dflt: SortKind | "?"): SortKind {
  if (arg === undefined && dflt !== "?") return dflt;
  return typeOf(arg) ?? detect(words);
}

/** A sort type's kind as MUX reads it (its first character; any other is a), or null for none. */
function typeOf(arg: string | undefined): SortKind | null {
  if (!arg) return null;
  const k = arg[0].toLowerCase();
  return k === "i" || k === "n" || k === "f" || k === "d" ? k : "a";
}

/** Compares two words by a sort kind. */
function comparer(kind: SortKind): (a: string, b: string) => number {
  switch (kind) {
    case "n":
      return (a, b) => toInt(a) - toInt(b);
    case "f":
      return (a, b) => toReal(a) - toReal(b);
    case "d":
      return (a, b) => toInt(a.replace(/^#/, "")) - toInt(b.replace(/^#/, ""));
    case "i":
      return (a, b) => {
        const x = a.toLowerCase(), y = b.toLowerCase();
        return x < y ? -1 : x > y ? 1 : 0;
      };
    default:
      return (a, b) => (a < b ? -1 : a > b ? 1 : 0);
  }
}

/** Words by a number each, read once (stable). */
function byNumber(words: string[], key: (w: string) => number): string[] {
  // Positions sorted by their keys, ties by position: no object per word.
  const n = words.length;
  const keys = new Float64Array(n);
  const at: number[] = new Array(n);
  for (let i = 0; i < n; i++) {
    keys[i] = key(words[i]);
    at[i] = i;
  }
  at.sort((a, b) => {
    const d = keys[a] - keys[b];
    return d < 0 ? -1 : d > 0 ? 1 : a - b;
  });
  const out: string[] = new Array(n);
  for (let i = 0; i < n; i++) out[i] = words[at[i]];
  return out;
}

/**
 * Words sorted as comparer(kind) sorts them, each key read once rather than at each comparison
 * (a 1,000-word numeric sort read 20,000 numbers); the sort is stable either way.
 */
function sortWords(words: string[], kind: SortKind): string[] {
  switch (kind) {
    case "n":
      return byNumber(words, toInt);
    case "f":
      return byNumber(words, toReal);
    case "d":
      return byNumber(words, (w) => toInt(w.replace(/^#/, "")));
    case "i": {
      const keyed = words.map((w) => ({ w, k: w.toLowerCase() }));
      keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
      return keyed.map((x) => x.w);
    }
    default:
      return words.sort(comparer(kind));
  }
}

/** Sorted, duplicates (by the comparer) removed. */
function sortedSet(words: string[], cmp: (a: string, b: string) => number): string[] {
  const s = [...words].sort(cmp);
  return s.filter((w, i) => i === 0 || cmp(s[i - 1], w) !== 0);
}

/**
 * The union of two lists as TinyMUX 2.12 merges it: each sorted, then merged with duplicates
 * dropped; of two items that compare equal the second list's is kept (setunion(B a,b,,,i) is
 * a b).
 */
function mergedUnion(a: string[], b: string[], cmp: (x: string, y: string) => number): string[] {
  const s1 = [...a].sort(cmp), s2 = [...b].sort(cmp);
  const n1 = s1.length, n2 = s2.length;
  if (n1 === 1 && n2 === 1 && cmp(s1[0], s2[0]) === 0) return [s1[0]];
  const out: string[] = [];
  let i1 = 0, i2 = 0;
  let old: string | undefined;
  while (i1 < n1 && i2 < n2) {
    if (old !== undefined) {
      while (i1 < n1 && cmp(s1[i1], old) === 0) i1++;
      while (i2 < n2 && cmp(s2[i2], old) === 0) i2++;
    }
    if (i1 < n1 && i2 < n2) {
      old = cmp(s1[i1], s2[i2]) < 0 ? s1[i1++] : s2[i2++];
      out.push(old);
    }
  }
  for (const rest of [s1.slice(i1), s2.slice(i2)]) {
    for (const w of rest) {
      if (old === undefined || cmp(old, w) !== 0) out.push(old = w);
    }
  }
  return out;
}

/** A test of membership in `list` by a comparer: a binary search of the sorted list. */
function memberOf(list: string[], cmp: (a: string, b: string) => number): (x: string) => boolean {
  const sorted = [...list].sort(cmp);
  return (x) => {
    let lo = 0, hi = sorted.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const c = cmp(sorted[mid], x);
      if (c === 0) return true;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  };
}

function setOp(
  args: string[],
  op: (a: string[], b: string[], cmp: (x: string, y: string) => number) => string[],
): string {
  const s = seps(args, 2, 3);
  if (typeof s === "string") return s;
  const a = splitList(args[0], s.sep);
  const b = splitList(args[1], s.sep);
  const cmp = comparer(sortKind(args[4], [...a, ...b], "a"));
  return op(a, b, cmp).join(s.osep);
}

/** A word matched against a wildcard pattern (colour and all, as MUX compares). */
function wild(ev: Evaluation, pattern: string, word: string): boolean {
  return ev.wild(pattern, word);
}

/** The list family, before its leaf functions are marked. */
const listDefs: FunctionDef[] = plainResults([
  define("words", 0, 2, {
    family: "lists",
    args: "words(<list>[, <delimiter>])",
    summary: "The number of items in the list.",
    example: { think: "words(a b c)", gives: "3" },
  }, (_ev, _f, args) => {
    if (!args.length) return "0";
    const sep = sepOf(args[1]);
    if (typeof sep !== "string") return sep.error;
    return String(countList(stripMarkup(args[0]), sep));
  }),
  define("first", 0, 2, {
    family: "lists",
    args: "first(<list>[, <delimiter>])",
    summary: "The first item.",
    example: { think: "first(a b c)", gives: "a" },
  }, (_ev, _f, args) => {
    if (!args.length) return "";
    const sep = sepOf(args[1]);
    if (typeof sep !== "string") return sep.error;
    return splitList(args[0], sep)[0] ?? "";
  }, { raw: true }),
  define("rest", 0, 2, {
    family: "lists",
    args: "rest(<list>[, <delimiter>])",
    summary: "All but the first item.",
    example: { think: "rest(a b c)", gives: "b c" },
  }, (_ev, _f, args) => {
    if (!args.length) return "";
    const sep = sepOf(args[1]);
    if (typeof sep !== "string") return sep.error;
    let s = args[0];
    if (sep === " ") s = s.replace(/^ +/, "").replace(/ +$/, "");
    const at = s.indexOf(sep);
    if (at < 0) return "";
    const rest = s.slice(at + sep.length);
    return sep === " " ? rest.replace(/^ +/, "") : rest;
  }, { raw: true }),
  define("last", 0, 2, {
    family: "lists",
    args: "last(<list>[, <delimiter>])",
    summary: "The last item.",
    example: { think: "last(a b c)", gives: "c" },
  }, (_ev, _f, args) => {
    if (!args.length) return "";
    const sep = sepOf(args[1]);
    if (typeof sep !== "string") return sep.error;
    const w = splitStyledList(args[0], sep);
    return w[w.length - 1] ?? "";
  }),
  define("extract", 3, 5, {
    family: "lists",
    args: "extract(<list>, <first>, <count>[, <delimiter>[, <output separator>]])",
    summary: "count items from item first (1 is the first).",
    example: { think: "extract(a b c d e,2,3)", gives: "b c d" },
  }, (_ev, _f, args) => {
    const s = seps(args, 3, 4);
    if (typeof s === "string") return s;
    return extractList(args[0], toInt(args[1]), toInt(args[2]), s.sep, s.osep);
  }),
  define("elements", 2, 4, {
    family: "lists",
    args: "elements(<list>, <positions>[, <delimiter>[, <output separator>]])",
    summary: "The items at the positions (a list of numbers from 1).",
    example: { think: "elements(a b c d e,1 3 5)", gives: "a c e" },
  }, (_ev, _f, args) => {
    const s = seps(args, 2, 3);
    if (typeof s === "string") return s;
    const w = splitStyledList(args[0], s.sep);
    // MUX 2.12's elements() takes positive positions only.
    return splitList(args[1], " ").map(toInt).filter((p) => p >= 1 && p <= w.length)
      .map((p) => w[p - 1]).join(s.osep);
  }),
  define("member", 2, 3, {
    family: "lists",
    args: "member(<list>, <word>[, <delimiter>])",
    summary: "The position of the item equal to word, or 0.",
    example: { think: "member(a b c,b)", gives: "2" },
  }, (_ev, _f, args) => {
    const sep = sepOf(args[2]);
    if (typeof sep !== "string") return sep.error;
    return String(itemPosition(args[0], sep, args[1]));
  }),
  define("match", 2, 3, {
    family: "lists",
    args: "match(<list>, <pattern>[, <delimiter>])",
    summary: "The position of the first item matching the wildcard pattern, or 0.",
    example: { think: "match(apple banana cherry,b*)", gives: "2" },
  }, (ev, _f, args) => {
    const sep = sepOf(args[2]);
    if (typeof sep !== "string") return sep.error;
    const w = splitTokens(args[0], sep);
    const i = w.findIndex((x) => wild(ev, args[1], x));
    return String(i + 1);
  }),
  define("grab", 2, 3, {
    family: "lists",
    args: "grab(<list>, <pattern>[, <delimiter>])",
    summary: "The first item matching the wildcard pattern.",
    example: { think: "grab(apple banana cherry,*an*)", gives: "banana" },
  }, (ev, _f, args) => {
    const sep = sepOf(args[2]);
    if (typeof sep !== "string") return sep.error;
    return splitList(args[0], sep).find((x) => wild(ev, args[1], x)) ?? "";
  }),
  define("graball", 2, 4, {
    family: "lists",
    args: "graball(<list>, <pattern>[, <delimiter>[, <output separator>]])",
    summary: "Every item matching the wildcard pattern.",
    example: { think: "graball(apple banana cherry,*e*)", gives: "apple cherry" },
  }, (ev, _f, args) => {
    const s = seps(args, 2, 3);
    if (typeof s === "string") return s;
    return splitList(args[0], s.sep).filter((x) => wild(ev, args[1], x)).join(s.osep);
  }),
  define("remove", 2, 4, {
    family: "lists",
    args: "remove(<list>, <word>[, <delimiter>[, <output separator>]])",
    summary: "The list without the first item equal to word.",
    example: { think: "remove(a b c b,b)", gives: "a c b" },
  }, (_ev, _f, args) => {
    const s = seps(args, 2, 3);
    if (typeof s === "string") return s;
    if (args[1].includes(s.sep)) {
      return "#-1 CAN ONLY REMOVE ONE ELEMENT";
    }
    const w = splitStyledList(args[0], s.sep);
    const i = w.indexOf(args[1]);
    if (i >= 0) w.splice(i, 1);
    return w.join(s.osep);
  }),
  define("ldelete", 2, 4, {
    family: "lists",
    args: "ldelete(<list>, <positions>[, <delimiter>[, <output separator>]])",
    summary: "The list without the items at the positions (negative ones count from the end).",
    example: { think: "ldelete(a b c d,2 -1)", gives: "a c" },
  }, (_ev, _f, args) => {
    const s = seps(args, 2, 3);
    if (typeof s === "string") return s;
    const w = splitStyledList(args[0], s.sep);
    const drop = new Set(positions(args[1], w.length));
    return w.filter((_x, i) => !drop.has(i)).join(s.osep);
  }),
  define("replace", 3, 5, {
    family: "lists",
    args: "replace(<list>, <positions>, <word>[, <delimiter>[, <output separator>]])",
    summary: "The list with the items at the positions replaced by word.",
    example: { think: "replace(a b c,2,X)", gives: "a X c" },
  }, (_ev, _f, args) => {
    const s = seps(args, 3, 4);
    if (typeof s === "string") return s;
    const w = splitStyledList(args[0], s.sep);
    for (const i of positions(args[1], w.length)) w[i] = args[2];
    return w.join(s.osep);
  }),
  define("insert", 3, 5, {
    family: "lists",
    args: "insert(<list>, <position>, <word>[, <delimiter>[, <output separator>]])",
    summary: "The list with word inserted at the position.",
    example: { think: "insert(a b c,2,X)", gives: "a X b c" },
  }, (_ev, _f, args) => {
    const s = seps(args, 3, 4);
    if (typeof s === "string") return s;
    const w = splitStyledList(args[0], s.sep);
    for (const word of splitList(args[1], " ")) {
      let p = toInt(word);
      if (p < 0) p = w.length + p + 2;
      if (p >= 1 && p <= w.length + 1) w.splice(p - 1, 0, args[2]);
    }
    return w.join(s.osep);
  }),
  define("revwords", 0, 3, {
    family: "lists",
    args: "revwords(<list>[, <delimiter>[, <output separator>]])",
    summary: "The items in reverse order.",
    example: { think: "revwords(a b c)", gives: "c b a" },
  }, (_ev, _f, args) => {
    if (!args.length) return "";
    const s = seps(args, 1, 2);
    if (typeof s === "string") return s;
    return splitStyledList(args[0], s.sep).reverse().join(s.osep);
  }),
  define("sort", 1, 4, {
    family: "lists",
    args: "sort(<list>[, <type>[, <delimiter>[, <output separator>]]])",
    summary:
      "The list sorted: type i (ignoring case), n (integers), f (numbers), d (dbrefs), any other a (alphabetic); guessed when empty or not given.",
    example: { think: "sort(10 9 100)", gives: "9 10 100" },
  }, (ev, _f, args) => {
    const s = seps(args, 2, 3);
    if (typeof s === "string") return s;
    const k = typeOf(args[1]);
    if (k === null || k === "n" || k === "f") {
      // A list of plain integers is guessed as one and sorts the same by toInt() and toReal().
      const quick = sortIntegers(args[0], s.sep, s.osep, ev.sc.buffers);
      if (quick !== null) return quick;
    }
    const w = splitList(args[0], s.sep);
    return sortWords(w, sortKind(args[1] || undefined, w, "?")).join(s.osep);
  }),
  define(
    "setunion",
    2,
    5,
    {
      family: "lists",
      args: "setunion(<list1>, <list2>[, <delimiter>[, <output separator>[, <type>]]])",
      summary: "The items of either list, sorted, each once.",
      example: { think: "setunion(c a,b a)", gives: "a b c" },
    },
    (_ev, _f, args) => setOp(args, mergedUnion),
  ),
  define(
    "setdiff",
    2,
    5,
    {
      family: "lists",
      args: "setdiff(<list1>, <list2>[, <delimiter>[, <output separator>[, <type>]]])",
      summary: "The items of the first list not in the second, sorted, each once.",
      example: { think: "setdiff(a b c,b)", gives: "a c" },
    },
    (_ev, _f, args) =>
      setOp(args, (a, b, cmp) => {
        const inB = memberOf(b, cmp);
        return sortedSet(a, cmp).filter((x) => !inB(x));
      }),
  ),
  define(
    "setinter",
    2,
    5,
    {
      family: "lists",
      args: "setinter(<list1>, <list2>[, <delimiter>[, <output separator>[, <type>]]])",
      summary: "The items in both lists, sorted, each once.",
      example: { think: "setinter(a b c,c b d)", gives: "b c" },
    },
    (_ev, _f, args) => setOp(args, (a, b, cmp) => sortedSet(a, cmp).filter(memberOf(b, cmp))),
  ),
  define("lnum", 0, 4, {
    family: "lists",
    args: "lnum(<count>) or lnum(<first>, <last>[, <output separator>[, <step>]])",
    summary: "The integers from 0 to count-1, or from first to last.",
    example: { think: "lnum(5)", gives: "0 1 2 3 4" },
  }, (ev, _f, args) => {
    if (!args.length) return "";
    const sep = sepOf(args[2], { allowNull: true });
    if (typeof sep !== "string") return sep.error;
    let bot = 0, top: number, step = 1;
    if (args.length === 1) {
      top = toInt(args[0]) - 1;
      if (top < 0) return "";
    } else {
      bot = toInt(args[0]);
      top = toInt(args[1]);
      if (args.length === 4) step = Math.max(1, toInt(args[3]));
    }
    const out: string[] = [];
    let len = 0;
    const add = (i: number) => {
      const t = String(i);
      len += t.length + sep.length;
      out.push(t);
      return len < ev.lbuf;
    };
    if (bot <= top) {
      for (let i = bot; i <= top && add(i); i += step);
    } else {
      for (let i = bot; i >= top && add(i); i -= step);
    }
    return out.join(sep);
  }),
  define("itemize", 1, 4, {
    family: "lists",
    args: "itemize(<list>[, <delimiter>[, <conjunction>[, <punctuation>]]])",
    summary: "The items as an English list.",
    example: { think: "itemize(a b c)", gives: "a, b, and c" },
  }, (_ev, _f, args) => {
    const sep = sepOf(args[1]);
    if (typeof sep !== "string") return sep.error;
    const conj = args[2] ?? "and";
    const punc = args[3] ?? ",";
    const w = splitList(args[0], sep);
    // As MUX 2.12: a delimiter that ends the list ends it (itemize(a|b|,|) is a and b).
    if (w.length > 1 && w[w.length - 1] === "") w.pop();
    if (w.length <= 1) return w[0] ?? "";
    if (w.length === 2) return `${w[0]} ${conj} ${w[1]}`;
    return w.slice(0, -1).join(`${punc} `) + `${punc} ${conj} ${w[w.length - 1]}`;
  }),
  define("elist", 1, 5, {
    family: "lists",
    args: "elist(<list>[, <conjunction>[, <delimiter>[, <output separator>[, <punctuation>]]]])",
    summary: "The items as an English list (PennMUSH's form of itemize()).",
    example: { think: "elist(a b c,or)", gives: "a, b, or c" },
  }, (_ev, _f, args) => {
    // PennMUSH's elist(list[, conj[, delim[, osep[, punc]]]]).
    const conj = args[1] || "and";
    const sep = sepOf(args[2]);
    if (typeof sep !== "string") return sep.error;
    const osep = args[3] === undefined ? ", " : args[3];
    const punc = args[4] === undefined ? "," : args[4];
    const w = splitList(args[0], sep);
    // As MUX 2.12: a delimiter that ends the list ends it (itemize(a|b|,|) is a and b).
    if (w.length > 1 && w[w.length - 1] === "") w.pop();
    if (w.length <= 1) return w[0] ?? "";
    if (w.length === 2) return `${w[0]} ${conj} ${w[1]}`;
    return w.slice(0, -1).join(osep) + `${punc} ${conj} ${w[w.length - 1]}`;
  }),
  define("splice", 3, 5, {
    family: "lists",
    args: "splice(<list1>, <list2>, <word>[, <delimiter>[, <output separator>]])",
    summary: "list1 with each item equal to word replaced by list2's item at the same position.",
    example: { think: "splice(a b c,x y z,b)", gives: "a y c" },
  }, (_ev, _f, args) => {
    const sep = sepOf(args[3]);
    if (typeof sep !== "string") return sep.error;
    const osep = args[4] ?? sep;
    if (countList(args[2], sep) > 1) return "#-1 TOO MANY WORDS";
    const a = splitList(args[0], sep), b = splitList(args[1], sep);
    if (a.length !== b.length) return "#-1 NUMBER OF WORDS MUST BE EQUAL";
    return a.map((w, i) => (w === args[2] ? b[i] : w)).join(osep);
  }),
  define("isword", 1, 1, {
    family: "strings",
    args: "isword(<text>)",
    summary: "1 when the text is letters only.",
    example: { think: "isword(hello)", gives: "1" },
  }, (_ev, _f, args) => bool(/^[A-Za-z]+$/.test(args[0]))),
], (name) => name === "WORDS" || name === "MEMBER" || name === "MATCH");

/**
 * List functions that read only their arguments, marked leaf (FunctionDef.reads): a call hands
 * them its node's kept array (SGP's ostaff() is member(), once a +who row).
 */
const LIST_LEAVES = ["words", "member"];

/** The list family. */
export const listFunctions: FunctionDef[] = readsOnly(listDefs, LIST_LEAVES, "args");
