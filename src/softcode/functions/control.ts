/**
 * Control and attribute functions: u() and friends, registers, switch/ifelse, iteration and
 * the functions that apply an attribute to a list.
 */
import { define } from "./define.ts";
import { EV, EVAL_ARG, type Frame, type FunctionDef } from "../types.ts";
import type { Evaluation } from "../eval.ts";
import { sepOf, splitList } from "../list.ts";
import { toInt, truthy } from "../numbers.ts";
import { found, matchError, matchThing, NOTHING, parseObjAttr } from "../match.ts";
import {
  type AttrSite,
  type CallNode,
  K_SUB,
  newAttrSite,
  type Program,
  type SubNode,
  upperAscii,
} from "../compile.ts";
import type { SoftAttr } from "../ports.ts";
import { toWire } from "../markup.ts";
import { closeColour } from "../markup.ts";
import { isAscii, writeAscii } from "../buffers.ts";
import { inertItem, type Template } from "../template.ts";
import type { SplitList } from "../split_lists.ts";
import { switchMatch } from "../wild.ts";
import { zoneOf } from "../../world/zones.ts";
import { MAX_KEPT_TEXT, resolvedRef, upperName, validAttrName } from "../attr_refs.ts";

const MAX = 100;

/** Most items a list function walks (MUX's MAX_WORDS). */
const MAX_ITEMS = 8000;

/** Deepest nesting of iter() and its kin (MUX's MAX_ITEXT). */
const MAX_LOOPS = 100;

/** The attribute names' rules live with the references (src/softcode/attr_refs.ts). */
export { upperName, validAttrName };

/**
 * The attribute `ref` (`obj/attr` or `attr` on the executor) as the executor may read it:
 * the attribute, its object's id, or an error/empty result to return instead.
 */
function fetchAttr(
  ev: Evaluation,
  frame: Frame,
  ref: string,
): { attr: SoftAttr; id: string } | { out: string } {
  let id: string | null;
  let name: string;
  const known = ev.sc.attrRefs.get(ref);
  if (known !== null) {
    // `#12/FOO` or `FOO`, resolved before: only the world is looked at again.
    id = known.id ?? frame.executor;
    name = known.name;
    // A `#12` that names nothing leaves the whole text, never a valid name with its `/`.
    if (known.id !== null && ev.object(id) === null) return { out: "" };
  } else {
    const p = parseObjAttr(ev.ports.world, frame.executor, ref);
    id = p.id;
    name = p.attr;
    if (id === null) {
      // MUX falls back to the whole text as an attribute of the executor (never valid with `/`).
      id = frame.executor;
      name = ref;
    }
    if (!validAttrName(name)) return { out: "" };
    name = upperName(name);
  }
  const attr = readable(ev, frame, id, name);
  return typeof attr === "string" ? { out: attr } : { attr, id };
}

/** Attribute `name` of `id` (or of a parent) as the executor may read it, or the result instead. */
function readable(ev: Evaluation, frame: Frame, id: string, name: string): SoftAttr | string {
  const attr = ev.attrWithParents(id, name);
  if (!attr) return "";
  return ev.mayRead(frame.executor, id, attr) ? attr : "#-1 PERMISSION DENIED";
}

/**
 * What call `n` of u(), ulocal() or sortby() keeps (AttrSite), made at its first call (or made for
 * one evaluation when there is no call): a reference written as a literal is resolved here once
 * when it means the same whoever reads it (attr_refs.ts); for u() and ulocal() (`compact`), the
 * arguments' texts when they are literals and lone substitutions (AttrSite.argv).
 */
function siteOf(n: CallNode | null, ref: string, compact = false): AttrSite {
  let site = n === null ? null : n.site;
  if (site === null) {
    const first = n === null ? "" : n.args[0];
    // The literal's text is the very string every call is given (Evaluation.arg).
    const literal = typeof first !== "string" && first.text === ref ? ref : null;
    const r = literal !== null ? resolvedRef(literal) : null;
    site = newAttrSite(
      literal,
      r === null ? null : r.id,
      r === null ? null : r.name,
      compact && literal !== null && n !== null ? textArgs(n.args as Program[]) : null,
    );
    if (n !== null) n.site = site;
  }
  return site;
}

/**
 * The arguments after the first as AttrSite.argv keeps them (a literal's text, `%0`-`%9`'s digit,
 * another lone substitution's node), or null when any is something else.
 */
function textArgs(progs: readonly Program[]): (string | number | SubNode)[] | null {
  const argv: (string | number | SubNode)[] = [];
  for (let i = 1; i < progs.length; i++) {
    const p = progs[i];
    if (p.text !== null) {
      argv.push(p.text);
      continue;
    }
    const one = p.nodes.length === 1 ? p.nodes[0] : null;
    if (one === null || one.k !== K_SUB) return null;
    argv.push(one.c === "0" && !one.up ? one.arg.charCodeAt(0) - 48 : one);
  }
  return argv;
}

/**
 * Keeps on `site` what its literal reference (`site.name` not null) gives the executor now: the
 * object whose attribute runs and its text, or what to give instead. Kept under the world's
 * change count it was found under, unless an evaluation began meanwhile (a zone's enter lock
 * with an evaluation key, which may read more than the world) or was refused for lock nesting
 * depth (`begun` counts both): then found again next call.
 */
function keepVerdict(ev: Evaluation, frame: Frame, site: AttrSite): void {
  const seen = ev.ports.version.n;
  const began = ev.sc.begun;
  const id = site.id ?? frame.executor;
  let value = "";
  let out: string | null = null;
  // A `#12` that names nothing leaves the whole text, never a valid name with its `/`.
  if (site.id !== null && ev.object(id) === null) out = "";
  else {
    const attr = readable(ev, frame, id, site.name!);
    if (typeof attr === "string") out = attr;
    else value = attr.value;
  }
  site.viewer = frame.executor;
  site.holder = id;
  site.value = value;
  site.out = out;
  site.seen = ev.sc.begun === began ? seen : -1;
}

