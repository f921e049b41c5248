/**
 * Attribute names and values: TinyMUX 2.12's name rules (checked against the server itself),
 * the limits, and the wildcard patterns of `examine`, `@wipe`, `lattr()` and the REST list.
 */

/** Longest attribute name (TinyMUX 2.12 silently cuts names at 63; we refuse, and allow 64). */
export const MAX_ATTR_NAME = 64;
/** Longest attribute value, in characters (MUX's LBUF). */
export const MAX_ATTR_VALUE = 8000;
/** Longest description (DESC, `@describe`, REST, a script's u.describe): an attribute's limit. */
export const MAX_DESCRIPTION = MAX_ATTR_VALUE;

/** What may start a name: a letter, or one of `_ ~ # .` (as TinyMUX 2.12 accepts). */
const INITIAL = /^[A-Z_~#.]$/;
/** What may follow: letters, digits and the punctuation TinyMUX 2.12 accepts in names. */
const REST = /^[A-Z0-9!#$&'()+\-./<>?@^_`~]*$/;

/** MUX's refusal, with the rule spelled out. */
export const BAD_NAME =
  "That's not a good name for an attribute: a name starts with a letter (or _ ~ # .) and " +
  `holds up to ${MAX_ATTR_NAME} letters, digits and ! # $ & ' ( ) + - . / < > ? @ ^ _ \` ~.`;

/** Upper-cases ASCII letters only (attribute names are ASCII; others fail the rules anyway). */
function upper(s: string): string {
  return s.toUpperCase();
}

/** The canonical (upper-cased, trimmed) form of a name, or null when it breaks the rules. */
export function canonicalAttrName(raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  const name = upper(raw.trim());
  if (!name || name.length > MAX_ATTR_NAME) return null;
  return INITIAL.test(name[0]) && REST.test(name.slice(1)) ? name : null;
}

/** Why a value cannot be stored, or null: a string of at most MAX_ATTR_VALUE characters. */
export function attrValueProblem(value: unknown): string | null {
  if (typeof value !== "string") return "An attribute's value must be text.";
  if (value.length > MAX_ATTR_VALUE) {
    return `That value is ${value.length} characters; an attribute holds at most ${MAX_ATTR_VALUE}.`;
  }
  return null;
}

/**
 * What each attribute counts against the quota beyond its text: its entry costs the engine a
 * record and a key in the database and more than this in memory, so a quota counted in text alone
 * let one player hold 250,000 one-byte attributes under the default 2,000,000 bytes.
 */
export const ATTR_ENTRY_BYTES = 100;

/** Bytes an attribute counts against its owner's quota: its name and value in UTF-8, and its entry. */
export function attrBytes(name: string, value: string): number {
  return ATTR_ENTRY_BYTES + utf8Length(name) + utf8Length(value);
}

/** The UTF-8 length of a string, without encoding it (lone surrogates count 3, as TextEncoder). */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

/** Longest wildcard pattern taken (a name and its wildcards). */
export const MAX_ATTR_PATTERN = 2 * MAX_ATTR_NAME;

/**
 * A matcher for a MUX wildcard pattern over attribute names: `*` any run of characters, `?` one,
 * case-insensitive; null when the pattern is longer than MAX_ATTR_PATTERN. Matching never
 * backtracks more than once per star (the classic two-pointer walk), so no pattern is slow.
 */
export function attrPattern(pattern: string): ((name: string) => boolean) | null {
  const p = upper(pattern.trim());
  if (p.length > MAX_ATTR_PATTERN) return null;
  if (!p.includes("*") && !p.includes("?")) return (name) => name === p;
  return (name) => globMatch(p, name);
}

function globMatch(p: string, s: string): boolean {
  let pi = 0, si = 0, star = -1, mark = 0;
  while (si < s.length) {
    if (pi < p.length && (p[pi] === "?" || p[pi] === s[si])) {
      pi++;
      si++;
    } else if (pi < p.length && p[pi] === "*") {
      star = pi++;
      mark = si;
    } else if (star !== -1) {
      pi = star + 1;
      si = ++mark;
    } else return false;
  }
  while (pi < p.length && p[pi] === "*") pi++;
  return pi === p.length;
}
