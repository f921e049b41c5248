/**
 * Regular expressions for softcode, run by RE2JS (src/softcode/regexp_cache.ts: linear time,
 * programs of bounded size, so no pattern can stall the engine), or where only whether a pattern
 * is found is asked, by V8's engine when the pattern translates exactly and V8's linear engine
 * takes it (src/softcode/native_regexp.ts).
 * PCRE's backreferences and lookaround, which MUX allows, are not available: such a pattern
 * answers `#-1 REGEXP ERROR ...`, as any invalid pattern does.
 */
import type { RE2JS } from "re2js";
import { define } from "./define.ts";
import type { FunctionDef } from "../types.ts";
import { ERR_CPU, type Evaluation } from "../eval.ts";
import { sepOf, splitList } from "../list.ts";
import { hasMarkup, stripMarkup } from "../markup.ts";
import { grepAttrs } from "./objects.ts";
import type { Finder } from "../regexp_cache.ts";
import { nextItemFound, SURROGATE } from "../native_regexp.ts";

/**
 * A compiled pattern from the evaluation's engine, or MUX's error text (`#-1 CPU LIMITED` once
 * the evaluation's time is up: each match may take milliseconds, so the clock is read first).
 */
export function compileRegexp(ev: Evaluation, pattern: string, caseless: boolean): RE2JS | string {
  if (!ev.tickNow()) return ERR_CPU;
  return ev.sc.regexps.compile(pattern, caseless);
}

/** compileRegexp() for matches that only ask whether the pattern is found (RegexpCache.finder). */
export function findRegexp(ev: Evaluation, pattern: string, caseless: boolean): Finder | string {
  if (!ev.tickNow()) return ERR_CPU;
  return ev.sc.regexps.finder(pattern, caseless);
}

/** regmatch() and regmatchi(): 1 when the pattern is found, setting registers from groups. */
function regmatch(ev: Evaluation, args: string[], caseless: boolean): string {
  const re = compileRegexp(ev, args[1], caseless);
  if (typeof re === "string") return re;
  const m = re.matcher(stripMarkup(args[0]));
  if (!m.find()) return "0";
  if (args.length > 2) {
    const regs = splitList(args[2], " ");
    for (let i = 0; i < regs.length && i <= m.groupCount(); i++) {
      const name = regs[i].toLowerCase();
      if (name === "-1" || !/^[0-9a-z]$/.test(name)) continue;
      const v = m.group(i) ?? "";
      if (v) ev.regs.set(name, v);
      else ev.regs.delete(name);
    }
  }
  return "1";
}

/**
 * Characters of items matched between readings of the clock, and items at most: a match costs
 * up to its text's length times the program's size (`softcode.regexpSize`), so the clock is read
 * before a long item and between short ones once this many characters or items were matched.
 * Reading it before each of a thousand short words cost more than matching them.
 */
const MATCHED_PER_CLOCK = 256;
const ITEMS_PER_CLOCK = 16;

/** The clock's readings over a list's items (see MATCHED_PER_CLOCK). */
class ItemClock {
  #matched = MATCHED_PER_CLOCK;
  #items = 0;
  constructor(readonly ev: Evaluation) {}

  /** Before matching an item `length` long: false once the evaluation's time is up. */
  next(length: number): boolean {
    this.#matched += length;
    if (this.#matched >= MATCHED_PER_CLOCK || ++this.#items >= ITEMS_PER_CLOCK) {
      this.#matched = length;
      this.#items = 0;
      return this.ev.tickNow();
    }
    return this.ev.tick();
  }
}

/** regrab() and regraball(): the first word, or every word, the pattern is found in. */
function regrab(ev: Evaluation, args: string[], caseless: boolean, all: boolean): string {
  const sep = sepOf(args[2]);
  if (typeof sep !== "string") return sep.error;
  const osep = args[3] === undefined ? sep : sepOf(args[3], { allowNull: true });
  if (typeof osep !== "string") return osep.error;
  const re = findRegexp(ev, args[1], caseless);
  if (typeof re === "string") return re;
  // A list without colour (most) needs no item stripped of it, and one without surrogates no
  // item looked at for them.
  const list = args[0];
  const coloured = hasMarkup(list);
  const plain = !SURROGATE.test(list);
  const inPlace = sep === " " && plain && !coloured ? re.words() : null;
  if (inPlace !== null) return grabInPlace(ev, list, inPlace, all, osep);
  const out: string[] = [];
  const clock = new ItemClock(ev);
  for (const w of splitList(list, sep)) {
    if (!clock.next(w.length)) break;
    if (!re.found(coloured ? stripMarkup(w) : w, plain)) continue;
    if (!all) return w;
    out.push(w);
  }
  return out.join(osep);
}

