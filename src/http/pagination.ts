/**
 * `limit`/`offset` paging, shared by every list endpoint (core routes, and plugins through
 * the plugin SDK): the house defaults are 50 items a page and at most 200.
 */
import { ValidationError } from "../errors.ts";

/** Parsed page parameters: how many items, after skipping how many. */
export interface Page {
  limit: number;
  offset: number;
}

/** A list's page sizes: the default and the largest a caller may ask for. */
export interface PageSizes {
  limit: number;
  max: number;
}

/** Page sizes of every list unless its documentation says otherwise. */
export const LIST_PAGE: PageSizes = { limit: 50, max: 200 };

/**
 * The largest `offset`: a stored list reads `offset` index entries before its page, so a deeper
 * page would make one request read an index of millions.
 */
export const MAX_OFFSET = 1_000_000;

/** Only plain decimal digits: `1e3`, `0x10`, ` 5` and `-1` are refused rather than guessed at. */
const WHOLE = /^[0-9]+$/;

/**
 * Parses `limit` and `offset` query values. Missing or empty means the default (offset 0);
 * anything but a whole number (limit at least 1) is a 400, and so is an offset above
 * {@linkcode MAX_OFFSET}; a limit above the maximum is lowered to it.
 */
export function pageParams(
  limitRaw: string | undefined,
  offsetRaw: string | undefined,
  sizes: PageSizes = LIST_PAGE,
): Page {
  const limit = limitRaw === undefined || limitRaw === "" ? sizes.limit : whole(limitRaw);
  const offset = offsetRaw === undefined || offsetRaw === "" ? 0 : whole(offsetRaw);
  if (limit === null || limit < 1) {
    throw new ValidationError("limit must be a whole number of 1 or more.");
  }
  if (offset === null) throw new ValidationError("offset must be a whole number of 0 or more.");
  if (offset > MAX_OFFSET) {
    throw new ValidationError(`offset must be at most ${MAX_OFFSET}.`);
  }
  return { limit: Math.min(limit, sizes.max), offset };
}

/** The page asked for in a URL's query (`?limit=&offset=`). */
export function pageFromUrl(url: string | URL, sizes: PageSizes = LIST_PAGE): Page {
  const q = (typeof url === "string" ? new URL(url) : url).searchParams;
  return pageParams(q.get("limit") ?? undefined, q.get("offset") ?? undefined, sizes);
}

/** One page of a list that is already in memory (its order is the list's order). */
export function pageOf<T>(items: readonly T[], page: Page): T[] {
  return items.slice(page.offset, page.offset + page.limit);
}

/** A query value as a whole number, or null; huge values stay huge (they clamp or are refused). */
function whole(raw: string): number | null {
  if (!WHOLE.test(raw)) return null;
  const n = Number(raw);
  return Number.isSafeInteger(n) ? n : Number.MAX_SAFE_INTEGER;
}
