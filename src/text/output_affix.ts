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
  const m = /^\s*output(prefix|suffix)(?:\s+(.*))?$/i.exec(line);
  if (!m) return null;
  return {
    which: m[1].toLowerCase() as "prefix" | "suffix",
    text: (m[2] ?? "").trim().slice(0, MAX_OUTPUT_AFFIX),
  };
}