/**
 * regrab() and regraball() over a plain list split at spaces, its items found by searching the
 * list itself with `re` (Finder.words, nextItemFound): only the items found are cut out, where
 * splitting the list first made a string of each of its (often hundreds of) items and matched
 * them one call each.
 */
function grabInPlace(ev: Evaluation, list: string, re: RegExp, all: boolean, osep: string): string {
  // MUX's space-separated list: leading and trailing spaces ignored, a run of them one break.
  let end = list.length;
  while (end > 0 && list.charCodeAt(end - 1) === 0x20) end--;
  let from = 0;
  while (from < end && list.charCodeAt(from) === 0x20) from++;
  const padded = " " + list;
  const out: string[] = [];
  const clock = new ItemClock(ev);
  // Each search's characters count toward the clock's next reading, as items matched one by
  // one did.
  let searched = 0;
  while (from < end && clock.next(searched)) {
    const start = nextItemFound(padded, end, re, from);
    if (start < 0) break;
    let stop = list.indexOf(" ", start);
    if (stop < 0 || stop > end) stop = end;
    if (!all) return list.slice(start, stop);
    out.push(list.slice(start, stop));
    searched = stop - from;
    from = stop + 1;
  }
  return out.join(osep);
}

/**
 * The replacement text for one match: `$0`–`$99` are groups, `$<name>` named groups (later
 * MUX's regedit()); a `$` before anything else stays.
 */
function substitute(m: ReturnType<RE2JS["matcher"]>, repl: string): string {
  return repl.replace(/\$(\d{1,2}|<([A-Za-z_][A-Za-z0-9_]*)>)/g, (all, num: string, name) => {
    try {
      if (name !== undefined) return m.group(name) ?? "";
      const n = Number(num);
      return n <= m.groupCount() ? m.group(n) ?? "" : all;
    } catch {
      return all;
    }
  });
}

/** regedit() and its kin: each pattern in turn replaced (its first match, or all). */
function regedit(ev: Evaluation, args: string[], caseless: boolean, all: boolean): string {
  let text = stripMarkup(args[0]);
  for (let i = 1; i + 1 < args.length; i += 2) {
    const re = compileRegexp(ev, args[i], caseless);
    if (typeof re === "string") return re;
    const m = re.matcher(text);
    let out = "";
    let from = 0;
    let at = 0;
    while (at <= text.length && ev.tickNow() && m.find(at)) {
      out += text.slice(from, m.start()) + substitute(m, args[i + 1]);
      from = m.end();
      if (out.length > ev.lbuf) return out.slice(0, ev.lbuf);
      if (!all) break;
      // After an empty match the scan moves on one character, so it always ends.
      at = m.end() === m.start() ? m.end() + 1 : m.end();
    }
    text = out + text.slice(from);
  }
  return text;
}

