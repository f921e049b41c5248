/**
 * MUX's wildcard patterns: `*` (any run), `?` (one character), `\` (the next character
 * literally), letters compared without case (ASCII). Matched by the two-pointer method, which
 * needs at most |pattern| × |text| steps whatever the pattern: no pattern can stall the engine.
 */
import { isReal, toReal } from "./numbers.ts";

const STAR = -1;
const ANY = -2;

/** A pattern as units: a lower-cased char code, STAR or ANY. */
function units(pattern: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern.charCodeAt(i);
    if (c === 0x2a) {
      if (out[out.length - 1] !== STAR) out.push(STAR);
    } else if (c === 0x3f) {
      out.push(ANY);
    } else if (c === 0x5c && i + 1 < pattern.length) {
      out.push(lower(pattern.charCodeAt(++i)));
    } else {
      out.push(lower(c));
    }
  }
  return out;
}

function lower(c: number): number {
  return c >= 0x41 && c <= 0x5a ? c + 32 : c;
}

/** True when the whole `text` matches `pattern`. */
export function wildMatch(pattern: string, text: string): boolean {
  const p = units(pattern);
  let pi = 0, ti = 0, star = -1, mark = 0;
  const n = text.length;
  while (ti < n) {
    const u = p[pi];
    if (pi < p.length && (u === ANY || (u >= 0 && u === lower(text.charCodeAt(ti))))) {
      pi++;
      ti++;
    } else if (pi < p.length && u === STAR) {
      star = pi++;
      mark = ti;
    } else if (star >= 0) {
      pi = star + 1;
      ti = ++mark;
    } else {
      return false;
    }
  }
  while (pi < p.length && p[pi] === STAR) pi++;
  return pi === p.length;
}

/**
 * MUX's switch matching (`switch()`, `@switch`, `@select`): a pattern starting with `<` or `>`
 * compares (as numbers when both sides are), any other is a wildcard pattern.
 */
export function switchMatch(pattern: string, value: string): boolean {
  const c = pattern[0];
  if (c === "<" || c === ">") {
    const t = pattern.slice(1);
    if (isReal(value) && isReal(t)) {
      return c === "<" ? toReal(value) < toReal(t) : toReal(value) > toReal(t);
    }
    return c === "<" ? value < t : value > t;
  }
  return wildMatch(pattern, value);
}
