/**
 * A small semantic-version range check for plugin manifests: `>=`, `>`, `<=`, `<`, `=`,
 * `^`, `~`, x-ranges (`1.x`, `1.2.*`, `*`), space-joined AND and `||`-joined OR.
 */

/** A parsed version: three numbers and optional pre-release identifiers. */
export interface Version {
  major: number;
  minor: number;
  patch: number;
  pre: string[];
}

/** Longest range string accepted (ranges come from files a stranger may have written). */
const MAX_RANGE_LENGTH = 256;

const NUM = "0|[1-9]\\d{0,8}";
const IDENT = "[0-9A-Za-z-]+";
const VERSION_RE = new RegExp(
  `^v?(${NUM})\\.(${NUM})\\.(${NUM})(?:-(${IDENT}(?:\\.${IDENT})*))?(?:\\+${IDENT}(?:\\.${IDENT})*)?$`,
);
const PART = `(?:${NUM}|[xX*])`;
const PARTIAL_RE = new RegExp(
  `^v?(${PART})(?:\\.(${PART})(?:\\.(${PART})(?:-(${IDENT}(?:\\.${IDENT})*))?)?)?$`,
);

/** Parses an exact version such as `1.2.3` or `1.0.0-beta.1`; null when malformed. */
export function parseVersion(text: string): Version | null {
  if (typeof text !== "string" || text.length > MAX_RANGE_LENGTH) return null;
  const m = VERSION_RE.exec(text.trim());
  if (!m) return null;
  return { major: +m[1], minor: +m[2], patch: +m[3], pre: m[4] ? m[4].split(".") : [] };
}

/** Compares two versions: negative, zero or positive (pre-releases sort before their release). */
export function compareVersions(a: Version, b: Version): number {
  if (a.major !== b.major) return a.major - b.major;
  if (a.minor !== b.minor) return a.minor - b.minor;
  if (a.patch !== b.patch) return a.patch - b.patch;
  if (!a.pre.length || !b.pre.length) return b.pre.length - a.pre.length;
  for (let i = 0; i < Math.max(a.pre.length, b.pre.length); i++) {
    if (i >= a.pre.length) return -1;
    if (i >= b.pre.length) return 1;
    const x = a.pre[i], y = b.pre[i];
    const xn = /^\d+$/.test(x), yn = /^\d+$/.test(y);
    if (xn && yn && +x !== +y) return +x - +y;
    if (xn !== yn) return xn ? -1 : 1;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

type Op = ">=" | ">" | "<=" | "<" | "=";

/** One primitive comparison such as `>= 1.2.0`. */
interface Comparator {
  op: Op;
  version: Version;
}

/** A partial version: missing or wildcard parts are null. */
interface Partial {
  major: number | null;
  minor: number | null;
  patch: number | null;
  pre: string[];
}

function parsePartial(text: string): Partial | null {
  const m = PARTIAL_RE.exec(text);
  if (!m) return null;
  const num = (s: string | undefined) => s === undefined || /^[xX*]$/.test(s) ? null : +s;
  const p: Partial = { major: num(m[1]), minor: num(m[2]), patch: num(m[3]), pre: [] };
  // A wildcard part makes every later part a wildcard too (`1.x.3` means `1.x`).
  if (p.major === null) p.minor = null;
  if (p.minor === null) p.patch = null;
  if (p.patch !== null && m[4]) p.pre = m[4].split(".");
  return p;
}

function v(major: number, minor: number, patch: number, pre: string[] = []): Version {
  return { major, minor, patch, pre };
}

/** Expands one space-separated token of a range into primitive comparators. */
function expandToken(token: string): Comparator[] | null {
  const m = /^(>=|<=|>|<|=|\^|~>?|)(.*)$/.exec(token)!;
  const op = m[1] === "~>" ? "~" : m[1];
  const p = parsePartial(m[2]);
  if (!p) return null;
  const { major, minor, patch, pre } = p;
  const any: Comparator[] = [];
  if (major === null) {
    // `*`, `x`, `>=*`: anything; `<*` or `>*`: nothing.
    return op === "<" || op === ">" ? [{ op: "<", version: v(0, 0, 0, ["0"]) }] : any;
  }
  const lo = v(major, minor ?? 0, patch ?? 0, pre);
  switch (op) {
    case "":
    case "=":
      if (minor === null) {
        return [{ op: ">=", version: lo }, { op: "<", version: v(major + 1, 0, 0) }];
      }
      if (patch === null) {
        return [{ op: ">=", version: lo }, { op: "<", version: v(major, minor + 1, 0) }];
      }
      return [{ op: "=", version: lo }];
    case ">=":
      return [{ op: ">=", version: lo }];
    case "<":
      return [{ op: "<", version: lo }];
    case ">":
      if (minor === null) return [{ op: ">=", version: v(major + 1, 0, 0) }];
      if (patch === null) return [{ op: ">=", version: v(major, minor + 1, 0) }];
      return [{ op: ">", version: lo }];
    case "<=":
      if (minor === null) return [{ op: "<", version: v(major + 1, 0, 0) }];
      if (patch === null) return [{ op: "<", version: v(major, minor + 1, 0) }];
      return [{ op: "<=", version: lo }];
    case "~":
      if (minor === null) {
        return [{ op: ">=", version: lo }, { op: "<", version: v(major + 1, 0, 0) }];
      }
      return [{ op: ">=", version: lo }, { op: "<", version: v(major, minor + 1, 0) }];
    case "^": {
      let hi: Version;
      if (major > 0 || minor === null) hi = v(major + 1, 0, 0);
      else if (minor > 0 || patch === null) hi = v(0, minor + 1, 0);
      else hi = v(0, 0, patch + 1);
      return [{ op: ">=", version: lo }, { op: "<", version: hi }];
    }
  }
  return null;
}

/** A parsed range: alternatives (OR) of comparator sets (AND). */
export type Range = Comparator[][];

/** Parses a range such as `>=1.0.0 <2.0.0 || ^3.1`; null when malformed. */
export function parseRange(text: string): Range | null {
  if (typeof text !== "string" || text.length > MAX_RANGE_LENGTH) return null;
  const out: Range = [];
  for (const alt of text.split("||")) {
    // `>= 1.0.0` (space after the operator) is common in the wild; glue it back.
    const tokens = alt.trim().replace(/(>=|<=|>|<|=|\^|~>?)\s+/g, "$1").split(/\s+/)
      .filter(Boolean);
    const set: Comparator[] = [];
    for (const t of tokens) {
      const c = expandToken(t);
      if (!c) return null;
      set.push(...c);
    }
    out.push(set);
  }
  return out;
}

function test(c: Comparator, ver: Version): boolean {
  const d = compareVersions(ver, c.version);
  switch (c.op) {
    case ">=":
      return d >= 0;
    case ">":
      return d > 0;
    case "<=":
      return d <= 0;
    case "<":
      return d < 0;
    case "=":
      return d === 0;
  }
}

/** True when `version` satisfies `range`; false for a malformed version or range. */
export function satisfies(version: string, range: string): boolean {
  const ver = parseVersion(version);
  const r = parseRange(range);
  if (!ver || !r) return false;
  return r.some((set) => set.every((c) => test(c, ver)));
}
