/**
 * Turns one in-game input line into a command name, switches and arguments.
 *
 * Pure and linear-time: the hub calls this for every line a player sends, so it must never throw
 * and never backtrack, whatever the input.
 */
import { sanitizeText } from "../text/sanitize.ts";
import { lowerCase } from "../text/lower.ts";

/** A parsed command line. */
export interface ParsedLine {
  /** The line as received, trailing CR/LF/whitespace removed. */
  raw: string;
  /** Command word lower-cased, prefix included: `@set`, `+job`, `look`, `say`, `&`. */
  name: string;
  /** Switches lower-cased: `["hidden"]` for `@chancreate/hidden Foo`. */
  switches: string[];
  /** Everything after the command word and its switches, leading space removed. */
  args: string;
  /** Args before the first `=`, trimmed; all of args when there is no `=`. */
  lhs: string;
  /** Args after the first `=`, trimmed; null when there is no `=`. */
  rhs: string | null;
}

const SWITCH_RE = /^[a-z0-9_-]+$/;
const WHITESPACE_RE = /\s/;

/** Parses one input line; null for an empty or whitespace-only line. */
export function parseLine(line: string): ParsedLine | null {
  if (typeof line !== "string") return null;
  const raw = line.trimEnd();
  const body = raw.trimStart();
  if (body === "") return null;

  switch (body[0]) {
    case '"':
      return build(raw, "say", [], body.slice(1));
    case ":":
      // `:waves` and `: waves` both pose "waves"; only one space is eaten so indentation survives.
      return build(raw, "pose", [], body[1] === " " ? body.slice(2) : body.slice(1));
    case ";":
      // A semipose glues the text to the name (`;'s cat`), so nothing is stripped.
      return build(raw, "semipose", [], body.slice(1));
    case "\\":
      // TinyMUSH documents `\\text`, PennMUSH `\text`: accept both spellings.
      return build(raw, "@emit", [], body.slice(body[1] === "\\" ? 2 : 1));
    case "&":
      return build(raw, "&", [], body.slice(1).trimStart());
  }

  const end = firstSpace(body);
  const word = end === -1 ? body : body.slice(0, end);
  const args = end === -1 ? "" : body.slice(end).trimStart();
  const [name, switches] = splitSwitches(lowerCase(word));
  return build(raw, name, switches, args);
}

/**
 * Where the first whitespace (as `\s` means it) is, or -1: a scan for the ASCII kinds, and the
 * regular expression only once a character beyond ASCII comes before any of them.
 */
function firstSpace(s: string): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 32 || (c >= 9 && c <= 13)) return i;
    if (c >= 0x80) return s.search(WHITESPACE_RE);
  }
  return -1;
}

/** Splits `@cmd/a/b` into its name and switches; a malformed word stays whole so it fails lookup. */
function splitSwitches(word: string): [string, string[]] {
  const slash = word.indexOf("/");
  if (slash <= 0) return [word, []];
  const switches = word.slice(slash + 1).split("/");
  for (const s of switches) {
    if (!SWITCH_RE.test(s)) return [word, []];
  }
  return [word.slice(0, slash), switches];
}

function build(raw: string, name: string, switches: string[], args: string): ParsedLine {
  const eq = args.indexOf("=");
  if (eq === -1) return { raw, name, switches, args, lhs: args.trim(), rhs: null };
  return {
    raw,
    name,
    switches,
    args,
    lhs: args.slice(0, eq).trim(),
    rhs: args.slice(eq + 1).trim(),
  };
}

/**
 * Cleans untrusted input before parsing (see src/text/sanitize.ts: controls, escapes, bidi
 * overrides, lone surrogates and noncharacters go), turns tabs into spaces, caps the length in
 * code points and trims trailing whitespace.
 */
export function sanitizeLine(line: string, maxLength: number): string {
  return sanitizeText(line, { maxLength }).trimEnd();
}
