/**
 * More list functions: the appliers (filterbool, mix, step, munge, while, until), random picks
 * (shuffle, pickrand), matchall, unique, and PennMUSH's and later MUX's lreplace/linsert.
 */
import { define } from "./define.ts";
import type { FunctionDef } from "../types.ts";
import type { Evaluation } from "../eval.ts";
import type { Frame } from "../types.ts";
import { sepOf, splitList, splitStyledList, splitTokens } from "../list.ts";
import { isReal, toInt, toInt32, toReal, truthy } from "../numbers.ts";
import { stripMarkup } from "../markup.ts";
import { findRegexp } from "./regexp.ts";
import { callAttr, ufunOf } from "./control.ts";
import { shuffleInPlace } from "./text.ts";
import { randomInt } from "./random.ts";

/** Input and output separators at argument positions (output defaults to input). */
function seps(args: string[], inAt: number, outAt: number): { sep: string; osep: string } | string {
  const sep = sepOf(args[inAt]);
  if (typeof sep !== "string") return sep.error;
  if (args[outAt] === undefined) return { sep, osep: sep };
  const osep = sepOf(args[outAt], { allowNull: true });
  if (typeof osep !== "string") return osep.error;
  return { sep, osep };
}

/** Most %-arguments a u-function receives (MUX's NUM_ENV_VARS). */
const ENV_ARGS = 10;

/** Calls a u-function for each group of items while the budget allows, joining the results. */
function applyEach(
  ev: Evaluation,
  groups: number,
  osep: string,
  call: (i: number) => string,
): string {
  let out = "";
  for (let i = 0; i < groups; i++) {
    if (!ev.tick()) break;
    const r = call(i);
    out = i ? out + osep + r : r;
    if (out.length > ev.lbuf) return out.slice(0, ev.lbuf);
  }
  return out;
}

/**
 * while() (later MUX's) and until() (TinyMUSH's, one list): `eval` of each item joined, stopping
 * after the item whose `cond` result equals `compval` (while) or matches the regular expression
 * `compval` (until).
 */
function loopUntil(
  ev: Evaluation,
  f: Frame,
  args: string[],
  stops: (result: string) => boolean | string,
): string {
  const s = seps(args, 4, 5);
  if (typeof s === "string") return s;
  const ef = ufunOf(ev, f, args[0]);
  if (typeof ef === "string") return ef;
  const cf = ufunOf(ev, f, args[1]);
  if (typeof cf === "string") return cf;
  const same = ef.id === cf.id && ef.text === cf.text;
  let out = "";
  const items = splitList(args[2], s.sep);
  for (let i = 0; i < items.length; i++) {
    if (!ev.tick()) break;
    const r = callAttr(ev, f, ef.id, ef.text, [items[i]]);
    out = i ? out + s.osep + r : r;
    if (out.length > ev.lbuf) return out.slice(0, ev.lbuf);
    const stop = stops(same ? r : callAttr(ev, f, cf.id, cf.text, [items[i]]));
    if (typeof stop === "string") return stop;
    if (stop) break;
  }
  return out;
}

