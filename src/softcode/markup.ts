/**
 * Colour inside evaluated text. While softcode runs, a colour change is a marker: a Unicode
 * noncharacter (U+FDD0–U+FDD4, reserved by Unicode for a program's internal use, and removed
 * from every line a player types: src/text/sanitize.ts) followed by its payload. So a
 * function can tell visible characters from colour without parsing `%` codes again, and
 * nobody can forge a marker by typing it. Text leaves the evaluator through `toWire`, which
 * turns markers into the colour codes the renderers read (`%cr`, `%x<#rrggbb>`) and doubles
 * every literal `%`, so an evaluated `%%r` reaches a player as `%r`, never as a line break.
 *
 * Markers:
 * - U+FDD0 + one letter: `n` normal, `h` highlight, `u` underline, `f` flash, `i` inverse
 * - U+FDD1 + U+0100+n: foreground palette colour n (0–255); U+FDD2 the same for background
 * - U+FDD3 + three units U+0100+r, +g, +b: exact foreground RGB; U+FDD4 background
 */

/** Introducer of an attribute marker (`n`, `h`, `u`, `f`, `i` follows). */
export const M_ATTR = "\uFDD0";
/** Introducer of a foreground palette marker. */
export const M_FG = "\uFDD1";
/** Introducer of a background palette marker. */
export const M_BG = "\uFDD2";
/** Introducer of an exact foreground RGB marker. */
export const M_FG_RGB = "\uFDD3";
/** Introducer of an exact background RGB marker. */
export const M_BG_RGB = "\uFDD4";

/** The marker that ends every colour: back to normal. */
export const NORMAL = M_ATTR + "n";

const FIRST = 0xfdd0;
const LAST = 0xfdd4;

/** True when a UTF-16 unit starts a marker. */
export function isMarker(code: number): boolean {
  return code >= FIRST && code <= LAST;
}

/** Units a marker takes, from its introducer. */
function markerLength(code: number): number {
  return code >= 0xfdd3 ? 4 : 2;
}

const HAS_MARKUP = /[\uFDD0-\uFDD4]/;

/** True when the text holds any colour marker. */
export function hasMarkup(s: string): boolean {
  return HAS_MARKUP.test(s);
}

/**
 * The text with colour markers only where a character's colour changes: MUX's strings hold each
 * character's colour, so `a%xnb` and `a%xg%xnb` are two plain characters there, and
 * ansi(r,a%xnb) colours both. A plain character after a coloured one is set back to normal.
 */
export function withoutIdleResets(s: string): string {
  const st = styled(s);
  let out = "", prev = "";
  for (let i = 0; i < st.chars.length; i++) {
    // The state so far, simplified, and this character's markers: linear in the text.
    const state = st.codes[i] === "" ? prev : stateOf(prev + st.codes[i]);
    if (state !== prev) {
      if (state === "") out += NORMAL;
      else if (prev === "") out += state;
      else out += st.codes[i];
    }
    out += st.chars[i];
    prev = state;
  }
  return prev === "" ? out : out + NORMAL;
}

const PAYLOAD = 0x100;

/** A palette marker (foreground unless `bg`). */
export function paletteMarker(index: number, bg: boolean): string {
  return (bg ? M_BG : M_FG) + String.fromCharCode(PAYLOAD + (index & 0xff));
}

/** An exact RGB marker (foreground unless `bg`). */
export function rgbMarker(r: number, g: number, b: number, bg: boolean): string {
  return (bg ? M_BG_RGB : M_FG_RGB) +
    String.fromCharCode(PAYLOAD + (r & 0xff), PAYLOAD + (g & 0xff), PAYLOAD + (b & 0xff));
}

const BASIC = "xrgybmcw";

/**
 * The marker for one MUX colour letter (`ansi()` codes and `%x<letter>`), or "" for a letter
 * that is not one: `n h u f i`, lower-case colours for foreground, upper-case for background.
 */
export function letterMarker(letter: string): string {
  switch (letter) {
    case "n":
    case "h":
    case "u":
    case "f":
    case "i":
      return M_ATTR + letter;
  }
  const fg = BASIC.indexOf(letter);
  if (fg >= 0) return paletteMarker(fg, false);
  const bg = BASIC.indexOf(letter.toLowerCase());
  if (bg >= 0 && letter !== letter.toLowerCase()) return paletteMarker(bg, true);
  return "";
}