/**
 * The object a u() call's evaluated reference names when it is a plain `#123/<name>` (what
 * AttrRefs.get resolves without the matcher) ending with the `/<name>` its call's last such
 * reference ended with (`site.tail`; its name is `site.tailName`): a row's `u(##/sex)` or
 * `u([v(db)]/secs2hrs,...)` makes a new text every call, which was cut at its `/`, its name
 * upper-cased and both kept in a new record. Null for any other reference (fetchAttr reads it);
 * a plain one with another name is learned for the next call.
 */
function tailRef(ev: Evaluation, site: AttrSite, ref: string): string | null {
  if (ref.length > MAX_KEPT_TEXT || ref.charCodeAt(0) !== 35) return null;
  const tail = site.tail;
  const end = ref.length - tail.length;
  // The tail is `/` and a valid name (no other `/`), so the text's first `/` is where it starts.
  if (tail !== "" && end >= 2 && ref.endsWith(tail)) return ev.idAt(ref, end);
  const r = resolvedRef(ref);
  if (r === null || r.id === null) return null;
  site.tail = ref.slice(ref.indexOf("/"));
  site.tailName = r.name;
  return r.id;
}

/**
 * v()'s test of a name: one that starts as an attribute's may be one (a letter, `_`, `~`, `#`,
 * `.`; ASCII only, as the case-blind `/^[a-z_~#.]/i` it stands for), else it is a number.
 */
function startsAttrName(name: string): boolean {
  const c = name.charCodeAt(0);
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 126 || c === 35 ||
    c === 46;
}

/**
 * Runs an attribute as a u-function of `id` with `args` (%0-%9); `site` keeps its program on the
 * call (Evaluation.evalAttrAt).
 */
export function callAttr(
  ev: Evaluation,
  frame: Frame,
  id: string,
  text: string,
  args: readonly string[],
  site: AttrSite | null = null,
): string {
  // A kept site's text is known not to be empty without reading it (evalAttrAt gives "" for it).
  if (site === null && !text) return "";
  const f: Frame = { executor: id, caller: frame.executor, enactor: frame.enactor, args };
  return site === null ? ev.evalAttr(f, text) : ev.evalAttrAt(f, text, site);
}

/** u() and ulocal(); `n` is the call (absent when run without one). */
function ufun(
  ev: Evaluation,
  frame: Frame,
  args: string[],
  local: boolean,
  n: CallNode | undefined,
): string {
  const site = n === undefined ? null : siteOf(n, args[0], true);
  let id: string;
  let text: string;
  if (site !== null && site.name !== null) {
    // `#12/FOO` or `FOO` written in the call, resolved at its first: the world is read only
    // when it changed since the verdict kept, or another executor calls.
    if (site.seen !== ev.ports.version.n || site.viewer !== frame.executor) {
      keepVerdict(ev, frame, site);
    }
    if (site.out !== null) return site.out;
    id = site.holder;
    text = site.value;
  } else {
    let attr: SoftAttr | string;
    const tailId = site === null ? null : tailRef(ev, site, args[0]);
    if (tailId !== null) {
      // As fetchAttr reads a `#123/<name>` (AttrRefs.get), without cutting the text.
      id = tailId;
      if (ev.object(id) === null) return "";
      attr = readable(ev, frame, id, site!.tailName);
    } else {
      const a = fetchAttr(ev, frame, args[0]);
      if ("out" in a) return a.out;
      id = a.id;
      attr = a.attr;
    }
    if (typeof attr === "string") return attr;
    text = attr.value;
  }
  // %0-%9 are the call's own array without its first item, not a copy: Evaluation.call makes
  // one for each call of an eager function that is not a leaf (a leaf's is kept on its node),
  // and nothing writes a frame's arguments after.
  args.shift();
  if (!local) return callAttr(ev, frame, id, text, args, site);
  const saved = new Map(ev.regs);
  try {
    return callAttr(ev, frame, id, text, args, site);
  } finally {
    ev.regs = saved;
  }
}

/** Replaces `##`, `#@` and `#$` in a text (MUX's replace_tokens). */
export function replaceTokens(
  s: string,
  bound: string | null,
  place: string | null,
  sw: string | null,
): string {
  // Most texts hold no token to replace (a `#12` is not one): given back as they are, the
  // same string, so the parse cache finds it without building it again.
  let first = s.indexOf("#");
  while (first >= 0) {
    const next = s[first + 1];
    if (
      (next === "#" && bound !== null) || (next === "@" && place !== null) ||
      (next === "$" && sw !== null)
    ) break;
    first = s.indexOf("#", first + 1);
  }
  if (first < 0) return s;
  let out = "";
  let i = 0;
  for (;;) {
    const at = s.indexOf("#", i);
    if (at < 0) break;
    out += s.slice(i, at);
    const next = s[at + 1];
    if (next === "#" && bound !== null) {
      out += bound;
      i = at + 2;
    } else if (next === "@" && place !== null) {
      out += place;
      i = at + 2;
    } else if (next === "$" && sw !== null) {
      out += sw;
      i = at + 2;
    } else {
      out += "#";
      i = at + 1;
    }
  }
  return out + s.slice(i);
}

/**
 * iter()'s body for each item of `list`: MUX's textual `##`/`#@` replacement, or the same body
 * parsed once when that gives the same (src/softcode/template.ts). The template is found once
 * for the loop; `inert` says every item is inert (splitInert), else each item is looked at.
 */
function iterBody(
  ev: Evaluation,
  f: Frame,
  body: string,
  list: string,
  inert: boolean,
): (item: string, n: number) => string {
  let t: Template | null | undefined;
  // Whether the text MUX would build fits the output limit for every item: no item is longer
  // than the list, no position has more than MAX_ITEMS's digits.
  let fitsAll = false;
  return (item, n) => {
    if (inert || inertItem(item)) {
      if (t === undefined) {
        t = ev.sc.template(body, EVAL_ARG);
        fitsAll = t !== null &&
          body.length + t.tokens * Math.max(list.length, MAX_ITEMS_DIGITS) <= ev.lbuf;
      }
      // The text MUX would build must fit the output limit, or MUX would cut it before parsing.
      if (t && (fitsAll || body.length + t.tokens * Math.max(item.length, digits(n)) <= ev.lbuf)) {
        // The position is given as a number: made text only if the body reads it.
        return ev.runItem(f, t, item, n);
      }
    }
    return ev.eval(f, replaceTokens(body, item, String(n), null), EVAL_ARG);
  };
}

