/**
 * Attributes that are programs: `$<pattern>:<action>` makes a command, `^<pattern>:<action>` a
 * listen pattern (docs/softcode.md, "$-commands and listening"). The pattern ends at the first
 * `:` not escaped by `\`; a wildcard pattern (`*`, `?`) puts what it matched in `%0`–`%9`, and
 * one on an attribute with the `regexp` flag is a regular expression (`%0` the whole match,
 * `%1`–`%9` its groups; caseless with the `case` flag, as MUX reads it), run by the softcode
 * regexp engine (RE2JS: linear time, no pattern can stall the engine).
 */
import type { Attribute } from "../../world/attributes/types.ts";
import { literalPrefix, MAX_CAPTURES, wildCapture } from "../wild_capture.ts";
import type { RegexpCache } from "../regexp_cache.ts";

/** `$` (a command) or `^` (a listen pattern). */
export type ProgramKind = "$" | "^";

/** One program attribute of an object, parsed. Frozen and shared: never change one. */
export interface ProgramEntry {
  /** The object the attribute is on. */
  readonly objectId: string;
  /** The attribute's name. */
  readonly attr: string;
  readonly kind: ProgramKind;
  /** The pattern, with `\:` unescaped. */
  readonly pattern: string;
  /** The action list run when the pattern matches. */
  readonly action: string;
  /** A regular expression (the attribute's `regexp` flag). */
  readonly regexp: boolean;
  /** A regular expression matched in any case: without the `case` flag (MUX's PCRE_CASELESS). */
  readonly caseless: boolean;
  /** The `no_parse` flag: matched against the line as typed, not as evaluated. */
  readonly raw: boolean;
  /** The `no_command` flag: kept (it hides a parent's attribute of its name) but never run. */
  readonly off: boolean;
  /** The `no_inherit` flag: children do not see it. */
  readonly private: boolean;
  /** Lower-cased literal text every match starts with ("" when none is known). */
  readonly prefix: string;
}

/** Where the pattern of `$pattern:action` ends: the first `:` not escaped by `\`, or -1. */
function delimiter(value: string): number {
  for (let i = 1; i < value.length; i++) {
    const c = value[i];
    if (c === "\\") i++;
    else if (c === ":") return i;
  }
  return -1;
}

/** The program an attribute holds, or null when it is not one (or is empty around the `:`). */
export function programOf(objectId: string, a: Attribute): ProgramEntry | null {
  const lead = a.value[0];
  if (lead !== "$" && lead !== "^") return null;
  const at = delimiter(a.value);
  if (at < 2) return null;
  const regexp = a.flags.includes("regexp");
  // In a wildcard pattern `\:` stays escaped (it matches `:`); a regular expression gets `:`.
  const pattern = regexp ? a.value.slice(1, at).replaceAll("\\:", ":") : a.value.slice(1, at);
  return Object.freeze({
    objectId,
    attr: a.name,
    kind: lead,
    pattern,
    action: a.value.slice(at + 1),
    regexp,
    caseless: !a.flags.includes("case"),
    raw: a.flags.includes("no_parse"),
    off: a.flags.includes("no_command"),
    private: a.flags.includes("no_inherit"),
    prefix: regexp ? "" : literalPrefix(pattern),
  });
}

/**
 * What `entry` captures from `text` (`%0`–`%9`), or null when it does not match (or `more()`,
 * the line's time, ran out during a long wildcard match). `regexps` is the softcode engine's
 * cache of compiled expressions; an invalid one never matches.
 */
export function matchProgram(
  entry: ProgramEntry,
  text: string,
  regexps: RegexpCache,
  more?: () => boolean,
): string[] | null {
  if (!entry.regexp) return wildCapture(entry.pattern, text, more);
  const re = regexps.compile(entry.pattern, entry.caseless);
  if (typeof re === "string") return null;
  const m = re.matcher(text);
  if (!m.find()) return null;
  const out: string[] = [];
  for (let i = 0; i <= m.groupCount() && i < MAX_CAPTURES; i++) out.push(m.group(i) ?? "");
  return out;
}
