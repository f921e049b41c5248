/**
 * Checks of the text fields plugins take from players (REST bodies and commands): a string,
 * trimmed, bounded in characters, with a clear ValidationError (400) naming the field.
 */
import { ValidationError } from "../errors.ts";

/** How a text field is read. */
export interface TextOptions {
  /**
   * A field shown inside other lines (a subject, a title in a list): its line breaks and
   * tabs become single spaces, so it cannot forge a line of its own.
   */
  oneLine?: boolean;
}

/** Line breaks and tabs as single spaces. */
export function oneLine(s: string): string {
  return s.replace(/[\r\n\t]+/g, " ");
}

/**
 * An optional text field: "" when absent (undefined or null), else a string, trimmed, at
 * most `max` characters (code points, as players count them).
 */
export function optionalText(
  raw: unknown,
  field: string,
  max: number,
  opts: TextOptions = {},
): string {
  if (raw === undefined || raw === null) return "";
  if (typeof raw !== "string") throw new ValidationError(`${field} must be a string`);
  const t = (opts.oneLine ? oneLine(raw) : raw).trim();
  // Code points, counted without an array: a whole 64 KiB body is checked per write.
  let n = 0;
  for (const _ of t) if (++n > max) break;
  if (n > max) throw new ValidationError(`${field} must be ${max} characters or fewer`);
  return t;
}

/** A required text field: as {@linkcode optionalText}, and absent or empty is refused. */
export function requiredText(
  raw: unknown,
  field: string,
  max: number,
  opts: TextOptions = {},
): string {
  const t = optionalText(raw, field, max, opts);
  if (!t) throw new ValidationError(`${field} is required`);
  return t;
}