/**
 * Parses MUX's `<...>` colour forms: `#RRGGBB` (hex) or `R G B` (three decimals 0–255, one
 * space apart). Null when it is neither.
 */
export function parseRgb(spec: string): [number, number, number] | null {
  if (spec.length === 7 && spec[0] === "#") {
    if (!/^#[0-9a-fA-F]{6}$/.test(spec)) return null;
    const n = parseInt(spec.slice(1), 16);
    return [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
  }
  const m = /^(\d{1,3}) (\d{1,3}) (\d{1,3})$/.exec(spec);
  if (!m) return null;
  const rgb = [Number(m[1]), Number(m[2]), Number(m[3])];
  return rgb.every((v) => v <= 255) ? rgb as [number, number, number] : null;
}

/** Removes every colour marker. */
export function stripMarkup(s: string): string {
  if (!hasMarkup(s)) return s;
  let out = "";
  let i = 0;
  const n = s.length;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (isMarker(c)) {
      i += markerLength(c);
      continue;
    }
    let j = i + 1;
    while (j < n && !isMarker(s.charCodeAt(j))) j++;
    out += s.slice(i, j);
    i = j;
  }
  return out;
}

/** True for the first half of a surrogate pair at `i`. */
function pairAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff || i + 1 >= s.length) return false;
  const d = s.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff;
}

const NOT_SIMPLE = /[\uD800-\uDFFF\uFDD0-\uFDD4]/;

/** True when `s` is plain: no marker and no astral character, so units are characters. */
export function isSimple(s: string): boolean {
  // Most texts asked about are short (a list's item, a result): a loop costs less there than
  // a regular expression's call.
  if (s.length > 24) return !NOT_SIMPLE.test(s);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 0xd800 && c <= 0xdfff) || (c >= 0xfdd0 && c <= 0xfdd4)) return false;
  }
  return true;
}

/** Visible characters (code points, markers excluded). */
export function visibleLength(s: string): number {
  if (isSimple(s)) return s.length;
  let count = 0;
  for (let i = 0; i < s.length;) {
    const c = s.charCodeAt(i);
    if (isMarker(c)) {
      i += markerLength(c);
    } else {
      i += pairAt(s, i) ? 2 : 1;
      count++;
    }
  }
  return count;
}

/**
 * A text split into its visible characters, each with the markers in force before it (the
 * markers since the last `normal`): what colour-aware slicing needs. `tail` holds the markers
 * after the last character.
 */
export interface Styled {
  chars: string[];
  /** For each character, the markers that precede it directly (usually ""). */
  codes: string[];
  tail: string;
}

/** Splits a text into characters and the markers before each. */
export function styled(s: string): Styled {
  const chars: string[] = [];
  const codes: string[] = [];
  let pending = "";
  for (let i = 0; i < s.length;) {
    const c = s.charCodeAt(i);
    if (isMarker(c)) {
      const len = markerLength(c);
      pending += s.slice(i, i + len);
      i += len;
      continue;
    }
    const len = pairAt(s, i) ? 2 : 1;
    chars.push(s.slice(i, i + len));
    codes.push(pending);
    pending = "";
    i += len;
  }
  return { chars, codes, tail: pending };
}

/**
 * The markers in force after `codes` (everything since the last `normal`), simplified to
 * at most one of each kind.
 */
function stateOf(codes: string): string {
  let hi = false, ul = false, fl = false, inv = false;
  let fg = "", bg = "";
  for (let i = 0; i < codes.length;) {
    const c = codes.charCodeAt(i);
    const len = markerLength(c);
    const m = codes.slice(i, i + len);
    if (c === 0xfdd0) {
      switch (m[1]) {
        case "n":
          hi =
            ul =
            fl =
            inv =
              false;
          fg = bg = "";
          break;
        case "h":
          hi = true;
          break;
        case "u":
          ul = true;
          break;
        case "f":
          fl = true;
          break;
        case "i":
          inv = true;
          break;
      }
    } else if (c === 0xfdd1 || c === 0xfdd3) {
      fg = m;
    } else {
      bg = m;
    }
    i += len;
  }
  return (hi ? M_ATTR + "h" : "") + (ul ? M_ATTR + "u" : "") + (fl ? M_ATTR + "f" : "") +
    (inv ? M_ATTR + "i" : "") + fg + bg;
}

