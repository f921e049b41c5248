/**
 * Regular expressions for softcode, run by RE2JS: a linear-time engine (no backtracking), so
 * no pattern can stall the engine however it is written (`(a+)+$` on a long text is fast).
 * PCRE's backreferences and lookaround, which MUX allows, are not available: such a pattern
 * answers `#-1 REGEXP ERROR ...`, as any invalid pattern does.
 */
import { RE2JS } from "re2js";
import { define } from "./define.ts";
import type { FunctionDef } from "../types.ts";
import type { Evaluation } from "../eval.ts";
import { splitList } from "../list.ts";
import { stripMarkup } from "../markup.ts";

/** Longest pattern compiled: the match costs pattern × text steps, so both are bounded. */
export const MAX_PATTERN = 1000;

/** Compiled patterns kept (by flags and text). */
const MAX_COMPILED = 500;

/** A compiled pattern, or MUX's error text. */
export function compileRegexp(ev: Evaluation, pattern: string, caseless: boolean): RE2JS | string {
  if (pattern.length > MAX_PATTERN) return "#-1 REGEXP ERROR pattern too long";
  const cache = ev.sc.regexps;
  const key = (caseless ? "i" : "c") + pattern;
  const hit = cache.get(key);
  if (hit) return hit;
  try {
    const re = RE2JS.compile(pattern, caseless ? RE2JS.CASE_INSENSITIVE : 0);
    if (cache.size >= MAX_COMPILED) cache.delete(cache.keys().next().value!);
    cache.set(key, re);
    return re;
  } catch (e) {
    const msg = String((e as Error)?.message ?? e).replace(/^error parsing regexp: /, "");
    return `#-1 REGEXP ERROR ${msg}`;
  }
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

/** The regular-expression family. */
export const regexpFunctions: FunctionDef[] = [
  define("regmatch", 2, 3, (ev, _f, args) => regmatch(ev, args, false)),
  define("regmatchi", 2, 3, (ev, _f, args) => regmatch(ev, args, true)),
];