/** Decimal digits of a positive integer (String(n).length, without making the string). */
function digits(n: number): number {
  let d = 1;
  for (let x = n; x >= 10; x = Math.floor(x / 10)) d++;
  return d;
}

/** Digits of the last position a loop reaches (MAX_ITEMS). */
const MAX_ITEMS_DIGITS = String(MAX_ITEMS).length;

/**
 * A list split for iter() and list(), and whether all its items are inert (template.ts); at
 * spaces through the engine's kept splits (src/softcode/split_lists.ts).
 */
function loopItems(ev: Evaluation, list: string, sep: string): SplitList {
  return sep === " " ? ev.sc.splits.get(list) : { items: splitList(list, sep), inert: false };
}

/** A delimiter given to a lazy function: evaluated when longer than one character. */
function lazySep(ev: Evaluation, frame: Frame, raw: string | undefined, allowNull = false) {
  if (raw === undefined) return sepOf(undefined);
  const v = raw.length > 1 ? ev.eval(frame, raw, EV.EVAL | EV.FCHECK) : raw;
  if (v === "\r\n") return v;
  return sepOf(v, { allowNull });
}

function switchFn(
  ev: Evaluation,
  frame: Frame,
  args: string[],
  wild: boolean,
  call: CallNode | undefined,
): string {
  // Its arguments' parses kept on the call (Evaluation.evalLazy) when `args` are the call's.
  const n = call !== undefined && call.args === args ? call : null;
  const value = lazyArg(ev, frame, args, n, 0);
  let i = 1;
  for (; i < args.length - 1; i += 2) {
    if (ev.halted) return "";
    const pat = lazyArg(ev, frame, args, n, i);
    if (wild ? switchMatch(pat, value, ev.more) : pat === value) {
      return switchResult(ev, frame, args, n, i + 1, value);
    }
  }
  if (i < args.length) return switchResult(ev, frame, args, n, i, value);
  return "";
}

/** A lazy function's argument `i` evaluated, through its call's kept parse when there is one. */
function lazyArg(
  ev: Evaluation,
  frame: Frame,
  args: string[],
  n: CallNode | null,
  i: number,
): string {
  return n !== null ? ev.evalLazy(frame, n, i, EVAL_ARG) : ev.eval(frame, args[i], EVAL_ARG);
}

/** switch()'s result `i` evaluated, `#$` replaced by the value first (MUX's replace_tokens). */
function switchResult(
  ev: Evaluation,
  frame: Frame,
  args: string[],
  n: CallNode | null,
  i: number,
  value: string,
): string {
  if (n !== null && !ev.lazyDollar(n, i)) return ev.evalLazy(frame, n, i, EVAL_ARG);
  return ev.eval(frame, replaceTokens(args[i], null, null, value), EVAL_ARG);
}

/**
 * Whether a body's own colour codes may leave its result coloured: MUX's evaluation of the body
 * then ends its result back at normal (`[iter(a b,%xr##)]` has a plain space between), while
 * colour that came in with an item (`[iter(%xra b,##)]`) runs on, as MUX's does.
 */
function colourCloses(body: string): boolean {
  return COLOUR_CODE.test(body);
}
const COLOUR_CODE = /%[xXcC]/;

/**
 * Runs `each` for each item of a list with itext/inum set, joining the results (those past the
 * output limit dropped); each result closed to normal when `close` (see colourCloses).
 */
function loop(
  ev: Evaluation,
  items: readonly string[],
  osep: string,
  each: (item: string, n: number) => string,
  close = false,
): string {
  // Past MUX's MAX_ITEXT levels the loop still runs, without itext()/inum() of its own.
  const tracked = ev.itext.length < MAX_LOOPS;
  const n = Math.min(items.length, MAX_ITEMS);
  // The results written as they come into a byte buffer the engine keeps for this loop while
  // they are ASCII (most are), and made a string once: an array of the results and join()'s own
  // array of them were 16 of the 20 KiB of fresh memory a line of 1,000 items made.
  const bufs = ev.sc.buffers;
  let slot = isAscii(osep) ? bufs.enterLoop() : -1;
  let bytes = slot < 0 ? null : bufs.loopBytes(slot, 0, 0);
  let written = 0;
  // Otherwise (or from the first result that is not ASCII on) the results, joined at the end;
  // made at its most items once: pushing onto an empty array grew it by copies.
  let parts: string[] | null = slot < 0 ? new Array(n) : null;
  let done = 0;
  let results = 0;
  let length = -osep.length;
  if (tracked) {
    ev.itext.push("");
    ev.inum.push(0);
  }
  const top = ev.itext.length - 1;
  try {
    for (let i = 0; i < n; i++) {
      if (!ev.tick()) break;
      if (tracked) {
        ev.itext[top] = items[i];
        ev.inum[top] = i + 1;
      }
      const r = close ? closeColour(each(items[i], i + 1)) : each(items[i], i + 1);
      // Once the output is full the rest still run, their results dropped: MUX's loops stop
      // only at the invocation limit or the deadline, so each item's setq() or pemit() happens.
      if (length > ev.lbuf) continue;
      length += osep.length + r.length;
      if (bytes !== null) {
        let end = -1;
        if (r.length < FLAT_BELOW) {
          const at = results === 0 ? 0 : written + osep.length;
          bytes = bufs.loopBytes(slot, at + r.length, written);
          if (results > 0) writeAscii(bytes, written, osep);
          end = writeAscii(bytes, at, r);
        }
        if (end >= 0) written = end;
        else {
          // The text so far stands for the results before this one.
          parts = new Array(n - i + 1);
          if (results > 0) parts[done++] = bufs.loopText(slot, written);
          bytes = null;
          bufs.leaveLoop();
          slot = -1;
        }
      }
      if (parts !== null) parts[done++] = r;
      results++;
    }
    if (bytes !== null) return bufs.loopText(slot, Math.min(written, ev.lbuf));
  } finally {
    if (tracked) {
      ev.itext.pop();
      ev.inum.pop();
    }
    if (slot >= 0) bufs.leaveLoop();
  }
  parts = parts!;
  if (done < parts.length) parts.length = done;
  const out = parts.join(osep);
  return out.length > ev.lbuf ? out.slice(0, ev.lbuf) : out;
}

