/** List functions: words, picking, searching, sorting, sets. */
import { define } from "./define.ts";
import type { FunctionDef } from "../types.ts";
import type { Evaluation } from "../eval.ts";
import { sepOf, splitList, splitStyledList } from "../list.ts";
import { bool, isInteger, isReal, toInt, toReal } from "../numbers.ts";
import { stripMarkup } from "../markup.ts";

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
  const k = (arg ?? "").trim().toLowerCase()[0];
  if (k === "a" || k === "i" || k === "n" || k === "f" || k === "d") return k;
  if (arg === undefined && dflt !== "?") return dflt;
  return detect(words);
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

/** Sorted, duplicates (by the comparer) removed. */
function sortedSet(words: string[], cmp: (a: string, b: string) => number): string[] {
  const s = [...words].sort(cmp);
  return s.filter((w, i) => i === 0 || cmp(s[i - 1], w) !== 0);
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

/** The list family. */
export const listFunctions: FunctionDef[] = [
  define("words", 0, 2, (_ev, _f, args) => {
    if (!args.length) return "0";
    const sep = sepOf(args[1]);
    if (typeof sep !== "string") return sep.error;
    return String(splitList(stripMarkup(args[0]), sep).length);
  }),
  define("first", 0, 2, (_ev, _f, args) => {
    if (!args.length) return "";
    const sep = sepOf(args[1]);
    if (typeof sep !== "string") return sep.error;
    return splitList(args[0], sep)[0] ?? "";
  }, { raw: true }),
  define("rest", 0, 2, (_ev, _f, args) => {
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
  define("last", 0, 2, (_ev, _f, args) => {
    if (!args.length) return "";
    const sep = sepOf(args[1]);
    if (typeof sep !== "string") return sep.error;
    const w = splitStyledList(args[0], sep);
    return w[w.length - 1] ?? "";
  }),
  define("extract", 3, 5, (_ev, _f, args) => {
    const s = seps(args, 3, 4);
    if (typeof s === "string") return s;
    const first = toInt(args[1]), n = toInt(args[2]);
    if (first < 1 || n < 1) return "";
    return splitStyledList(args[0], s.sep).slice(first - 1, first - 1 + n).join(s.osep);
  }),
  define("elements", 2, 4, (_ev, _f, args) => {
    const s = seps(args, 2, 3);
    if (typeof s === "string") return s;
    const w = splitStyledList(args[0], s.sep);
    // MUX 2.12's elements() takes positive positions only.
    return splitList(args[1], " ").map(toInt).filter((p) => p >= 1 && p <= w.length)
      .map((p) => w[p - 1]).join(s.osep);
  }),
  define("member", 2, 3, (_ev, _f, args) => {
    const sep = sepOf(args[2]);
    if (typeof sep !== "string") return sep.error;
    const i = splitList(args[0], sep).indexOf(args[1]);
    return String(i + 1);
  }),
  define("match", 2, 3, (ev, _f, args) => {
    const sep = sepOf(args[2]);
    if (typeof sep !== "string") return sep.error;
    const w = splitList(args[0], sep);
    const i = w.findIndex((x) => wild(ev, args[1], x));
    return String(i + 1);
  }),
  define("grab", 2, 3, (ev, _f, args) => {
    const sep = sepOf(args[2]);
    if (typeof sep !== "string") return sep.error;
    return splitList(args[0], sep).find((x) => wild(ev, args[1], x)) ?? "";
  }),
  define("graball", 2, 4, (ev, _f, args) => {
    const s = seps(args, 2, 3);
    if (typeof s === "string") return s;
    return splitList(args[0], s.sep).filter((x) => wild(ev, args[1], x)).join(s.osep);
  }),
  define("remove", 2, 4, (_ev, _f, args) => {
    const s = seps(args, 2, 3);
    if (typeof s === "string") return s;
    if (s.sep === " " ? /\s/.test(args[1].trim()) : args[1].includes(s.sep)) {
      return "#-1 CAN ONLY REMOVE ONE ELEMENT";
    }
    const w = splitStyledList(args[0], s.sep);
    const i = w.indexOf(args[1]);
    if (i >= 0) w.splice(i, 1);
    return w.join(s.osep);
  }),
  define("ldelete", 2, 4, (_ev, _f, args) => {
    const s = seps(args, 2, 3);
    if (typeof s === "string") return s;
    const w = splitList(args[0], s.sep);
    const drop = new Set(positions(args[1], w.length));
    return w.filter((_x, i) => !drop.has(i)).join(s.osep);
  }),
  define("replace", 3, 5, (_ev, _f, args) => {
    const s = seps(args, 3, 4);
    if (typeof s === "string") return s;
    const w = splitList(args[0], s.sep);
    for (const i of positions(args[1], w.length)) w[i] = args[2];
    return w.join(s.osep);
  }),
  define("insert", 3, 5, (_ev, _f, args) => {
    const s = seps(args, 3, 4);
    if (typeof s === "string") return s;
    const w = splitList(args[0], s.sep);
    for (const word of splitList(args[1], " ")) {
      let p = toInt(word);
      if (p < 0) p = w.length + p + 2;
      if (p >= 1 && p <= w.length + 1) w.splice(p - 1, 0, args[2]);
    }
    return w.join(s.osep);
  }),
  define("revwords", 0, 3, (_ev, _f, args) => {
    if (!args.length) return "";
    const s = seps(args, 1, 2);
    if (typeof s === "string") return s;
    return splitStyledList(args[0], s.sep).reverse().join(s.osep);
  }),
  define("sort", 1, 4, (_ev, _f, args) => {
    const s = seps(args, 2, 3);
    if (typeof s === "string") return s;
    const w = splitList(args[0], s.sep);
    return w.sort(comparer(sortKind(args[1] || undefined, w, "?"))).join(s.osep);
  }),
  define(
    "setunion",
    2,
    5,
    (_ev, _f, args) => setOp(args, (a, b, cmp) => sortedSet([...a, ...b], cmp)),
  ),
  define(
    "setdiff",
    2,
    5,
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
    (_ev, _f, args) => setOp(args, (a, b, cmp) => sortedSet(a, cmp).filter(memberOf(b, cmp))),
  ),
  define("lnum", 0, 4, (ev, _f, args) => {
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
  define("itemize", 1, 4, (_ev, _f, args) => {
    const sep = sepOf(args[1]);
    if (typeof sep !== "string") return sep.error;
    const conj = args[2] ?? "and";
    const punc = args[3] ?? ",";
    const w = splitList(args[0], sep);
    if (w.length <= 1) return w[0] ?? "";
    if (w.length === 2) return `${w[0]} ${conj} ${w[1]}`;
    return w.slice(0, -1).join(`${punc} `) + `${punc} ${conj} ${w[w.length - 1]}`;
  }),
  define("elist", 1, 5, (_ev, _f, args) => {
    // PennMUSH's elist(list[, conj[, delim[, osep[, punc]]]]).
    const conj = args[1] || "and";
    const sep = sepOf(args[2]);
    if (typeof sep !== "string") return sep.error;
    const osep = args[3] === undefined ? ", " : args[3];
    const punc = args[4] === undefined ? "," : args[4];
    const w = splitList(args[0], sep);
    if (w.length <= 1) return w[0] ?? "";
    if (w.length === 2) return `${w[0]} ${conj} ${w[1]}`;
    return w.slice(0, -1).join(osep) + `${punc} ${conj} ${w[w.length - 1]}`;
  }),
  define("table", 1, 6, (ev, _f, args) => {
    // MUX: an empty width or line length is 0, out of range like a field wider than the line.
    const width = args.length > 1 ? toInt(args[1]) : 10;
    const line = args.length > 2 ? toInt(args[2]) : 78;
    if (line < 1 || line > ev.lbuf || width < 1 || width > line) return "#-1 OUT OF RANGE";
    const sep = sepOf(args[3]);
    if (typeof sep !== "string") return sep.error;
    const osep = args[4] === undefined || args[4] === "" ? " " : args[4][0];
    const pad = args[5] || " ";
    // As many fields as the line holds, not counting their separators (TinyMUX 2.12's count).
    const cols = Math.floor(line / width);
    const words = splitList(args[0], sep);
    const rows: string[] = [];
    for (let i = 0; i < words.length; i += cols) {
      const row = words.slice(i, i + cols);
      rows.push(
        row.map((w) => {
          const cut = w.slice(0, width);
          return cut + padTo(pad, width - cut.length);
        }).join(osep),
      );
    }
    return rows.join("\r\n");
  }),
  define("columns", 2, 4, (_ev, _f, args) => {
    const width = toInt(args[1]);
    if (width < 1 || width > 78) return "#-1 OUT OF RANGE";
    const sep = sepOf(args[2]);
    if (typeof sep !== "string") return sep.error;
    const indent = Math.max(0, Math.min(77, toInt(args[3] ?? "0")));
    const per = Math.max(1, Math.floor((78 - indent) / width));
    const words = splitList(args[0], sep);
    let out = "";
    words.forEach((w, i) => {
      if (i % per === 0) out += (i ? "\r\n" : "") + " ".repeat(indent);
      const cut = w.slice(0, width);
      // The last field of a full row is not padded (TinyMUX 2.12): no spaces before the break.
      out += i % per === per - 1 ? cut : cut.padEnd(width);
    });
    return words.length ? out + "\r\n" : "";
  }),
  define("splice", 3, 5, (_ev, _f, args) => {
    const sep = sepOf(args[3]);
    if (typeof sep !== "string") return sep.error;
    const osep = args[4] ?? sep;
    const a = splitList(args[0], sep), b = splitList(args[1], sep);
    if (a.length !== b.length) return "#-1 NUMBER OF WORDS MUST BE EQUAL";
    return a.map((w, i) => (w === args[2] ? b[i] : w)).join(osep);
  }),
  define("isword", 1, 1, (_ev, _f, args) => bool(/^[A-Za-z]+$/.test(args[0]))),
];

function padTo(fill: string, n: number): string {
  if (n <= 0) return "";
  return fill.repeat(Math.ceil(n / fill.length)).slice(0, n);
}
