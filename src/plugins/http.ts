/**
 * Helpers for plugin route handlers, which receive a plain Request. Typed errors
 * thrown from a handler become `{ error }` responses through the app's one error handler.
 */
import { parseJsonObject, readTextCapped } from "../http/middleware/body.ts";
import { NotFoundError, UnauthorizedError } from "../errors.ts";
import { LIST_PAGE, type Page, pageFromUrl, type PageSizes } from "../http/pagination.ts";

/** A JSON response. */
export function json(data: unknown, status = 200): Response {
  return Response.json(data, { status });
}

/** The caller's id, or 401 `Unauthorized`. */
export function requireUser(userId: string | null): string {
  if (!userId) throw new UnauthorizedError();
  return userId;
}

/**
 * Reads a JSON object body (capped, default 64 KiB); 400 for anything else. `invalid`
 * replaces the message for a missing, unparsable or non-object body (a plugin whose
 * contract names one message for a missing field, like notes' `text is required`).
 */
export async function readJson(
  req: Request,
  limit = 64 * 1024,
  invalid?: string,
): Promise<Record<string, unknown>> {
  return parseJsonObject(await readTextCapped(req, limit), invalid);
}

/**
 * The decoded path segments below `prefix`: `/api/v1/notes/12` with prefix
 * `/api/v1/notes` gives `["12"]`. Bad percent-encoding is a 404 (no such path).
 */
export function pathBelow(req: Request, prefix: string): string[] {
  const path = new URL(req.url).pathname;
  const base = prefix.replace(/\/+$/, "");
  if (path !== base && !path.startsWith(base + "/")) throw new NotFoundError("Not Found");
  const rest = path.slice(base.length).split("/").filter((s) => s !== "");
  try {
    return rest.map((s) => decodeURIComponent(s));
  } catch {
    throw new NotFoundError("Not Found");
  }
}

/** A query parameter, or undefined. */
export function query(req: Request, name: string): string | undefined {
  return new URL(req.url).searchParams.get(name) ?? undefined;
}

/**
 * The page a list request asks for (`?limit=&offset=`): default 50, at most 200 unless
 * `sizes` says otherwise; a bad value is a 400. Every list route of a plugin takes it.
 */
export function requestPage(req: Request, sizes: PageSizes = LIST_PAGE): Page {
  return pageFromUrl(req.url, sizes);
}