/** The regular-expression family. */
export const regexpFunctions: FunctionDef[] = [
  define("regmatch", 2, 3, {
    family: "regexp",
    args: "regmatch(<text>, <pattern>[, <registers>])",
    summary:
      "1 when the regular expression matches the text; the registers listed get the whole match and each group in turn (- skips one).",
    example: { think: "[regmatch(cookie=42,(.+)=(.+),- 0 1)] %q0 %q1", gives: "1 cookie 42" },
  }, (ev, _f, args) => regmatch(ev, args, false)),
  define("regmatchi", 2, 3, {
    family: "regexp",
    args: "regmatchi(<text>, <pattern>[, <registers>])",
    summary: "regmatch(), in any case.",
    example: { think: "regmatchi(ABC,^a)", gives: "1" },
  }, (ev, _f, args) => regmatch(ev, args, true)),
  define("regrab", 2, 3, {
    family: "regexp",
    args: "regrab(<list>, <pattern>[, <delimiter>])",
    summary: "The first item the regular expression matches.",
    example: { think: "regrab(apple banana cherry,^b)", gives: "banana" },
  }, (ev, _f, args) => regrab(ev, args, false, false)),
  define("regrabi", 2, 3, {
    family: "regexp",
    args: "regrabi(<list>, <pattern>[, <delimiter>])",
    summary: "regrab(), in any case.",
    example: { think: "regrabi(APPLE BANANA,^b)", gives: "BANANA" },
  }, (ev, _f, args) => regrab(ev, args, true, false)),
  define("regraball", 2, 4, {
    family: "regexp",
    args: "regraball(<list>, <pattern>[, <delimiter>[, <output separator>]])",
    summary: "Every item the regular expression matches.",
    example: { think: "regraball(apple banana bob,^b)", gives: "banana bob" },
  }, (ev, _f, args) => regrab(ev, args, false, true)),
  define("regraballi", 2, 4, {
    family: "regexp",
    args: "regraballi(<list>, <pattern>[, <delimiter>[, <output separator>]])",
    summary: "regraball(), in any case.",
    example: { think: "regraballi(APPLE BANANA Bob,^b)", gives: "BANANA Bob" },
  }, (ev, _f, args) => regrab(ev, args, true, true)),
  define("regedit", 3, 100, {
    family: "regexp",
    args: "regedit(<text>, <pattern>, <replacement>[, <pattern>, <replacement>...])",
    summary:
      "The text with the first match of each pattern replaced; $0-$99 and $<name> in the replacement are its groups.",
    example: { think: "regedit(hello world,(o),<$1>)", gives: "hell<o> world" },
  }, (ev, _f, args) => regedit(ev, args, false, false)),
  define("regediti", 3, 100, {
    family: "regexp",
    args: "regediti(<text>, <pattern>, <replacement>[, <pattern>, <replacement>...])",
    summary: "regedit(), in any case.",
    example: { think: "regediti(Hello,h,J)", gives: "Jello" },
  }, (ev, _f, args) => regedit(ev, args, true, false)),
  define("regeditall", 3, 100, {
    family: "regexp",
    args: "regeditall(<text>, <pattern>, <replacement>[, <pattern>, <replacement>...])",
    summary:
      "The text with every match of each pattern replaced; $0-$99 and $<name> are its groups.",
    example: { think: "regeditall(hello world,o,0)", gives: "hell0 w0rld" },
  }, (ev, _f, args) => regedit(ev, args, false, true)),
  define("regeditalli", 3, 100, {
    family: "regexp",
    args: "regeditalli(<text>, <pattern>, <replacement>[, <pattern>, <replacement>...])",
    summary: "regeditall(), in any case.",
    example: { think: "regeditalli(Hello HELLO,l,_)", gives: "He__o HE__O" },
  }, (ev, _f, args) => regedit(ev, args, true, true)),
  define("regrep", 3, 3, {
    family: "regexp",
    args: "regrep(<object>, <attribute pattern>, <regular expression>)",
    summary:
      "The object's attributes (of those the wildcard pattern names) whose values the regular expression matches.",
    example: {
      setup: ["&NOTE me=call at 5pm", "&TODO me=buy milk"],
      think: "regrep(me,*,\\\\d+pm)",
      gives: "NOTE",
    },
  }, (ev, f, args) => {
    const re = findRegexp(ev, args[2], false);
    if (typeof re === "string") return re;
    return grepAttrs(ev, f, args[0], args[1], (v) => re.found(stripMarkup(v)));
  }),
  define("regrepi", 3, 3, {
    family: "regexp",
    args: "regrepi(<object>, <attribute pattern>, <regular expression>)",
    summary: "regrep(), in any case.",
    example: { setup: ["&NOTE me=Call at 5pm"], think: "regrepi(me,NOTE,^call)", gives: "NOTE" },
  }, (ev, f, args) => {
    const re = findRegexp(ev, args[2], true);
    if (typeof re === "string") return re;
    return grepAttrs(ev, f, args[0], args[1], (v) => re.found(stripMarkup(v)));
  }),
];
