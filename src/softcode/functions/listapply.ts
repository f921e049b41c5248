/**
 * More list functions: the appliers (filterbool, mix, step, munge, while, until), random picks
 * (shuffle, pickrand), matchall, unique, and PennMUSH's and later MUX's lreplace/linsert.
 */
import { define } from "./define.ts";
import type { FunctionDef } from "../types.ts";
import type { Evaluation } from "../eval.ts";
import type { Frame } from "../types.ts";
import { sepOf, splitList, splitStyledList } from "../list.ts";
import { isReal, toInt, toInt32, toReal, truthy } from "../numbers.ts";
import { stripMarkup } from "../markup.ts";
import { compileRegexp } from "./regexp.ts";
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
  define("filterbool", 2, 13, (ev, f, args) => {
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
  define("mix", 2, 12, (ev, f, args) => {
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
  define("step", 3, 5, (ev, f, args) => {
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
    const items = splitList(args[1], s.sep);
    const groups = Math.ceil(items.length / size);
    // step() runs the attribute as the caller itself, as MUX's does.
    return applyEach(
      ev,
      groups,
      s.osep,
      (g) => callAttr(ev, f, f.executor, u.text, items.slice(g * size, g * size + size)),
    );
  }),
  define("munge", 3, 4, (ev, f, args) => {
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
  define("shuffle", 1, 3, (_ev, _f, args) => {
    const s = seps(args, 1, 2);
    if (typeof s === "string") return s;
    return shuffleInPlace(splitStyledList(args[0], s.sep)).join(s.osep);
  }),
  define("pickrand", 0, 2, (_ev, _f, args) => {
    if (!args.length || args[0] === "") return "";
    const sep = sepOf(args[1]);
    if (typeof sep !== "string") return sep.error;
    const items = splitStyledList(args[0], sep);
    return items.length ? items[randomInt(0, items.length - 1)] : "";
  }),
  define("matchall", 2, 4, (ev, _f, args) => {
    const s = seps(args, 2, 3);
    if (typeof s === "string") return s;
    const out: string[] = [];
    splitList(args[0], s.sep).forEach((w, i) => {
      if (ev.wild(args[1], w)) out.push(String(i + 1));
    });
    if (!out.length) return "0";
    // MUX separates the positions with a space unless an output separator is given.
    return out.join(args[3] === undefined ? " " : s.osep);
  }),
  define("unique", 1, 4, (_ev, _f, args) => {
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
  define("lreplace", 3, 4, (_ev, _f, args) => {
    const sep = sepOf(args[3]);
    if (typeof sep !== "string") return sep.error;
    const items = splitList(args[0], sep);
    const at = toInt32(args[1]);
    if (at >= 0 && at < items.length) items[at] = args[2];
    return items.join(sep);
  }),
  define("linsert", 3, 4, (_ev, _f, args) => {
    const sep = sepOf(args[3]);
    if (typeof sep !== "string") return sep.error;
    const items = splitList(args[0], sep);
    const at = Math.max(0, Math.min(items.length, toInt32(args[1])));
    items.splice(at, 0, args[2]);
    return items.join(sep);
  }),
  define("while", 4, 6, (ev, f, args) => loopUntil(ev, f, args, (r) => r === args[3])),
  define("until", 4, 6, (ev, f, args) => {
    const re = compileRegexp(ev, args[3], false);
    if (typeof re === "string") return re;
    return loopUntil(ev, f, args, (r) => re.matcher(stripMarkup(r)).find());
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
