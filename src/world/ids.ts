/** Object ids and dbrefs. */

/** Accepts `12`, `#12` (or URL-decoded forms) and returns the id `12`, or null if malformed. */
export function normalizeId(ref: string): string | null {
  const m = /^#?(\d{1,15})$/.exec(ref.trim());
  if (!m) return null;
  return String(Number(m[1]));
}

/** The dbref (`#12`) of an id. */
export function dbref(id: string): string {
  return `#${id}`;
}