/**
 * A loop's result shorter than this is written into its byte buffer: V8 joins shorter texts into
 * a flat copy, so reading its characters makes nothing, where a longer one made by joining
 * (`ljust(##,12,.)[rjust(#@,4)]`) is a pair of texts that reading flattens into a new copy,
 * which join() copies from without one. (V8's ConsString::kMinLength; any value is correct.)
 */
const FLAT_BELOW = 13;

/** The u-function an attribute reference names, for map(), filter() and the other list appliers. */
export function ufunOf(
  ev: Evaluation,
  frame: Frame,
  ref: string,
): { id: string; text: string } | string {
  const a = fetchAttr(ev, frame, ref);
  if ("out" in a) return a.out;
  return { id: a.id, text: a.attr.value };
}

/** The control family. */
export const controlFunctions: FunctionDef[] = [
  define("u", 1, MAX, {
    family: "control",
    args: "u([<object>/]<attribute>[, <arg>...])",
    summary: "Runs the attribute as a function, the arguments as %0 to %9, and gives its result.",
    example: { setup: ["&DOUBLE me=mul(%0,2)"], think: "u(me/double,21)", gives: "42" },
  }, (ev, f, args, n) => ufun(ev, f, args, false, n)),
  define("zfun", 2, 11, {
    family: "control",
    args: "zfun([<object>/]<attribute>, <arg0>[, <arg1>...])",
    summary: "u() of an attribute on your zone master object (or on the zone master of the " +
      "object named), run as the zone master.",
    example: { think: "zfun(greet,Alice)", gives: "#-1 INVALID ZONE" },
    more: "The zone master (@chzone, zone()) runs the attribute, its parents' too, with you as " +
      "the caller and the arguments as %0 to %9. #-1 INVALID ZONE when there is no zone " +
      "master, #-1 NO SUCH USER FUNCTION for a name that cannot be an attribute's, and " +
      "#-1 PERMISSION DENIED for an attribute you may not read. At least one argument " +
      "besides the attribute, as in TinyMUX.",
  }, (ev, f, args) => {
    // MUX: `obj/attr` names the object whose zone is meant only when the object matches;
    // otherwise the whole text is an attribute name of the executor's zone master.
    const p = parseObjAttr(ev.ports.world, f.executor, args[0]);
    const holder = ev.object(p.id ?? f.executor);
    const name = p.id === null ? args[0].trim() : p.attr;
    const zone = holder ? zoneOf(holder) : "";
    const zmo = zone ? ev.object(zone) : null;
    if (!zmo) return "#-1 INVALID ZONE";
    if (!validAttrName(name)) return "#-1 NO SUCH USER FUNCTION";
    const attr = ev.attrWithParents(zmo.id, upperName(name));
    if (!attr) return "";
    if (!ev.mayRead(f.executor, zmo.id, attr)) return "#-1 PERMISSION DENIED";
    return callAttr(ev, f, zmo.id, attr.value, args.slice(1));
  }),
  define("ulocal", 1, MAX, {
    family: "control",
    args: "ulocal([<object>/]<attribute>[, <arg>...])",
    summary: "u(), with the registers as they were once it is done.",
    example: {
      setup: ["&SETX me=setq(0,changed)"],
      think: "[setq(0,kept)][ulocal(me/setx)]%q0",
      gives: "kept",
    },
  }, (ev, f, args, n) => ufun(ev, f, args, true, n)),
  define("udefault", 2, MAX, {
    family: "control",
    args: "udefault([<object>/]<attribute>, <default>[, <arg>...])",
    summary: "u() of the attribute, or the default when the attribute is empty or missing.",
    example: { think: "udefault(me/nosuch,none)", gives: "none" },
  }, (ev, f, args) => {
    const ref = ev.eval(f, args[0], EVAL_ARG);
    const a = fetchAttr(ev, f, ref);
    if ("out" in a || !a.attr.value) return ev.eval(f, args[1], EVAL_ARG);
    const rest = args.slice(2).map((x) => ev.eval(f, x, EVAL_ARG));
    return callAttr(ev, f, a.id, a.attr.value, rest);
  }, { lazy: true }),
  define("v", 1, 1, {
    family: "attributes",
    args: "v(<attribute>)",
    summary: "The value of one of your attributes (a digit: that argument, %0 to %9).",
    example: { setup: ["&NOTE me=hello"], think: "v(note)", gives: "hello" },
  }, (ev, f, args) => {
    const name = args[0].trim();
    // MUX: a name that could start an attribute's is one (v(o) is %o when one character long);
    // anything else is an argument number, read as atol() does (v(1st) is %1, v(!) is %0).
    if (startsAttrName(name)) {
      if (name.length === 1) return ev.eval(f, "%" + name, EVAL_ARG);
      if (!validAttrName(name)) return "";
      return ev.readableAttr(f.executor, f.executor, name)?.value ?? "";
    }
    const n = Number(/^[+-]?\d{0,9}/.exec(name)![0].replace(/^[+-]?$/, "0"));
    return n >= 0 ? f.args[n] ?? "" : "";
  }, { raw: true }),
  define("get", 1, 1, {
    family: "attributes",
    args: "get(<object>/<attribute>)",
    summary: "The attribute's value as stored, not evaluated.",
    example: { setup: ["&NOTE me=hello"], think: "get(me/note)", gives: "hello" },
  }, (ev, f, args) => {
    const r = getAttr(ev, f, args[0]);
    return typeof r === "string" ? r : r.value;
  }, { raw: true }),
  define("xget", 2, 2, {
    family: "attributes",
    args: "xget(<object>, <attribute>)",
    summary: "get(), with the object and the attribute apart.",
    example: { setup: ["&NOTE me=hello"], think: "xget(me,note)", gives: "hello" },
  }, (ev, f, args) => {
    if (!args[0] || !args[1]) return "";
    const r = getAttr(ev, f, `${args[0]}/${args[1]}`);
    return typeof r === "string" ? r : r.value;
  }, { raw: true }),
  define("get_eval", 1, 1, {
    family: "attributes",
    args: "get_eval(<object>/<attribute>)",
    summary: "The attribute's value, evaluated.",
    example: { setup: ["&SUM me=[add(1,2)]"], think: "get_eval(me/sum)", gives: "3" },
  }, (ev, f, args) => {
    const r = getAttr(ev, f, args[0]);
    if (typeof r === "string") return r;
    const self = { executor: r.id, caller: f.executor, enactor: f.executor, args: [] };
    return ev.evalAttr(self, r.value, EV.EVAL);
  }),
  define("eval", 1, 2, {
    family: "attributes",
    args: "eval(<object>, <attribute>) or eval(<text>)",
    summary:
      "get_eval() with the object and attribute apart; with one argument, the text evaluated once more.",
    example: {
      setup: ["&SUM me=[add(1,2)]"],
      think: "[eval(me,sum)] [eval(\\[add(2,2)\\])]",
      gives: "3 4",
    },
  }, (ev, f, args) => {
    if (args.length === 1) return ev.eval(f, args[0], EVAL_ARG);
    // As MUX 2.12: an empty object or attribute answers nothing.
    if (args[0] === "" || args[1] === "") return "";
    const r = getAttr(ev, f, `${args[0]}/${args[1]}`);
    if (typeof r === "string") return r;
    const self = { executor: r.id, caller: f.executor, enactor: f.executor, args: [] };
    return ev.evalAttr(self, r.value, EV.EVAL);
  }),
  define("default", 2, 2, {
    family: "attributes",
    args: "default(<object>/<attribute>, <default>)",
    summary: "The attribute's value, or the default when it is empty or you may not read it.",
    example: { think: "default(me/nosuch,none)", gives: "none" },
  }, (ev, f, args) => {
    const ref = ev.eval(f, args[0], EVAL_ARG);
    const r = getAttr(ev, f, ref);
    if (typeof r !== "string" && r.value) return r.value;
    return ev.eval(f, args[1], EVAL_ARG);
  }, { lazy: true }),
  define("edefault", 2, 2, {
    family: "attributes",
    args: "edefault(<object>/<attribute>, <default>)",
    summary: "The attribute evaluated, or the default when it is empty.",
    example: { setup: ["&SUM me=add(1,2)"], think: "edefault(me/sum,none)", gives: "3" },
  }, (ev, f, args) => {
    const ref = ev.eval(f, args[0], EVAL_ARG);
    const r = getAttr(ev, f, ref);
    if (typeof r !== "string" && r.value) {
      return ev.evalAttr({ ...f, executor: r.id, caller: f.executor }, r.value);
    }
    return ev.eval(f, args[1], EVAL_ARG);
  }, { lazy: true }),
  define("hasattr", 2, 2, {
    family: "attributes",
    args: "hasattr(<object>, <attribute>)",
    summary: "1 when the object has the attribute and you may see it.",
    example: { setup: ["&NOTE me=hello"], think: "hasattr(me,note)", gives: "1" },
  }, (ev, f, args) => hasAttr(ev, f, args, false)),
  define("hasattrp", 2, 2, {
    family: "attributes",
    args: "hasattrp(<object>, <attribute>)",
    summary: "hasattr(), looking in the object's parents too.",
    example: { setup: ["&NOTE me=hello"], think: "hasattrp(me,note)", gives: "1" },
  }, (ev, f, args) => hasAttr(ev, f, args, true)),
  define("lattr", 1, 1, {
    family: "attributes",
    args: "lattr(<object>[/<pattern>])",
    summary:
      "The names of the object's attributes you may see (those matching the wildcard pattern).",
    example: {
      setup: ["&NOTE me=hello", "&NICK me=Wiz"],
      think: "lattr(me/N*)",
      gives: "NICK NOTE",
    },
  }, (ev, f, args) => {
    const p = parseObjAttr(ev.ports.world, f.executor, args[0]);
    const ref = p.slash ? args[0].slice(0, args[0].indexOf("/")) : args[0];
    const r = p.slash ? (p.id ?? "#-1") : matchThing(ev.ports.world, f.executor, ref);
    // MUX's lattr() says NO MATCH where others say NOT FOUND; `me/` names no attribute.
    if (!found(r)) return r === NOTHING ? "#-1 NO MATCH" : matchError(r);
    const pattern = p.slash ? p.attr : "*";
    if (!pattern) return "";
    const names = ev.ports.attributes.names(r);
    const out: string[] = [];
    let len = 0;
    for (const n of names) {
      if (!ev.wild(pattern, n)) continue;
      const a = ev.ports.attributes.get(r, n);
      if (!a || !ev.mayRead(f.executor, r, a)) continue;
      len += n.length + 1;
      if (len > ev.lbuf) break;
      out.push(n);
    }
    return out.join(" ");
  }),
  define("setq", 2, 2, {
    family: "registers",
    args: "setq(<register>, <value>)",
    summary: "Sets a register (0-9, a-z, or a name), read as %q<register> or r(); gives nothing.",
    example: { think: "[setq(0,hi)]%q0", gives: "hi" },
  }, (ev, _f, args) => setReg(ev, args[0], args[1]) ?? ""),
  define(
    "setr",
    2,
    2,
    {
      family: "registers",
      args: "setr(<register>, <value>)",
      summary: "setq(), giving the value too.",
      example: { think: "setr(a,hi) %qa", gives: "hi hi" },
    },
    (ev, _f, args) => setReg(ev, args[0], args[1]) ?? args[1],
    { raw: true },
  ),
  define("r", 1, 1, {
    family: "registers",
    args: "r(<register>)",
    summary: "The register's value.",
    example: { think: "[setq(name,Bob)][r(name)]", gives: "Bob" },
  }, (ev, _f, args) => {
    const k = regKey(ev, args[0]);
    return k === null ? "#-1 INVALID GLOBAL REGISTER" : ev.reg(k);
  }, { raw: true }),
  define("localize", 1, 1, {
    family: "registers",
    args: "localize(<code>)",
    summary: "Evaluates the code, then puts the registers back as they were.",
    example: { think: "[setq(0,a)][localize(setq(0,b)%q0)]%q0", gives: "ba" },
  }, (ev, f, args) => {
    const saved = new Map(ev.regs);
    try {
      return ev.eval(f, args[0], EVAL_ARG);
    } finally {
      ev.regs = saved;
    }
  }, { lazy: true }),
  define(
    "switch",
    2,
    MAX,
    {
      family: "control",
      args: "switch(<value>, <pattern>, <result>[, <pattern>, <result>...][, <default>])",
      summary:
        "The result for the first wildcard pattern the value matches (<n and >n compare); #$ in a result is the value.",
      example: { think: "switch(apple,b*,berry,a*,fruit #$,other)", gives: "fruit apple" },
    },
    (ev, f, args, call) => switchFn(ev, f, args, true, call),
    { lazy: true },
  ),
  define(
    "case",
    2,
    MAX,
    {
      family: "control",
      args: "case(<value>, <text>, <result>[, <text>, <result>...][, <default>])",
      summary: "switch() with exact matches only.",
      example: { think: "case(2,1,one,2,two,many)", gives: "two" },
    },
    (ev, f, args, call) => switchFn(ev, f, args, false, call),
    { lazy: true },
  ),
  define("ifelse", 3, 3, {
    family: "control",
    args: "ifelse(<condition>, <if true>, <if false>)",
    summary: "Evaluates only the branch the condition chooses.",
    example: { think: "ifelse(gt(5,3),bigger,smaller)", gives: "bigger" },
  }, (ev, f, args) => {
    const c = ev.eval(f, args[0], EVAL_ARG);
    return ev.eval(f, truthy(c) ? args[1] : args[2], EVAL_ARG);
  }, { lazy: true }),
  define("if", 2, 3, {
    family: "control",
    args: "if(<condition>, <if true>[, <if false>])",
    summary: "ifelse() with the false branch optional.",
    example: { think: "if(1,yes)", gives: "yes" },
  }, (ev, f, args) => {
    const c = ev.eval(f, args[0], EVAL_ARG);
    if (truthy(c)) return ev.eval(f, args[1], EVAL_ARG);
    return args.length > 2 ? ev.eval(f, args[2], EVAL_ARG) : "";
  }, { lazy: true }),
  define("iter", 2, 4, {
    family: "lists",
    args: "iter(<list>, <code>[, <delimiter>[, <output separator>]])",
    summary:
      "Evaluates the code for each item (## the item, #@ its position), the results joined with spaces.",
    example: { think: "iter(a b c,##:#@)", gives: "a:1 b:2 c:3" },
  }, (ev, f, args) => {
    const sep = lazySep(ev, f, args[2]);
    if (typeof sep !== "string") return sep.error;
    // Unlike most list functions, iter()'s output separator defaults to a space.
    const osep = args[3] === undefined ? " " : lazySep(ev, f, args[3], true);
    if (typeof osep !== "string") return osep.error;
    const list = ev.eval(f, args[0], EVAL_ARG);
    const { items, inert } = loopItems(ev, list, sep);
    return loop(ev, items, osep, iterBody(ev, f, args[1], list, inert), colourCloses(args[1]));
  }, { lazy: true }),
  define("list", 2, 3, {
    family: "lists",
    args: "list(<list>, <expression>[, <delimiter>])",
    summary: "iter(), its results sent to you one line each instead of given back.",
    example: { think: "list(a b,## is #@)", gives: "" },
  }, (ev, f, args) => {
    // iter() whose results go to the enactor, one line each, instead of being returned.
    const sep = lazySep(ev, f, args[2]);
    if (typeof sep !== "string") return sep.error;
    const list = ev.eval(f, args[0], EVAL_ARG);
    const { items, inert } = loopItems(ev, list, sep);
    const body = iterBody(ev, f, args[1], list, inert);
    loop(ev, items, "", (item, n) => {
      const line = body(item, n);
      ev.ports.delivery.toObject(f.enactor, toWire(line));
      return "";
    });
    return "";
  }, { lazy: true }),
  define("itext", 0, 1, {
    family: "lists",
    args: "itext(<level>)",
    summary: "The item of an enclosing iter() (0 the innermost).",
    example: { think: "iter(a b,iter(1 2,itext(1)[itext(0)]))", gives: "a1 a2 b1 b2" },
  }, (ev, _f, args) => {
    const n = Math.max(0, args.length ? toInt(args[0]) : 0);
    const at = ev.itext.length - n - 1;
    return at >= 0 ? ev.itext[at] : "";
  }),
  define("inum", 0, 1, {
    family: "lists",
    args: "inum(<level>)",
    summary: "The position of an enclosing iter()'s item (0 the innermost).",
    example: { think: "iter(x y z,inum(0))", gives: "1 2 3" },
  }, (ev, _f, args) => {
    const n = Math.max(0, args.length ? toInt(args[0]) : 0);
    const at = ev.inum.length - n - 1;
    return at >= 0 ? String(ev.inum[at]) : "";
  }),
  define("ilev", 0, 0, {
    family: "lists",
    args: "ilev()",
    summary: "How deep the current iter() is nested (0 the outermost, -1 outside any).",
    example: { think: "iter(a,iter(b,ilev()))", gives: "1" },
  }, (ev) => String(ev.itext.length - 1)),
  define("map", 2, 13, {
    family: "lists",
    args: "map([<object>/]<attribute>, <list>[, <delimiter>[, <output separator>]])",
    summary:
      "u() of the attribute for each item (%0 the item, %1 its position), the results joined.",
    example: { setup: ["&DOUBLE me=mul(%0,2)"], think: "map(me/double,1 2 3)", gives: "2 4 6" },
  }, (ev, f, args) => {
    const u = ufunOf(ev, f, args[0]);
    if (typeof u === "string") return u;
    const sep = sepOf(args[2]);
    if (typeof sep !== "string") return sep.error;
    const osep = args[3] === undefined ? sep : sepOf(args[3], { allowNull: true });
    if (typeof osep !== "string") return osep.error;
    const extra = args.slice(4);
    return loop(
      ev,
      splitList(args[1], sep),
      osep,
      (item) => callAttr(ev, f, u.id, u.text, [item, ...extra]),
      colourCloses(u.text),
    );
  }),
  define("filter", 2, 13, {
    family: "lists",
    args: "filter([<object>/]<attribute>, <list>[, <delimiter>[, <output separator>]])",
    summary: "The items for which u() of the attribute gives 1.",
    example: {
      setup: ["&ISODD me=mod(%0,2)"],
      think: "filter(me/isodd,1 2 3 4 5)",
      gives: "1 3 5",
    },
  }, (ev, f, args) => {
    const u = ufunOf(ev, f, args[0]);
    if (typeof u === "string") return u;
    const sep = sepOf(args[2]);
    if (typeof sep !== "string") return sep.error;
    const osep = args[3] === undefined ? sep : sepOf(args[3], { allowNull: true });
    if (typeof osep !== "string") return osep.error;
    const extra = args.slice(4);
    const kept: string[] = [];
    loop(ev, splitList(args[1], sep), "", (item) => {
      if (callAttr(ev, f, u.id, u.text, [item, ...extra]) === "1") kept.push(item);
      return "";
    });
    return kept.join(osep);
  }),
  define("fold", 2, 4, {
    family: "lists",
    args: "fold([<object>/]<attribute>, <list>[, <base>[, <delimiter>]])",
    summary:
      "Folds the list with the attribute: %0 the result so far (the base, or the first item), %1 the next item.",
    example: { setup: ["&SUM2 me=add(%0,%1)"], think: "fold(me/sum2,1 2 3 4)", gives: "10" },
  }, (ev, f, args) => {
    const u = ufunOf(ev, f, args[0]);
    if (typeof u === "string") return u;
    const sep = sepOf(args[3]);
    if (typeof sep !== "string") return sep.error;
    // An empty list still calls the function once, with an empty item, as MUX's does.
    const items = splitList(args[1], sep);
    if (!items.length) items.push("");
    let acc: string;
    let start: number;
    if (args.length >= 3) {
      acc = callAttr(ev, f, u.id, u.text, [args[2], items[0]]);
      start = 1;
    } else {
      acc = callAttr(ev, f, u.id, u.text, [items[0], items[1] ?? ""]);
      start = 2;
    }
    loop(ev, items.slice(start), "", (item) => {
      acc = callAttr(ev, f, u.id, u.text, [acc, item]);
      return "";
    });
    return acc;
  }),
  define("foreach", 2, 4, {
    family: "lists",
    args: "foreach([<object>/]<attribute>, <text>[, <start>[, <end>]])",
    summary:
      "u() of the attribute for each character of the text (%0), between the start and end characters when given.",
    example: { setup: ["&ANGLE me=<%0>"], think: "foreach(me/angle,abc)", gives: "<a><b><c>" },
  }, (ev, f, args) => {
    // As MUX: a start character needs an end one.
    if (args.length === 3) return "#-1 FUNCTION (FOREACH) EXPECTS 2 OR 4 ARGUMENTS";
    const u = ufunOf(ev, f, args[0]);
    if (typeof u === "string") return u;
    const chars = [...args[1]];
    const start = args[2] ?? "";
    const end = args[3] ?? "";
    let on = start === "";
    let out = "";
    for (const ch of chars) {
      if (!ev.tick()) break;
      if (!on) {
        if (ch === start) on = true;
        else out += ch;
        continue;
      }
      if (end !== "" && ch === end) {
        on = start === "";
        continue;
      }
      const r = callAttr(ev, f, u.id, u.text, [ch]);
      // As loop(): once the output is full the rest still run, their results dropped.
      if (out.length <= ev.lbuf) out += r;
    }
    return out;
  }),
  define("sortby", 2, 4, {
    family: "lists",
    args: "sortby([<object>/]<attribute>, <list>[, <delimiter>[, <output separator>]])",
    summary:
      "The list sorted by the attribute, which compares %0 with %1 (negative, 0 or positive).",
    example: {
      setup: ["&BYLEN me=sub(strlen(%0),strlen(%1))"],
      think: "sortby(me/bylen,ccc a bb)",
      gives: "a bb ccc",
    },
  }, (ev, f, args, n) => {
    const u = ufunOf(ev, f, args[0]);
    if (typeof u === "string") return u;
    const sep = sepOf(args[2]);
    if (typeof sep !== "string") return sep.error;
    const osep = args[3] === undefined ? sep : sepOf(args[3], { allowNull: true });
    if (typeof osep !== "string") return osep.error;
    // At spaces through the engine's kept splits, as iter() splits: `+who` sorts the lwho() its
    // iter() just walked. insertionSort sorts a copy, so a kept split is never written.
    const all = sep === " " ? ev.sc.splits.get(args[1]).items : splitList(args[1], sep);
    const items = all.length > MAX_ITEMS ? all.slice(0, MAX_ITEMS) : all;
    // MUX's sort, comparison for comparison; once limits trip every comparison gives 0.
    const sorted = insertionSort(items, comparison(ev, f, u.id, u.text, n));
    return sorted.join(osep);
  }),
  define(
    "s",
    1,
    1,
    {
      family: "control",
      args: "s(<text>)",
      summary: "Evaluates the text once more.",
      example: { setup: ["&CODE me=[add(1,1)]"], think: "s(get(me/code))", gives: "2" },
    },
    // As MUX 2.12: the second evaluation keeps braces (s({a}) is {a}).
    (ev, f, args) => ev.eval(f, args[0], EV.EVAL | EV.FCHECK),
    { parse: 1 },
  ),
  define("objeval", 2, 2, {
    family: "control",
    args: "objeval(<object>, <code>)",
    summary: "Evaluates the code as the object when you control it (else as yourself).",
    example: { think: "objeval(box,name(me))", gives: "box" },
  }, (ev, f, args) => {
    // As MUX 2.12: no object (before evaluation) answers nothing.
    if (args[0] === "") return "";
    const who = ev.eval(f, args[0], EVAL_ARG);
    const r = matchThing(ev.ports.world, f.executor, who);
    if (!found(r)) return matchError(r);
    const o = ev.object(r), me = ev.object(f.executor);
    const id = o && me && ev.ports.access.controls(me, o) ? r : f.executor;
    return ev.eval({ ...f, executor: id, caller: f.executor }, args[1], EVAL_ARG);
  }, { lazy: true }),
];

