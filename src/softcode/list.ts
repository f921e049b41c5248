/**
 * Lists as MUX splits them: with the default space delimiter, leading and trailing spaces are
 * ignored and a run of spaces is one break; any other delimiter (one or more characters) splits
 * exactly, empty items included.
 */

import { hasMarkup, sliceStyled, styled } from "./markup.ts";

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
export function sepOf(arg: string | undefined, kind: SepKind = {}): string | { error: string } {
  if (arg === undefined || arg === "") return " ";
  if (arg.length === 1) return arg;
  if (kind.allowNull && arg === "@@") return "";
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
  return ranges.map(([a, b]) => sliceStyled(st, a, b));
}
