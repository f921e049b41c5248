/**
 * MUX's OUTPUTPREFIX and OUTPUTSUFFIX lines, read in one place: the hub applies them to a
 * connection, and a telnet client keeps them to set them again when its session resumes after a
 * restart (docs/telnet.md).
 */

/** Longest OUTPUTPREFIX or OUTPUTSUFFIX text kept. */
export const MAX_OUTPUT_AFFIX = 256;

/**
 * `OUTPUTPREFIX <text>` or `OUTPUTSUFFIX <text>` (any case; MUX's commands for clients and
 * scripts that bracket each command's output), or null for any other line.
 */
export function outputAffix(line: string): { which: "prefix" | "suffix"; text: string } | null {
  // Every typed line is asked: most start with another letter, and need no expression.
  if (!mayBeAffix(line)) return null;
  const m = /^\s*output(prefix|suffix)(?:\s+(.*))?$/i.exec(line);
  if (!m) return null;
  return {
    which: m[1].toLowerCase() as "prefix" | "suffix",
    text: (m[2] ?? "").trim().slice(0, MAX_OUTPUT_AFFIX),
  };
}

/** False when the line's first character after any spaces cannot begin `output`. */
function mayBeAffix(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 32 || (c >= 9 && c <= 13)) continue;
    // Beyond ASCII: other spaces as `\s` reads them; the expression decides.
    return c === 0x6f || c === 0x4f || c >= 0x80;
  }
  return false;
}