/**
 * sortby()'s comparison of two items by attribute `text` of `id`, as u() of it with the two as %0
 * and %1: its program kept on the call (`n`, as u()'s is: Evaluation.evalAttrAt), and one frame
 * for the whole sort whose two arguments are set before each comparison, where each made a frame,
 * an argument array and a lookup of the parse (SGP's `+who` sorts its 30 players by 79 of them).
 * Nothing keeps the frame past a comparison: an evaluation reads its arguments while it runs.
 */
function comparison(
  ev: Evaluation,
  frame: Frame,
  id: string,
  text: string,
  n: CallNode | undefined,
): (a: string, b: string) => number {
  const args = ["", ""];
  const f: Frame = { executor: id, caller: frame.executor, enactor: frame.enactor, args };
  const site = n === undefined ? siteOf(null, "") : siteOf(n, "");
  return (a, b) => {
    if (!ev.tick()) return 0;
    args[0] = a;
    args[1] = b;
    return toInt(ev.evalAttrAt(f, text, site));
  };
}

/**
 * MUX's mincomp_sort (funceval2.cpp): a binary insertion sort, each item in turn placed among
 * those before it by a binary search that compares it (as %0) with the middle one (as %1),
 * going right on anything not negative. The comparisons, their order and their arguments are
 * MUX's, so what a comparison leaves behind (a register it sets, an attribute it writes) is
 * too, and a comparator that is not consistent gives MUX's order. Sorted in a copy.
 */