/**
 * Characters `start` (inclusive) to `end` (exclusive) of a styled text, keeping their colour:
 * the colour in force at `start` opens the slice, and a slice that ends coloured is closed
 * with `normal`.
 */
export function sliceStyled(st: Styled, start: number, end: number): string {
  const n = st.chars.length;
  const a = Math.max(0, Math.min(start, n));
  const b = Math.max(a, Math.min(end, n));
  if (a === b) return "";
  let before = "";
  for (let i = 0; i <= a; i++) before += st.codes[i];
  let out = stateOf(before) + st.chars[a];
  let inside = "";
  for (let i = a + 1; i < b; i++) {
    out += st.codes[i] + st.chars[i];
    inside += st.codes[i];
  }
  return stateOf(before + inside) === "" ? out : out + NORMAL;
}

/**
 * sliceStyled() of each of `ranges` (in order, none overlapping the next), in one walk: the
 * colour in force is carried from slice to slice, where sliceStyled() reads it again from the
 * text's start, which made splitting a coloured list of n items O(n²) (ldelete() of 1,300
 * coloured words took 40 ms).
 */
export function slicesStyled(st: Styled, ranges: readonly (readonly [number, number])[]): string[] {
  const slice = styledSlicer(st);
  return ranges.map(([a, b]) => slice(a, b));
}

/**
 * sliceStyled() for slices asked in order, none overlapping the next (see slicesStyled): the
 * colour in force is carried from one to the next.
 */
export function styledSlicer(st: Styled): (start: number, end: number) => string {
  const n = st.chars.length;
  // The colour in force after the markers of the characters before `at`.
  let state = "";
  let at = 0;
  return (start, end) => {
    const a = Math.max(0, Math.min(start, n));
    const b = Math.max(a, Math.min(end, n));
    if (a === b) return "";
    for (; at <= a; at++) if (st.codes[at]) state = stateOf(state + st.codes[at]);
    let s = state + st.chars[a];
    for (let i = a + 1; i < b; i++) s += st.codes[i] + st.chars[i];
    for (; at < b; at++) if (st.codes[at]) state = stateOf(state + st.codes[at]);
    return state === "" ? s : s + NORMAL;
  };
}

/** Each character as sliceStyled(st, i, i + 1) gives it, in one walk (see styledSlicer). */
export function styledChars(st: Styled): string[] {
  const slice = styledSlicer(st);
  return st.chars.map((_, i) => slice(i, i + 1));
}

/** Characters `start` to `end` (visible positions) of a text, colour kept. */
export function sliceVisible(s: string, start: number, end: number): string {
  if (isSimple(s)) return s.slice(Math.max(0, start), Math.max(0, end));
  return sliceStyled(styled(s), start, end);
}

/** Closes a text's colour if it ends coloured (function results never bleed). */
export function closeColour(s: string): string {
  // Most results are short: a loop is cheaper there than a regular expression's call.
  if (s.length <= 32) {
    let marked = false;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0xfdd0 && c <= 0xfdd4) {
        marked = true;
        break;
      }
    }
    if (!marked) return s;
  } else if (!hasMarkup(s)) return s;
  return endState(s) !== "" ? s + NORMAL : s;
}

/** The colour in force at the end of a text (markers since the last `normal`), simplified. */
export function endState(s: string): string {
  if (!hasMarkup(s)) return "";
  let codes = "";
  for (let i = 0; i < s.length;) {
    const c = s.charCodeAt(i);
    if (isMarker(c)) {
      const len = markerLength(c);
      codes += s.slice(i, i + len);
      i += len;
    } else i++;
  }
  return stateOf(codes);
}

/** The 256-colour palette as MUX defines it (0–15 system colours, a 6×6×6 cube, 24 greys). */
export const PALETTE: readonly (readonly [number, number, number])[] = (() => {
  const out: [number, number, number][] = [];
  for (let i = 0; i < 16; i++) {
    const v = i < 8 ? 0xbb : 0xff;
    const lo = i < 8 ? 0 : 0x55;
    out.push([i & 1 ? v : lo, i & 2 ? v : lo, i & 4 ? v : lo]);
  }
  const level = [0, 95, 135, 175, 215, 255];
  for (let r = 0; r < 6; r++) {
    for (let g = 0; g < 6; g++) {
      for (let b = 0; b < 6; b++) out.push([level[r], level[g], level[b]]);
    }
  }
  for (let i = 0; i < 24; i++) {
    const v = 8 + 10 * i;
    out.push([v, v, v]);
  }
  return out;
})();

