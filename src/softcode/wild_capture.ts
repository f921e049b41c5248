/**
 * MUX's capturing wildcard match (`wild()`), for `$-command` and `^-listen` patterns: each `*`
 * and `?` of the pattern fills the next of `%0`–`%9`. Matched as `wildMatch` does (src/softcode/
 * wild.ts: two pointers, each `*` as short as the rest allows, the last one backing off first),
 * which gives MUX's captures (`* from *` on `a from b from c` is `a` and `b from c`; `*?` on
 * `abc` is `ab` and `c`) in at most |pattern| × |text| steps, asking `more` (the line's time)
 * every WILD_STEPS of them as `wildMatch` does: no pattern can stall the engine.
 */
import { WILD_STEPS } from "./wild.ts";

const STAR = -1;
const ANY = -2;

/** Most captures a pattern fills (`%0`–`%9`). */
export const MAX_CAPTURES = 10;

function lower(c: number): number {
  return c >= 0x41 && c <= 0x5a ? c + 32 : c;
}

/** A pattern as units (a lower-cased char code, STAR or ANY); `\` makes the next one literal. */
function units(pattern: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern.charCodeAt(i);
    if (c === 0x2a) {
      if (out[out.length - 1] !== STAR) out.push(STAR);
    } else if (c === 0x3f) out.push(ANY);
    else if (c === 0x5c && i + 1 < pattern.length) out.push(lower(pattern.charCodeAt(++i)));
    else out.push(lower(c));
  }
  return out;
}

/**
 * The captures when the whole `text` matches `pattern` (letters in any case), in pattern order
 * (at most ten: later wildcards still match but fill nothing), or null when it does not match
 * (or `more()` said to stop).
 */
export function wildCapture(
  pattern: string,
  text: string,
  more?: () => boolean,
): string[] | null {
  const p = units(pattern);
  // Per unit: where its capture starts and ends in the text (wildcards only).
  const from = new Int32Array(p.length);
  const to = new Int32Array(p.length);
  let pi = 0, ti = 0, star = -1, mark = 0, steps = 0;
  const n = text.length;
  while (ti < n) {
    const u = p[pi];
    if (pi < p.length && (u === ANY || (u >= 0 && u === lower(text.charCodeAt(ti))))) {
      if (u === ANY) {
        from[pi] = ti;
        to[pi] = ti + 1;
      }
      pi++;
      ti++;
    } else if (pi < p.length && u === STAR) {
      star = pi;
      from[pi] = to[pi] = mark = ti;
      pi++;
    } else if (star >= 0) {
      steps += ti - mark;
      if (steps > WILD_STEPS && more !== undefined) {
        if (!more()) return null;
        steps = 0;
      }
      // The last star takes one more character; everything after it is matched again.
      to[star] = ++mark;
      pi = star + 1;
      ti = mark;
    } else {
      return null;
    }
  }
  while (pi < p.length && p[pi] === STAR) {
    from[pi] = to[pi] = n;
    pi++;
  }
  if (pi !== p.length) return null;
  const out: string[] = [];
  for (let i = 0; i < p.length && out.length < MAX_CAPTURES; i++) {
    if (p[i] === STAR || p[i] === ANY) out.push(text.slice(from[i], to[i]));
  }
  return out;
}

/**
 * The literal text every match starts with, lower-cased (up to the first wildcard), so an
 * index can skip patterns a line cannot match without trying them.
 */
export function literalPrefix(pattern: string): string {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "*" || c === "?") break;
    if (c === "\\" && i + 1 < pattern.length) out += pattern[++i];
    else out += c;
  }
  return out.replace(/[A-Z]/g, (ch) => ch.toLowerCase());
}
