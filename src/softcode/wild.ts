/**
 * MUX's wildcard patterns: `*` (any run), `?` (one character), `\` (the next character
 * literally), letters compared without case (ASCII). Matched by the two-pointer method, which
 * needs at most |pattern| × |text| steps whatever the pattern; that is still 32 million steps
 * (about 200 ms) for an 8,000-character text, so a long match asks `more` (the evaluation's
 * deadline) every WILD_STEPS steps and gives up (no match) when told to stop.
 */
import { isReal, toReal } from "./numbers.ts";

/** Steps (characters compared again after a `*` takes one more) between two `more()` asks. */
export const WILD_STEPS = 1 << 16;

function lower(c: number): number {
  return c >= 0x41 && c <= 0x5a ? c + 32 : c;
}

/**
 * True when the whole `text` matches `pattern` (false too once `more()` says to stop: see
 * WILD_STEPS). The pattern is read in place (a run of `*` is
 * one, `\` takes the next character as it is, a final `\` is itself): switch() compares a value
 * with each of its patterns, and building each pattern's units as an array made most of what a
 * listing's switch() calls allocated.
 */
export function wildMatch(pattern: string, text: string, more?: () => boolean): boolean {
  const m = pattern.length, n = text.length;
  // `star`: where the pattern goes on after the last `*` run; `mark`: the text it took up to.
  let pi = 0, ti = 0, star = -1, mark = 0;
  // Steps since `more` was last asked: only a backtrack repeats work, so only it counts.
  let steps = 0;
  while (ti < n) {
    if (pi < m) {
      const c = pattern.charCodeAt(pi);
      if (c === 0x2a) {
        do pi++; while (pi < m && pattern.charCodeAt(pi) === 0x2a);
        star = pi;
        mark = ti;
        continue;
      }
      if (c === 0x3f) {
        pi++;
        ti++;
        continue;
      }
      const escaped = c === 0x5c && pi + 1 < m;
      if (lower(escaped ? pattern.charCodeAt(pi + 1) : c) === lower(text.charCodeAt(ti))) {
        pi += escaped ? 2 : 1;
        ti++;
        continue;
      }
    }
    if (star < 0) return false;
    steps += ti - mark;
    if (steps > WILD_STEPS && more !== undefined) {
      if (!more()) return false;
      steps = 0;
    }
    pi = star;
    ti = ++mark;
  }
  while (pi < m && pattern.charCodeAt(pi) === 0x2a) pi++;
  return pi === m;
}

/**
 * MUX's switch matching (`switch()`, `@switch`, `@select`): a pattern starting with `<` or `>`
 * compares (as numbers when both sides are), any other is a wildcard pattern.
 */
export function switchMatch(pattern: string, value: string, more?: () => boolean): boolean {
  const c = pattern[0];
  if (c === "<" || c === ">") {
    const t = pattern.slice(1);
    if (isReal(value) && isReal(t)) {
      return c === "<" ? toReal(value) < toReal(t) : toReal(value) > toReal(t);
    }
    return c === "<" ? value < t : value > t;
  }
  return wildMatch(pattern, value, more);
}
