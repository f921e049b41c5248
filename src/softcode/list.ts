/**
 * Lists as MUX splits them: with the default space delimiter, leading and trailing spaces are
 * ignored and a run of spaces is one break; any other delimiter (one or more characters) splits
 * exactly, empty items included.
 */

import { hasMarkup, slicesStyled, styled } from "./markup.ts";

/** Longest delimiter accepted (MUX's MAX_SEP_LEN). */
export const MAX_SEP = 50;

/** Splits a list. An empty (or, with spaces, blank) list has no items. */
export function splitList(s: string, sep: string): string[] {
  if (sep === " ") {
    let a = 0, b = s.length;
    while (a < b && s.charCodeAt(a) === 0x20) a++;
    while (b > a && s.charCodeAt(b - 1) === 0x20) b--;
    if (a === b) return [];
    const out: string[] = [];
    let start = a;
    for (let i = a; i < b; i++) {
      if (s.charCodeAt(i) === 0x20) {
        out.push(s.slice(start, i));
        while (i + 1 < b && s.charCodeAt(i + 1) === 0x20) i++;
        start = i + 1;
      }
    }
    out.push(s.slice(start, b));
    return out;
  }
  if (s === "") return [];
  return s.split(sep);
}

/**
 * The items as MUX's loops over split_token() read them: an empty list is one empty item
 * (member(,) is 1, land(,) is 0).
 */
export function splitTokens(s: string, sep: string): string[] {
  const w = splitList(s, sep);
  return w.length ? w : [""];
}

/**
 * How many items splitList(s, sep) gives, counted in place: words() of a listing's 30 dbrefs
 * made 30 strings and an array to read one number.
 */
export function countList(s: string, sep: string): number {
  if (sep === " ") {
    // An item is a run of characters other than a space.
    let n = 0;
    let inItem = false;
    for (let i = 0; i < s.length; i++) {
      if (s.charCodeAt(i) === 0x20) inItem = false;
      else if (!inItem) {
        inItem = true;
        n++;
      }
    }
    return n;
  }
  if (s === "") return 0;
  // split("") gives each UTF-16 unit.
  if (sep === "") return s.length;
  let n = 1;
  for (let at = s.indexOf(sep); at >= 0; at = s.indexOf(sep, at + sep.length)) n++;
  return n;
}

/**
 * The position (from 1) of the first item of splitList(s, sep) equal to `word`, 0 when none,
 * read in place: member() in a listing's row split the same list into new strings each call.
 */
export function itemPosition(s: string, sep: string, word: string): number {
  const w = word.length;
  if (sep === " ") {
    let pos = 0;
    for (let i = 0; i < s.length;) {
      if (s.charCodeAt(i) === 0x20) {
        i++;
        continue;
      }
      let end = s.indexOf(" ", i);
      if (end < 0) end = s.length;
      pos++;
      if (end - i === w && s.startsWith(word, i)) return pos;
      i = end;
    }
    // A blank list is one empty item, as in MUX.
    return pos === 0 && w === 0 ? 1 : 0;
  }
  if (s === "" || sep === "") return splitTokens(s, sep).indexOf(word) + 1;
  for (let pos = 1, start = 0;; pos++) {
    const at = s.indexOf(sep, start);
    const end = at < 0 ? s.length : at;
    if (end - start === w && s.startsWith(word, start)) return pos;
    if (at < 0) return 0;
    start = at + sep.length;
  }
}

/**
 * The first item and the rest after it (MUX's split_token on a trimmed list), or null for an
 * empty list. `rest` is null when there is no delimiter left.
 */
export function firstAndRest(
  s: string,
  sep: string,
): { first: string; rest: string | null } | null {
  let t = s;
  if (sep === " ") {
    t = t.replace(/^ +/, "").replace(/ +$/, "");
  }
  if (t === "" && sep === " ") return null;
  const at = t.indexOf(sep);
  if (at < 0) return { first: t, rest: null };
  let rest = t.slice(at + sep.length);
  if (sep === " ") rest = rest.replace(/^ +/, "");
  return { first: t.slice(0, at), rest };
}

/** What kind of delimiter an argument may be. */
export interface SepKind {
  /** `@@` means no separator (output separators). */
  allowNull?: boolean;
}

/**
 * A delimiter argument: empty means a space; `@@` means none where allowed; up to MAX_SEP
 * characters. An error text (starting `#-1`) when it is too long.
 */