function insertionSort(
  a: readonly string[],
  cmp: (x: string, y: string) => number,
): string[] {
  const out = a.slice();
  for (let i = 1; i < out.length; i++) {
    const t = out[i];
    let l = 0, r = i;
    while (l < r) {
      const m = (l + r) >> 1;
      if (cmp(t, out[m]) < 0) r = m;
      else l = m + 1;
    }
    if (l < i) {
      out.copyWithin(l + 1, l, i);
      out[l] = t;
    }
  }
  return out;
}

/** get(): the attribute's value and object, or a string to return (an error, or ""). */
function getAttr(ev: Evaluation, f: Frame, ref: string): { value: string; id: string } | string {
  let r: string;
  let name: string;
  const known = ev.sc.attrRefs.get(ref);
  if (known !== null && known.id !== null) {
    // `#12/FOO`, resolved before: only the world is looked at again.
    if (ev.object(known.id) === null) return "#-1 NO MATCH";
    r = known.id;
    name = known.name;
  } else {
    const at = ref.indexOf("/");
    if (at < 0) return "#-1 NO MATCH";
    r = matchThing(ev.ports.world, f.executor, ref.slice(0, at));
    if (!found(r)) return "#-1 NO MATCH";
    name = ref.slice(at + 1).trim();
    if (!validAttrName(name)) return "";
    name = upperName(name);
  }
  const attr = ev.attrWithParents(r, name);
  if (!attr) return "";
  if (!ev.mayRead(f.executor, r, attr)) return "#-1 PERMISSION DENIED";
  return { value: attr.value, id: r };
}