/** The extra list family. */
export const listApplyFunctions: FunctionDef[] = [
  define("filterbool", 2, 13, {
    family: "lists",
    args:
      "filterbool([<object>/]<attribute>, <list>[, <delimiter>[, <output separator>[, <argument>...]]])",
    summary: "The items for which the attribute, with the item as %0, gives a true value.",
    example: { setup: ["&BIG me=gt(%0,2)"], think: "filterbool(big,1 2 3 4)", gives: "3 4" },
  }, (ev, f, args) => {
    const u = ufunOf(ev, f, args[0]);
    if (typeof u === "string") return u;
    const s = seps(args, 2, 3);
    if (typeof s === "string") return s;
    const extra = args.slice(4);
    const items = splitList(args[1], s.sep);
    const kept: string[] = [];
    applyEach(ev, items.length, "", (i) => {
      if (truthy(callAttr(ev, f, u.id, u.text, [items[i], ...extra]))) kept.push(items[i]);
      return "";
    });
    return kept.join(s.osep);
  }),
  define("mix", 2, 12, {
    family: "lists",
    args: "mix([<object>/]<attribute>, <list1>, <list2>[, <list>...][, <delimiter>])",
    summary:
      "The attribute run on the lists side by side: the first items as %0 %1..., then the second...",
    example: { setup: ["&CAT me=%0-%1"], think: "mix(cat,a b c,1 2 3)", gives: "a-1 b-2 c-3" },
  }, (ev, f, args) => {
    // With more than three arguments the last is always the delimiter.
    let sep = " ";
    let lists = args.slice(1);
    if (args.length >= 4) {
      const given = sepOf(args[args.length - 1]);
      if (typeof given !== "string") return given.error;
      sep = given;
      lists = args.slice(1, -1);
    }
    const u = ufunOf(ev, f, args[0]);
    if (typeof u === "string") return u;
    const split = lists.map((l) => splitList(l, sep));
    const n = Math.max(0, ...split.map((l) => l.length));
    return applyEach(
      ev,
      n,
      sep,
      (i) => callAttr(ev, f, u.id, u.text, split.map((l) => l[i] ?? "")),
    );
  }),
  define("step", 3, 5, {
    family: "lists",
    args: "step([<object>/]<attribute>, <list>, <step>[, <delimiter>[, <output separator>]])",
    summary: "The attribute run on the list's items, step at a time, as %0 %1...",
    example: { setup: ["&CAT me=%0-%1"], think: "step(cat,a b c d,2)", gives: "a-b c-d" },
  }, (ev, f, args) => {
    const s = seps(args, 3, 4);
    if (typeof s === "string") return s;
    const size = toInt32(args[2]);
    if (size < 1 || size > ENV_ARGS) {
      // MUX tells the executor rather than answering an error.
      ev.ports.delivery.toObject(f.executor, "Illegal step size.");
      return "";
    }
    const u = ufunOf(ev, f, args[0]);
    if (typeof u === "string") return u;
    // As MUX 2.12: an empty list is one empty item (step(me/a,,2) runs once).
    const items = splitTokens(args[1], s.sep);
    const groups = Math.ceil(items.length / size);
    // step() runs the attribute as the caller itself, as MUX's does.
    return applyEach(
      ev,
      groups,
      s.osep,
      (g) => callAttr(ev, f, f.executor, u.text, items.slice(g * size, g * size + size)),
    );
  }),
  define("munge", 3, 4, {
    family: "lists",
    args: "munge([<object>/]<attribute>, <keys>, <values>[, <delimiter>])",
    summary: "The values in the order the attribute (given the keys as %0) puts the keys in.",
    example: { setup: ["&SORTED me=sort(%0)"], think: "munge(sorted,c a b,3 1 2)", gives: "1 2 3" },
  }, (ev, f, args) => {
    const sep = sepOf(args[3]);
    if (typeof sep !== "string") return sep.error;
    const u = ufunOf(ev, f, args[0]);
    if (typeof u === "string") return u;
    const keys = splitList(args[1], sep), values = splitList(args[2], sep);
    if (keys.length !== values.length) return "#-1 LISTS MUST BE OF EQUAL SIZE";
    if (!keys.length) return "";
    // Each word of the result takes the value of the first unused equal key.
    const slots = new Map<string, number[]>();
    keys.forEach((k, i) => {
      const at = slots.get(k);
      if (at) at.push(i);
      else slots.set(k, [i]);
    });
    const result = callAttr(ev, f, u.id, u.text, [args[1], sep]);
    const out: string[] = [];
    for (const w of splitList(result, sep)) {
      const i = slots.get(w)?.shift();
      if (i !== undefined) out.push(values[i]);
    }
    return out.join(sep);
  }),
  define("shuffle", 1, 3, {
    family: "lists",
    args: "shuffle(<list>[, <delimiter>[, <output separator>]])",
    summary: "The list's items in a random order.",
    example: { think: "shuffle(a b c d)", gives: "c a d b", varies: true },
  }, (_ev, _f, args) => {
    const s = seps(args, 1, 2);
    if (typeof s === "string") return s;
    return shuffleInPlace(splitStyledList(args[0], s.sep)).join(s.osep);
  }),
  define("pickrand", 0, 2, {
    family: "random",
    args: "pickrand(<list>[, <delimiter>])",
    summary: "One item of the list, at random.",
    example: { think: "pickrand(red green blue)", gives: "green", varies: true },
  }, (_ev, _f, args) => {
    if (!args.length || args[0] === "") return "";
    const sep = sepOf(args[1]);
    if (typeof sep !== "string") return sep.error;
    const items = splitStyledList(args[0], sep);
    return items.length ? items[randomInt(0, items.length - 1)] : "";
  }),
  define("matchall", 2, 4, {
    family: "lists",
    args: "matchall(<list>, <pattern>[, <delimiter>[, <output separator>]])",
    summary: "The positions of every item that matches the wildcard pattern, or 0.",
    example: { think: "matchall(apple banana bob,b*)", gives: "2 3" },
  }, (ev, _f, args) => {
    const s = seps(args, 2, 3);
    if (typeof s === "string") return s;
    const out: string[] = [];
    splitTokens(args[0], s.sep).forEach((w, i) => {
      if (ev.wild(args[1], w)) out.push(String(i + 1));
    });
    if (!out.length) return "0";
    // MUX separates the positions with a space unless an output separator is given.
    return out.join(args[3] === undefined ? " " : s.osep);
  }),
  define("unique", 1, 4, {
    family: "lists",
    args: "unique(<list>[, <sort type>[, <delimiter>[, <output separator>]]])",
    summary:
      "The list with repeated items dropped (the first of each kept), compared as sort() compares.",
    example: { think: "unique(a b a c b)", gives: "a b c" },
  }, (_ev, _f, args) => {
    // Later MUX's: the first of each value kept, in order, compared as sort() compares.
    const s = seps(args, 2, 3);
    if (typeof s === "string") return s;
    const items = splitList(args[0], s.sep);
    const key = uniqueKey((args[1] ?? "").trim().toLowerCase()[0] ?? "a");
    const seen = new Set<string>();
    const out: string[] = [];
    for (const w of items) {
      const k = key(w);
      if (seen.has(k)) continue;
      seen.add(k);
      out.push(w);
    }
    return out.join(s.osep);
  }),
  define("lreplace", 3, 4, {
    family: "lists",
    args: "lreplace(<list>, <position>, <item>[, <delimiter>])",
    summary: "The list with the item at the position (from 0) replaced.",
    example: { think: "lreplace(a b c,1,x)", gives: "a x c" },
  }, (_ev, _f, args) => {
    const sep = sepOf(args[3]);
    if (typeof sep !== "string") return sep.error;
    const items = splitList(args[0], sep);
    const at = toInt32(args[1]);
    if (at >= 0 && at < items.length) items[at] = args[2];
    return items.join(sep);
  }),
  define("linsert", 3, 4, {
    family: "lists",
    args: "linsert(<list>, <position>, <item>[, <delimiter>])",
    summary: "The list with the item inserted before the position (from 0).",
    example: { think: "linsert(a b c,1,x)", gives: "a x b c" },
  }, (_ev, _f, args) => {
    const sep = sepOf(args[3]);
    if (typeof sep !== "string") return sep.error;
    const items = splitList(args[0], sep);
    const at = Math.max(0, Math.min(items.length, toInt32(args[1])));
    items.splice(at, 0, args[2]);
    return items.join(sep);
  }),
  define("while", 4, 6, {
    family: "lists",
    args:
      "while([<object>/]<eval attribute>, [<object>/]<condition attribute>, <list>, <stop value>[, <delimiter>[, <output separator>]])",
    summary:
      "The eval attribute run on each item in turn, stopping after the first whose condition gives the stop value.",
    example: {
      setup: ["&DBL me=mul(%0,2)", "&IS3 me=eq(%0,3)"],
      think: "while(dbl,is3,1 2 3 4 5,1)",
      gives: "2 4 6",
    },
  }, (ev, f, args) => loopUntil(ev, f, args, (r) => r === args[3])),
  define("until", 4, 6, {
    family: "lists",
    args:
      "until([<object>/]<eval attribute>, [<object>/]<condition attribute>, <list>, <pattern>[, <delimiter>[, <output separator>]])",
    summary:
      "The eval attribute run on each item in turn, stopping after the first whose condition matches the regular expression.",
    example: {
      setup: ["&DBL me=mul(%0,2)"],
      think: "until(dbl,dbl,1 2 3 4 5,^6$)",
      gives: "2 4 6",
    },
  }, (ev, f, args) => {
    const re = findRegexp(ev, args[3], false);
    if (typeof re === "string") return re;
    return loopUntil(ev, f, args, (r) => re.found(stripMarkup(r)));
  }),
];

/** The comparison key of a unique() sort type. */
function uniqueKey(type: string): (w: string) => string {
  switch (type) {
    case "i":
    case "c":
      return (w) => w.toLowerCase();
    case "n":
      return (w) => String(toInt(w));
    case "f":
      return (w) => (isReal(w) ? String(toReal(w)) : "0");
    case "d":
      return (w) => String(toInt(w.replace(/^#/, "")));
  }
  return (w) => w;
}
