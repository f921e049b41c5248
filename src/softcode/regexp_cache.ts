/**
 * The softcode engine's compiled regular expressions, run by RE2JS: a linear-time engine (no
 * backtracking), so no pattern stalls the engine the way `(a+)+$` does a backtracking one.
 * Linear in the text, but also in the compiled program: `(?:a|aa|aaa|aaaa|aaaaa|b){1000}c`, 32
 * characters, compiles to 15,000 instructions and held the engine 2.3 s on one 8,000-character
 * text, in one call no budget can interrupt. So a program is bounded too (`softcode.regexpSize`),
 * and a pattern whose text already promises a larger one is refused before it is compiled
 * (compiling the largest RE2 allows took 200 ms).
 */
import { RE2JS } from "re2js";
import { linearEngineAvailable, nativeRegexp, SURROGATE, wordRegexp } from "./native_regexp.ts";

/** Longest pattern compiled: the match costs pattern × text steps, so both are bounded. */
export const MAX_PATTERN = 1000;

/** A counted repeat at the start of a text: `{n}`, `{n,}`, `{n,m}`. */
const REPEAT = /^\{(\d+)(?:(,)(\d*))?\}/;

/** Compiled patterns kept (by flags and text). */
const MAX_COMPILED = 500;

/**
 * A compiled pattern for the matches that only ask whether it is found: V8's own RegExp where
 * the pattern translates exactly and V8's linear engine takes it (src/softcode/native_regexp.ts),
 * else RE2JS.
 */
export class Finder {
  /** V8's form of the pattern: undefined until first asked for, null when there is none. */
  #native: RegExp | null | undefined = undefined;
  /** The form that finds items in place in a space-separated list (wordRegexp). */
  #words: RegExp | null | undefined = undefined;

  constructor(
    readonly re: RE2JS,
    readonly pattern: string,
    readonly caseless: boolean,
    readonly linear: boolean,
  ) {}

  /**
   * Whether the pattern is found in `text`. `plain`: the caller knows the text holds no
   * surrogate (a list checked once for all its items).
   */
  found(text: string, plain = false): boolean {
    const native = this.#native ?? this.#translate();
    if (native !== null && (plain || !SURROGATE.test(text))) return native.test(text);
    return this.re.test(text);
  }

  /**
   * V8's RegExp that finds the items of a list split at spaces (with no surrogates: the caller
   * checks) the pattern is found in (nextItemFound in native_regexp.ts); null when the pattern
   * has no such form (wordSource).
   */
  words(): RegExp | null {
    if (this.#words === undefined) {
      this.#words = this.linear ? wordRegexp(this.pattern, this.caseless) : null;
    }
    return this.#words;
  }

  #translate(): RegExp | null {
    if (this.#native === undefined) {
      this.#native = this.linear ? nativeRegexp(this.pattern, this.caseless) : null;
    }
    return this.#native;
  }
}

/**
 * The softcode engine's compiled regular expressions, by flags and text, each within the
 * program size `maxSize()` gives (`softcode.regexpSize`, read at each compile and hit).
 */
export class RegexpCache {
  readonly #compiled = new Map<string, Finder>();
  readonly #maxSize: () => number;
  /** V8 here takes the flag `l`, so falls back to its linear engine (src/supervisor/v8_flags.ts). */
  readonly #linear = linearEngineAvailable();

  constructor(maxSize: () => number) {
    this.#maxSize = maxSize;
  }

  /** A compiled pattern, or MUX's error text. */
  compile(pattern: string, caseless: boolean): RE2JS | string {
    const f = this.finder(pattern, caseless);
    return typeof f === "string" ? f : f.re;
  }

  /** A compiled pattern for finding only (see Finder), or MUX's error text. */
  finder(pattern: string, caseless: boolean): Finder | string {
    if (pattern.length > MAX_PATTERN) return "#-1 REGEXP ERROR pattern too long";
    const max = this.#maxSize();
    const key = (caseless ? "i" : "c") + pattern;
    const hit = this.#compiled.get(key);
    if (hit) return hit.re.programSize() > max ? tooLarge(max) : hit;
    // The estimate overshoots a little (a group's parentheses, flags), hence the slack; the
    // compiled program is measured exactly below.
    if (estimatedSize(pattern) > 2 * max) return tooLarge(max);
    let re: RE2JS;
    try {
      re = RE2JS.compile(pattern, caseless ? RE2JS.CASE_INSENSITIVE : 0);
    } catch (e) {
      const msg = String((e as Error)?.message ?? e).replace(/^error parsing regexp: /, "");
      return `#-1 REGEXP ERROR ${msg}`;
    }
    if (this.#compiled.size >= MAX_COMPILED) {
      this.#compiled.delete(this.#compiled.keys().next().value!);
    }
    const f = new Finder(re, pattern, caseless, this.#linear);
    this.#compiled.set(key, f);
    return re.programSize() > max ? tooLarge(max) : f;
  }
}

function tooLarge(max: number): string {
  return `#-1 REGEXP ERROR pattern too complex (over ${max} instructions)`;
}

/**
 * An upper estimate of the instructions `pattern` compiles to, read from its text: each atom
 * (a character, an escape, a class) one, a counted repeat multiplying what it repeats, as RE2
 * expands it. Cheap, so a pattern that would build a huge program (compiling one took 200 ms)
 * is refused before it is compiled.
 */
export function estimatedSize(pattern: string): number {
  const open: { total: number; last: number }[] = [];
  let cur = { total: 0, last: 0 };
  const atom = (size: number) => {
    cur.total += cur.last;
    cur.last = size;
  };
  let m: RegExpExecArray | null;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      atom(1);
      i++;
    } else if (c === "[") {
      atom(1);
      let j = i + 1;
      if (pattern[j] === "^") j++;
      if (pattern[j] === "]") j++;
      for (; j < pattern.length && pattern[j] !== "]"; j++) {
        if (pattern[j] === "\\") j++;
        else if (pattern[j] === "[" && pattern[j + 1] === ":") {
          const end = pattern.indexOf(":]", j + 2);
          if (end > 0) j = end + 1;
        }
      }
      i = j;
    } else if (c === "(") {
      atom(0);
      open.push(cur);
      cur = { total: 0, last: 0 };
    } else if (c === ")") {
      const inner = cur.total + cur.last + 2;
      cur = open.pop() ?? { total: 0, last: 0 };
      cur.last = inner;
    } else if (c === "|") {
      cur.total += cur.last + 1;
      cur.last = 0;
    } else if (c === "*" || c === "+" || c === "?") {
      cur.last += 2;
    } else if (c === "{" && (m = REPEAT.exec(pattern.slice(i, i + 12)))) {
      const min = Number(m[1]);
      const max = m[2] === undefined ? min : m[3] === "" ? min + 1 : Number(m[3]);
      cur.last = cur.last * Math.max(1, min, max) + 1;
      i += m[0].length - 1;
    } else {
      atom(1);
    }
  }
  while (open.length) {
    const inner = cur.total + cur.last;
    cur = open.pop()!;
    cur.last += inner;
  }
  return cur.total + cur.last;
}