function hasAttr(ev: Evaluation, f: Frame, args: string[], parents: boolean): string {
  const r = matchThing(ev.ports.world, f.executor, args[0]);
  if (!found(r)) return matchError(r);
  const name = upperAscii(args[1].trim());
  if (!validAttrName(name)) return "0";
  const attr = parents ? ev.attrWithParents(r, name) : ev.ports.attributes.get(r, name);
  if (!attr || !attr.value) return "0";
  // MUX's hasattr_handler refuses an attribute the executor may not read.
  return ev.mayRead(f.executor, r, attr) ? "1" : "#-1 PERMISSION DENIED";
}

/** The register key for a name: `0`-`9`, `a`-`z`, or a named one; null when invalid. */
export function regKey(ev: Evaluation, name: string): string | null {
  // The usual name, one digit or lower-case letter, is its own key: no lower-casing and no
  // regular expression's call (setq()'s cost on a paced line; docs/bench.md, issue 36).
  if (name.length === 1) {
    const c = name.charCodeAt(0);
    if ((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a)) return name;
  }
  const n = name.toLowerCase();
  if (/^[0-9a-z]$/.test(n)) return n;
  if (ev.sc.namedRegisters && /^[a-z0-9_]{2,32}$/.test(n)) return n;
  return null;
}

