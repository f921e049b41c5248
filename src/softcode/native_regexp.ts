/**
 * A softcode pattern as V8's own RegExp, for the matches that only ask whether a pattern is
 * found (regrab(), regraball(), regrep(), until()). RE2JS runs every pattern in linear time but
 * interprets it in JavaScript (70-150 ns a short word); V8 compiles it to machine code (10-15).
 * V8's engine backtracks, so a pattern goes to it only when V8's linear engine would take it too
 * (it compiles with the flag `l`): the engine runs with V8's fallback to that engine after
 * 50,000 backtracking steps in one match (src/supervisor/v8_flags.ts, REGEXP_FLAGS), so no
 * such pattern can hang it. (The linear engine itself, V8's interpreter, was slower than RE2JS:
 * 290 against 50-70 µs for the bench's 700 words.) The flag `l` is available only with those
 * flags (the supervisor turns it off when the fallback is off); without it every pattern stays
 * with RE2JS.
 *
 * A pattern goes to V8 only when it is translated exactly: the subset below, where RE2's syntax
 * and meaning are spelled out in JavaScript's (`.` any character but a newline, `\s` RE2's five
 * spaces, a caseless letter its case folding's orbit, K and ſ included), and only for texts
 * without surrogates, where JavaScript's code units (no flag `u`: V8's linear engine takes
 * neither `u` nor `i`) are RE2's code points. Anything else (Unicode classes, inline flags,
 * POSIX classes, an escape not listed, a caseless pattern beyond ASCII) gives null and stays
 * with RE2JS, which also decides every error and limit: a pattern is translated only after
 * RE2JS compiled it within `softcode.regexpSize`. src/softcode/native_regexp_test.ts compares
 * the two on generated patterns and texts.
 */

/** Whether this process's V8 takes the flag `l` (see the module's comment). */
export function linearEngineAvailable(): boolean {
  try {
    // deno-lint-ignore no-invalid-regexp -- the flag `l` is valid only under V8's flag, as asked
    new RegExp("a", "l");
    return true;
  } catch {
    return false;
  }
}

/** A surrogate code unit: a text holding one goes to RE2JS (see the module's comment). */
export const SURROGATE = /[\uD800-\uDFFF]/;

/** RE2's `\d`, `\w` and `\s` as code point ranges. */
const DIGIT: readonly Range[] = [[0x30, 0x39]];
const WORD: readonly Range[] = [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]];
const SPACE: readonly Range[] = [[0x09, 0x0a], [0x0c, 0x0d], [0x20, 0x20]];

/** An inclusive range of code points. */
type Range = [number, number];

/** Characters outside ASCII whose simple case folding reaches an ASCII letter (K and ſ). */
const FOLD_IN: Readonly<Record<number, number>> = { 0x6b: 0x212a, 0x73: 0x17f };

/** The ranges a perl class escape (`d`, `w`, `s`, any case) stands for, and whether negated. */
function perlClass(c: string): { ranges: readonly Range[]; negated: boolean } | null {
  switch (c) {
    case "d":
    case "D":
      return { ranges: DIGIT, negated: c === "D" };
    case "w":
    case "W":
      return { ranges: WORD, negated: c === "W" };
    case "s":
    case "S":
      return { ranges: SPACE, negated: c === "S" };
  }
  return null;
}

/** A single character an escape stands for (`\n`, `\.`, `\x41`), its length, or null. */
function escapedChar(p: string, i: number): { code: number; next: number } | null {
  const c = p[i + 1];
  if (c === undefined) return null;
  switch (c) {
    case "n":
      return { code: 0x0a, next: i + 2 };
    case "t":
      return { code: 0x09, next: i + 2 };
    case "r":
      return { code: 0x0d, next: i + 2 };
    case "f":
      return { code: 0x0c, next: i + 2 };
    case "v":
      return { code: 0x0b, next: i + 2 };
    case "a":
      return { code: 0x07, next: i + 2 };
    case "x": {
      const m = /^[0-9A-Fa-f]{2}/.exec(p.slice(i + 2, i + 4));
      return m ? { code: parseInt(m[0], 16), next: i + 4 } : null;
    }
  }
  const code = c.charCodeAt(0);
  // Punctuation escapes itself; a letter or digit means something else (or an error).
  const punct = code > 0x20 && code < 0x7f && !/[0-9A-Za-z]/.test(c);
  return punct ? { code, next: i + 2 } : null;
}