/** Distance between two colours as the eye weighs it (luma counts most). */
function distance(a: readonly number[], b: readonly number[]): number {
  const dr = a[0] - b[0], dg = a[1] - b[1], db = a[2] - b[2];
  const y = 0.299 * dr + 0.587 * dg + 0.114 * db;
  const u = -0.169 * dr - 0.331 * dg + 0.5 * db;
  const v = 0.5 * dr - 0.419 * dg - 0.081 * db;
  return 4 * y * y + u * u + v * v;
}

/** The palette entry nearest to an RGB colour among the first `size` entries (16 or 256). */
export function nearestPalette(r: number, g: number, b: number, size = 256): number {
  const want = [r, g, b];
  let best = 0;
  let bestD = Infinity;
  for (let i = 0; i < size; i++) {
    const d = distance(want, PALETTE[i]);
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

function hex2(n: number): string {
  return n.toString(16).padStart(2, "0");
}

/**
 * Turns evaluated text into what delivery carries: markers become colour codes (`%ch`,
 * `%cr`, `%cR`, `%x<#rrggbb>`, `%X<#rrggbb>`), every literal `%` is doubled, CR LF pairs
 * become line breaks. The renderers (src/text/colour.ts, web/assets/colour.js) read it once.
 */
export function toWire(s: string): string {
  if (!HAS_MARKUP.test(s) && s.indexOf("%") < 0 && s.indexOf("\r") < 0) return s;
  let out = "";
  let run = 0;
  const n = s.length;
  for (let i = 0; i < n;) {
    const c = s.charCodeAt(i);
    if (c !== 0x25 && c !== 0x0d && !isMarker(c)) {
      i++;
      continue;
    }
    out += s.slice(run, i);
    if (c === 0x25) {
      out += "%%";
      i++;
    } else if (c === 0x0d) {
      // CR LF (what %r makes) and a lone CR are both one line break.
      out += "\n";
      i += s.charCodeAt(i + 1) === 0x0a ? 2 : 1;
    } else {
      out += markerCode(s, i, c);
      i += markerLength(c);
    }
    run = i;
  }
  return out + s.slice(run);
}

function markerCode(s: string, i: number, c: number): string {
  if (c === 0xfdd0) return "%c" + s[i + 1];
  if (c === 0xfdd1 || c === 0xfdd2) {
    const index = s.charCodeAt(i + 1) - PAYLOAD;
    if (index < 8) {
      const letter = BASIC[index];
      return "%c" + (c === 0xfdd1 ? letter : letter.toUpperCase());
    }
    const [r, g, b] = PALETTE[index & 0xff];
    return `%${c === 0xfdd1 ? "x" : "X"}<#${hex2(r)}${hex2(g)}${hex2(b)}>`;
  }
  const r = s.charCodeAt(i + 1) - PAYLOAD;
  const g = s.charCodeAt(i + 2) - PAYLOAD;
  const b = s.charCodeAt(i + 3) - PAYLOAD;
  return `%${c === 0xfdd3 ? "x" : "X"}<#${hex2(r)}${hex2(g)}${hex2(b)}>`;
}

/**
 * Colour codes as typed (`%ch`, `%xr`, `%x<#ff8040>`, ...) turned into markers, everything
 * else left as it is: for text that is shown without evaluation but should keep its colour
 * inside an evaluation (a name with a moniker, say).
 */
export function codesToMarkup(s: string): string {
  if (s.indexOf("%") < 0) return s;
  return s.replace(/%([cCxX])(<([^>]*)>|[a-zA-Z])/g, (all, kind: string, rest: string, spec) => {
    if (spec === undefined) return letterMarker(rest) || all;
    const rgb = parseRgb(spec);
    if (!rgb) return all;
    return rgbMarker(rgb[0], rgb[1], rgb[2], kind === "X" || kind === "C");
  });
}
