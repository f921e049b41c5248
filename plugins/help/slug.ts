/** Topic names: what a slug may contain, and how typed names become slugs. */
import { ValidationError } from "../../src/plugins/mod.ts";

/** Longest slug accepted. */
export const MAX_SLUG = 64;

/** A function's topic ends in `()` (`add()`), as MUX names them. */
const SLUG_RE = /^[a-z0-9@+_-][a-z0-9@+/_-]*(?:\(\))?$/;

/** A typed topic name as a slug (trimmed, lower-cased, spaces as `-`), or null if invalid. */
export function toSlug(raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  const s = raw.trim().toLowerCase().replace(/\s+/g, "-");
  if (!s || s.length > MAX_SLUG || s.includes("..") || s.includes("//") || s.endsWith("/")) {
    return null;
  }
  return SLUG_RE.test(s) ? s : null;
}

/** Like toSlug, but a bad name is a 400 with a message saying what is allowed. */
export function mustSlug(raw: unknown): string {
  const s = toSlug(raw);
  if (!s) {
    throw new ValidationError(
      `Invalid topic name: use 1-${MAX_SLUG} of a-z, 0-9, @, +, /, _ and - (no '..'), and () at the end for a function.`,
    );
  }
  return s;
}

/** Section names: short labels, lower-cased. */
export function toSection(raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  const s = raw.trim().toLowerCase();
  return /^[a-z0-9][a-z0-9 _-]{0,31}$/.test(s) ? s : null;
}