/** Code point ranges as a class's body (`\uXXXX` each, so nothing needs escaping). */
function rangesSource(ranges: readonly Range[]): string {
  let s = "";
  for (const [lo, hi] of ranges) s += lo === hi ? hex(lo) : hex(lo) + "-" + hex(hi);
  return s;
}

function hex(code: number): string {
  return "\\u" + code.toString(16).padStart(4, "0");
}

/**
 * The ranges folded as RE2 folds a caseless class: each ASCII letter with its other case, `k`
 * and `s` with K and ſ too. Null when a range goes beyond ASCII (not translated).
 */
function folded(ranges: readonly Range[]): Range[] | null {
  const set = new Set<number>();
  for (const [lo, hi] of ranges) {
    if (hi > 0x7f) return null;
    for (let c = lo; c <= hi; c++) {
      set.add(c);
      const lower = c | 0x20;
      if (lower >= 0x61 && lower <= 0x7a) {
        set.add(lower);
        set.add(lower & ~0x20);
        const extra = FOLD_IN[lower];
        if (extra !== undefined) set.add(extra);
      }
    }
  }
  const codes = [...set].sort((a, b) => a - b);
  const out: Range[] = [];
  for (const c of codes) {
    const last = out[out.length - 1];
    if (last && last[1] + 1 === c) last[1] = c;
    else out.push([c, c]);
  }
  return out;
}

/**
 * A class's source from its ranges: folded when caseless, negated when asked; in `words` mode
 * (see wordSource) never a space.
 */
function classSource(
  ranges: readonly Range[],
  negated: boolean,
  caseless: boolean,
  words: boolean,
): string | null {
  let r = caseless ? folded(ranges) : ranges;
  if (r === null) return null;
  if (words) r = negated ? [...r, [0x20, 0x20]] : withoutSpace(r);
  return (negated ? "[^" : "[") + rangesSource(r) + "]";
}

/** Ranges less the space (a class that matched only a space matches nothing: `[]`). */
function withoutSpace(ranges: readonly Range[]): Range[] {
  const out: Range[] = [];
  for (const [lo, hi] of ranges) {
    if (lo > 0x20 || hi < 0x20) out.push([lo, hi]);
    else {
      if (lo < 0x20) out.push([lo, 0x1f]);
      if (hi > 0x20) out.push([0x21, hi]);
    }
  }
  return out;
}

/** A bracketed class from `[` at `i`: its source and where the pattern goes on, or null. */
function bracket(
  p: string,
  i: number,
  caseless: boolean,
  words: boolean,
): { src: string; next: number } | null {
  let j = i + 1;
  const negated = p[j] === "^";
  if (negated) j++;
  const ranges: Range[] = [];
  let first = true;
  while (j < p.length && (p[j] !== "]" || first)) {
    first = false;
    let lo: number;
    if (p[j] === "\\") {
      const cls = perlClass(p[j + 1] ?? "");
      if (cls) {
        // A negated one inside a class would need the complement: left to RE2JS.
        if (cls.negated) return null;
        ranges.push(...cls.ranges);
        j += 2;
        continue;
      }
      const e = escapedChar(p, j);
      if (!e) return null;
      lo = e.code;
      j = e.next;
    } else {
      // `[:alpha:]` and the like are RE2's, not JavaScript's.
      if (p[j] === "[" && p[j + 1] === ":") return null;
      lo = p.charCodeAt(j);
      j++;
    }
    let hi = lo;
    if (p[j] === "-" && j + 1 < p.length && p[j + 1] !== "]") {
      if (p[j + 1] === "\\") {
        const e = escapedChar(p, j + 1);
        if (!e) return null;
        hi = e.code;
        j = e.next;
      } else {
        if (p[j + 1] === "[") return null;
        hi = p.charCodeAt(j + 1);
        j += 2;
      }
    }
    if (hi < lo || isSurrogate(lo) || isSurrogate(hi)) return null;
    ranges.push([lo, hi]);
  }
  if (p[j] !== "]") return null;
  const src = classSource(ranges, negated, caseless, words);
  return src === null ? null : { src, next: j + 1 };
}

function isSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdfff;
}

/**
 * One character's source: itself, or when caseless the class of its case folding's orbit (a
 * space in `words` mode: nothing).
 */
function literal(code: number, caseless: boolean, words: boolean): string | null {
  if (isSurrogate(code)) return null;
  if (words && code === 0x20) return "[]";
  return caseless ? classSource([[code, code]], false, true, words) : hex(code);
}

/** A counted repeat at a pattern's position: `{n}`, `{n,}`, `{n,m}`. */
const REPEAT = /^\{\d{1,4}(?:,\d{0,4})?\}/;

/**
 * The JavaScript source (for the flag `l`, without `u` or `i`) that matches exactly what RE2
 * matches with `pattern` (caseless: RE2's CASE_INSENSITIVE) in texts without surrogates, or
 * null when the pattern is outside the subset translated. Groups become non-capturing and lazy
 * repeats greedy: only whether the pattern is found is asked, which neither changes.
 */
export function nativeSource(pattern: string, caseless: boolean): string | null {
  return translate(pattern, caseless, false);
}

/**
 * The JavaScript source (for the flag `l`) that, run at an item's first character in a list of
 * items split at spaces (no item holding one, each followed by a space or the text's end),
 * matches when and only when RE2 finds `pattern` in that item alone: so regrab() and
 * regraball() need not cut the list into items to match them (wordRegexp). Every character
 * class leaves the space out, so a match never reaches past its item; the pattern may start
 * anywhere in the item (`[^ ]*?` before it) unless it begins with `^` or `\A`; `$` and `\z`
 * are taken only as its last token, as a space or the text's end. Null for anything else (an
 * anchor elsewhere, an anchor with `|` outside every group) and all nativeSource() refuses.
 */
export function wordSource(pattern: string, caseless: boolean): string | null {
  return translate(pattern, caseless, true);
}

