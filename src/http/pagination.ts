/** `limit`/`offset` query parsing with the house defaults (50, max 200). */
import { ValidationError } from "../errors.ts";

/** Parsed page parameters. */
export interface Page {
  limit: number;
  offset: number;
}

/** Parses `limit` and `offset` query values; bad values are a 400. */
export function pageParams(
  limitRaw: string | undefined,
  offsetRaw: string | undefined,
  defaults = { limit: 50, max: 200 },
): Page {
  const limit = limitRaw === undefined || limitRaw === "" ? defaults.limit : Number(limitRaw);
  const offset = offsetRaw === undefined || offsetRaw === "" ? 0 : Number(offsetRaw);
  if (!Number.isInteger(limit) || limit < 1) {
    throw new ValidationError("limit must be a whole number of 1 or more.");
  }
  if (!Number.isInteger(offset) || offset < 0) {
    throw new ValidationError("offset must be a whole number of 0 or more.");
  }
  return { limit: Math.min(limit, defaults.max), offset: Math.min(offset, 1_000_000) };
}