export function sepOf(arg: string | undefined, kind?: SepKind): string | { error: string } {
  if (arg === undefined || arg === "") return " ";
  if (arg.length === 1) return arg;
  // No default `{}`: that made an object at every call of a list function.
  if (kind?.allowNull && arg === "@@") return "";
  if (arg.length > MAX_SEP) return { error: "#-1 SEPARATOR IS TOO LARGE" };
  return arg;
}

/**
 * Splits a list keeping each item's colour (MUX's mux_words: extract(), last(), elements(),
 * remove(), revwords()): an item starts in the colour in force where it starts, and ends closed.
 */
export function splitStyledList(s: string, sep: string): string[] {
  if (!hasMarkup(s)) return splitList(s, sep);
  const st = styled(s);
  const chars = st.chars;
  const ranges: [number, number][] = [];
  const n = chars.length;
  if (sep === " ") {
    let i = 0;
    while (i < n) {
      while (i < n && chars[i] === " ") i++;
      if (i >= n) break;
      const start = i;
      while (i < n && chars[i] !== " ") i++;
      ranges.push([start, i]);
    }
  } else {
    if (n === 0) return [];
    const sepChars = [...sep];
    let start = 0;
    for (let i = 0; i <= n - sepChars.length;) {
      if (sepChars.every((c, k) => chars[i + k] === c)) {
        ranges.push([start, i]);
        i += sepChars.length;
        start = i;
      } else i++;
    }
    ranges.push([start, n]);
  }
  return slicesStyled(st, ranges);
}

/**
 * MUX's extract(): `count` items from item `first` (1 is the first), joined with `osep`. A list
 * without colour up to the last item taken is walked only that far and cut from the text, where
 * splitting the whole list made a string of every item (extract(get(...),1,100) of 1,000 words).
 */
export function extractList(
  s: string,
  first: number,
  count: number,
  sep: string,
  osep: string,
): string {
  if (first < 1 || count < 1) return "";
  const plain = sep === " "
    ? extractSpaced(s, first, count, osep)
    : extractExact(s, first, count, sep, osep);
  return plain ?? splitStyledList(s, sep).slice(first - 1, first - 1 + count).join(osep);
}

/** True when a UTF-16 unit starts a colour marker (markup.ts's markers) or is a surrogate. */
function unplain(c: number): boolean {
  return (c >= 0xfdd0 && c <= 0xfdd4) || (c >= 0xd800 && c <= 0xdfff);
}

/**
 * extract() on a space-separated list, or null when a marker comes before the last item taken
 * ends (those items' colour depends on it). Items are runs of non-spaces.
 */
function extractSpaced(s: string, first: number, count: number, osep: string): string | null {
  const len = s.length;
  let i = 0, item = 0, start = -1, end = 0, runs = false;
  while (item < first - 1 + count) {
    let j = i;
    while (j < len && s.charCodeAt(j) === 0x20) j++;
    if (j >= len) break;
    if (item === first - 1) start = j;
    else if (start >= 0 && j - i > 1) runs = true;
    let k = j;
    for (; k < len; k++) {
      const c = s.charCodeAt(k);
      if (c === 0x20) break;
      if (c >= 0xfdd0 && c <= 0xfdd4) return null;
    }
    item++;
    end = i = k;
  }
  if (start < 0) return "";
  const cut = s.slice(start, end);
  return !runs && osep === " " ? cut : splitList(cut, " ").join(osep);
}

/**
 * extract() on a list with any other delimiter (split exactly, empty items kept), or null when a
 * marker comes before the last item taken ends, or the delimiter holds half a surrogate pair
 * (the colour-aware split, taken when the list has colour anywhere, splits by code points).
 */
function extractExact(
  s: string,
  first: number,
  count: number,
  sep: string,
  osep: string,
): string | null {
  for (let k = 0; k < sep.length; k++) if (unplain(sep.charCodeAt(k))) return null;
  if (s === "") return "";
  // Where a delimiter is not found, the whole text is looked at for markers: the colour-aware
  // split finds a delimiter that a marker interrupts (a\uFDD0hb holds ab).
  let start = 0, found = true;
  for (let k = 1; k < first && found; k++) {
    const at = s.indexOf(sep, start);
    if (at < 0) found = false;
    else start = at + sep.length;
  }
  let end = s.length;
  for (let k = 0, from = start; found;) {
    const at = s.indexOf(sep, from);
    if (at < 0) break;
    if (++k === count) {
      end = at;
      break;
    }
    from = at + sep.length;
  }
  for (let k = 0; k < end; k++) {
    const c = s.charCodeAt(k);
    if (c >= 0xfdd0 && c <= 0xfdd4) return null;
  }
  if (!found) return "";
  const cut = s.slice(start, end);
  return osep === sep ? cut : cut.split(sep).join(osep);
}