/**
 * Most named registers one set of registers holds at once, besides the 36 of `0`-`9` and `a`-`z`
 * (2.12 has none): without a bound one evaluation held 1,800 of 8,000 characters (14 MB).
 */
export const MAX_NAMED_REGISTERS = 100;

/** The answer to a new named register past MAX_NAMED_REGISTERS. */
export const TOO_MANY_REGISTERS = "#-1 TOO MANY REGISTERS";

/** Whether register `k` may take a value: a lettered one, one already set, or room for a name. */
export function regRoom(regs: ReadonlyMap<string, string>, k: string): boolean {
  if (k.length === 1 || regs.has(k)) return true;
  let named = 0;
  // Bounded: the map holds at most 36 lettered registers and MAX_NAMED_REGISTERS named ones.
  for (const key of regs.keys()) if (key.length > 1 && ++named >= MAX_NAMED_REGISTERS) return false;
  return true;
}

function setReg(ev: Evaluation, name: string, value: string): string | null {
  const k = regKey(ev, name);
  if (k === null) return "#-1 INVALID GLOBAL REGISTER";
  if (value === "") ev.regs.delete(k);
  else if (!regRoom(ev.regs, k)) return TOO_MANY_REGISTERS;
  else ev.regs.set(k, value);
  return null;
}
