/** Reading JSON bodies with a size cap before parsing. */
import type { Context } from "hono";
import { isPlainObject } from "../../config/load.ts";
import { ValidationError } from "../../errors.ts";
import { UNREADABLE_REQUEST } from "../connection_errors.ts";
import { sanitizeJson } from "../../text/sanitize.ts";

/** Default cap for JSON bodies. */
export const JSON_BODY_LIMIT = 64 * 1024;

/** Reads the body as a JSON object, refusing oversize, non-JSON and non-object bodies. */
export async function readJsonObject(
  c: Context,
  limit = JSON_BODY_LIMIT,
): Promise<Record<string, unknown>> {
  return parseJsonObject(await readTextCapped(c.req.raw, limit));
}

/**
 * Parses body text as a JSON object; 400 for empty, unparsable or non-object text.
 * `invalid` replaces the message (for contracts that name one message for a bad body).
 * Every string in it is sanitised (src/text/sanitize.ts: controls, bidi overrides, lone
 * surrogates and noncharacters go), so no REST write stores them. Two kinds of value are left
 * as sent: passwords, which are compared, never shown; and names, which the name rules
 * (src/world/names.ts) refuse with a 400 rather than store changed.
 */
export function parseJsonObject(text: string, invalid?: string): Record<string, unknown> {
  const refuse = (m: string) => new ValidationError(invalid ?? m);
  if (text.trim() === "") throw refuse("Request body must be a JSON object.");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw refuse("Request body is not valid JSON.");
  }
  if (!isPlainObject(parsed)) throw refuse("Request body must be a JSON object.");
  return sanitizeJson(parsed, isSecretKey);
}

function isSecretKey(key: string): boolean {
  return key === "name" || /password/i.test(key);
}

/** Reads a request body as text, stopping with a 400 as soon as it passes `limit` bytes. */
export async function readTextCapped(req: Request, limit: number): Promise<string> {
  return new TextDecoder().decode(await readBytesCapped(req, limit));
}

/** Reads a request body's bytes, stopping with a 400 as soon as it passes `limit` bytes. */
export async function readBytesCapped(req: Request, limit: number): Promise<Uint8Array> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > limit) throw new ValidationError(`Request body is larger than ${limit} bytes.`);
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let step: ReadableStreamReadResult<Uint8Array>;
    try {
      step = await reader.read();
    } catch (e) {
      // The body stream only fails when the connection does (client gone, broken framing).
      throw new ValidationError(UNREADABLE_REQUEST, { cause: e });
    }
    const { done, value } = step;
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new ValidationError(`Request body is larger than ${limit} bytes.`);
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let off = 0;
  for (const ch of chunks) {
    all.set(ch, off);
    off += ch.byteLength;
  }
  return all;
}
