/**
 * What a command line may be, and the reply to one that names no command: shared by the hub,
 * which splits inbound frames into lines, and the dispatcher, which runs them.
 */

/** Longest command line, in characters (code points); longer lines are refused, not cut. */
export const MAX_LINE = 8192;

/** Longest `@doing` text and `@doing/header`, in visible characters (softcode's valid() too). */
export const MAX_DOING = 60;

/** Most objects `@find` and `@search` list; the rest are counted. */
export const MAX_FOUND = 500;

/**
 * Most objects `@find` (of each type) and `@search` look through where no index answers the
 * question (a name's start, an evaluation); past it they say how many were left.
 */
export const MAX_SEARCHED = 20_000;

/** Reply to a line that names no command. */
export const HUH = "Huh? Type 'help' for help.";

/** Reply to a command line longer than MAX_LINE (the hub's for a typed line, the queue's). */
export const TOO_LONG_LINE = `That line is too long (the limit is ${MAX_LINE} characters).`;

/** True when a sanitized line is longer than MAX_LINE code points. */
export function overMaxLine(line: string): boolean {
  // Each code point is one or two UTF-16 units, so a line this short needs no count.
  if (line.length <= MAX_LINE) return false;
  let n = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    // Count every unit but the second half of a surrogate pair.
    if (c < 0xdc00 || c > 0xdfff) n++;
  }
  return n > MAX_LINE;
}