/** nativeSource() and, with `words`, wordSource(). */
function translate(pattern: string, caseless: boolean, words: boolean): string | null {
  const p = pattern;
  let out = "";
  let i = 0;
  // For wordSource(): the groups open, whether an alternation is outside them, the anchors seen.
  let depth = 0;
  let topAlternation = false;
  let startAnchor = false;
  let endAnchor = false;
  /** An anchor in words mode: `^` only first, `$` only last; false when refused. */
  const anchor = (start: boolean, next: number): boolean => {
    if (start ? i !== 0 : next !== p.length) return false;
    if (start) startAnchor = true;
    else {
      endAnchor = true;
      out += "(?: |$)";
    }
    return true;
  };
  while (i < p.length) {
    const c = p[i];
    switch (c) {
      case "\\": {
        const d = p[i + 1] ?? "";
        const cls = perlClass(d);
        if (cls) {
          const src = classSource(cls.ranges, cls.negated, caseless, words);
          if (src === null) return null;
          out += src;
          i += 2;
          break;
        }
        if (d === "b" || d === "B") {
          out += "\\" + d;
          i += 2;
          break;
        }
        if (d === "A" || d === "z") {
          if (!words) out += d === "A" ? "^" : "$";
          else if (!anchor(d === "A", i + 2)) return null;
          i += 2;
          break;
        }
        const e = escapedChar(p, i);
        const one = e && literal(e.code, caseless, words);
        if (!one) return null;
        out += one;
        i = e.next;
        break;
      }
      case "[": {
        const b = bracket(p, i, caseless, words);
        if (!b) return null;
        out += b.src;
        i = b.next;
        break;
      }
      case ".":
        out += words ? "[^\\n ]" : "[^\\n]";
        i++;
        break;
      case "^":
      case "$":
        if (!words) out += c;
        else if (!anchor(c === "^", i + 1)) return null;
        i++;
        break;
      case "|":
        if (depth === 0) topAlternation = true;
        out += c;
        i++;
        break;
      case ")":
        depth--;
        out += c;
        i++;
        break;
      case "(": {
        depth++;
        if (p[i + 1] !== "?") {
          out += "(?:";
          i++;
          break;
        }
        // `(?:`, and named groups (`(?P<name>`, `(?<name>`) as plain groups; flags are not.
        const m = /^\(\?(?::|P?<[A-Za-z_][A-Za-z0-9_]*>)/.exec(p.slice(i, i + 40));
        if (!m) return null;
        out += "(?:";
        i += m[0].length;
        break;
      }
      case "*":
      case "+":
      case "?":
      case "{": {
        let q: string = c;
        if (c === "{") {
          const m = REPEAT.exec(p.slice(i, i + 12));
          if (!m) {
            // RE2 reads a brace that starts no repeat as itself.
            out += "\\{";
            i++;
            break;
          }
          q = m[0];
        }
        out += q;
        i += q.length;
        // A lazy repeat finds a match where the greedy one does; a possessive one is RE2's
        // error, never reached here.
        if (p[i] === "?") i++;
        else if (p[i] === "+") return null;
        break;
      }
      default: {
        const one = literal(p.charCodeAt(i), caseless, words);
        if (!one) return null;
        out += one;
        i++;
      }
    }
  }
  if (!words) return out;
  if (topAlternation && (startAnchor || endAnchor)) return null;
  return startAnchor ? out : "[^ ]*?(?:" + out + ")";
}

/**
 * V8's RegExp for `pattern`, or null when it is not translated (see nativeSource) or V8's linear
 * engine does not take it (backtracking past the limit then falls back to that engine).
 */
export function nativeRegexp(pattern: string, caseless: boolean): RegExp | null {
  return compiled(nativeSource(pattern, caseless), "");
}

/**
 * V8's global RegExp that finds the items of a space-separated list a pattern is found in, run
 * over the list with a space put before it (see wordSource and nextItemFound), or null as
 * nativeRegexp() gives it.
 */
export function wordRegexp(pattern: string, caseless: boolean): RegExp | null {
  const src = wordSource(pattern, caseless);
  // The group keeps a repeat after a leading `^` (which wordSource leaves out) from repeating the
  // space: JavaScript refuses it, as it refused the anchor's repeat.
  return compiled(src === null ? null : " (?:" + src + ")", "g");
}

/**
 * The start of the next item at or after `from` in which wordRegexp()'s `re` finds its pattern,
 * or -1. `padded` is the list (no surrogates) with a space put before it, so `padded[i]` is the
 * character before the list's `i`th, and the list's character at `from` is an item's first or
 * a space; `end` is where the list's last item ends (trailing spaces left out). The item found
 * ends at the next space or `end`. One search runs over as many items as it takes: only the
 * space before an item starts a match.
 */
export function nextItemFound(padded: string, end: number, re: RegExp, from: number): number {
  let at = from;
  for (;;) {
    re.lastIndex = at;
    const m = re.exec(padded);
    if (m === null || m.index >= end) return -1;
    // The list's index of the character after the space the match began with.
    const start = m.index;
    if (padded.charCodeAt(start + 1) !== 0x20) return start;
    // A pattern that matches nothing did so between two spaces, in no item: on from the next.
    at = start + 1;
    while (at < end && padded.charCodeAt(at + 1) === 0x20) at++;
    if (at >= end) return -1;
  }
}

function compiled(src: string | null, flags: string): RegExp | null {
  if (src === null) return null;
  try {
    // V8's own check: the linear engine takes the pattern (the same tree and flags).
    new RegExp(src, flags + "l");
    return new RegExp(src, flags);
  } catch {
    return null;
  }
}
