/** The allow-listed object update of `PATCH /api/v1/dbobj/:id`. */
import type { DbObject } from "./types.ts";
import type { ObjectStore } from "./objects.ts";
import { ValidationError } from "../errors.ts";
import { isPlainObject } from "../config/load.ts";
import { objectNameProblem, playerNameProblem, rename } from "./names.ts";
import { checkShape } from "../storage/limits.ts";
import { MAX_DESCRIPTION } from "./attributes/names.ts";

const TOP_KEYS = new Set(["data", "name", "description"]);
const DATA_KEYS = new Set(["description", "avatar", "state"]);
export { MAX_DESCRIPTION };
/** Bytes of an object's `data.state`, as JSON (also of a script's u.attr.set). */
export const MAX_STATE_BYTES = 32 * 1024;

function checkDescription(v: unknown): string {
  if (typeof v !== "string") throw new ValidationError("description must be a string.");
  if (v.length > MAX_DESCRIPTION) {
    throw new ValidationError(`description must be ${MAX_DESCRIPTION} characters or fewer.`);
  }
  return v;
}

/** Longest `data.avatar`, in characters. */
export const MAX_AVATAR_ADDRESS = 512;
const AVATAR_RULE =
  `data.avatar must be empty, an http: or https: address, or a path on this site ` +
  `(one leading /), with no spaces or user name, ${MAX_AVATAR_ADDRESS} characters or fewer.`;

/**
 * Checks a profile picture's address. Other API users put it in an `<img src>` (or a link), so
 * `javascript:`, `data:` and scheme-relative `//host` addresses are refused: only a web address
 * or a path on the game's own site (an uploaded avatar, a wiki asset) is a picture.
 */
export function checkAvatar(v: unknown): string {
  if (typeof v !== "string" || v.length > MAX_AVATAR_ADDRESS) {
    throw new ValidationError(AVATAR_RULE);
  }
  if (v === "") return v;
  // Spaces, controls and backslashes: browsers strip or reinterpret them (`/\host` is `//host`).
  if (/[\s\\]/.test(v) || [...v].some((c) => c < " " || c === "\x7f")) {
    throw new ValidationError(AVATAR_RULE);
  }
  if (v.startsWith("/")) {
    if (v.startsWith("//")) throw new ValidationError(AVATAR_RULE);
    return v;
  }
  if (!/^https?:\/\/[^/]/i.test(v) || !URL.canParse(v)) throw new ValidationError(AVATAR_RULE);
  const url = new URL(v);
  if (!url.hostname || url.username || url.password) throw new ValidationError(AVATAR_RULE);
  return v;
}

/** Checks a whole `data.state` value: a plain object of allowed shape within MAX_STATE_BYTES. */
export function checkState(v: unknown): Record<string, unknown> {
  if (!isPlainObject(v)) throw new ValidationError("data.state must be an object.");
  checkShape(v, "data.state");
  if (JSON.stringify(v).length > MAX_STATE_BYTES) {
    throw new ValidationError(`data.state must be ${MAX_STATE_BYTES} bytes or fewer as JSON.`);
  }
  return v;
}

/** Validates a patch body and applies it; unknown fields are refused, nothing changes on error. */
export function applyObjectPatch(
  objects: Pick<ObjectStore, "update">,
  obj: DbObject,
  body: Record<string, unknown>,
): Promise<DbObject> {
  const unknown = Object.keys(body).filter((k) => !TOP_KEYS.has(k));
  if (unknown.length) {
    throw new ValidationError(
      `Unknown field(s): ${unknown.slice(0, 5).join(", ")}. Allowed: data, name, description.`,
    );
  }
  if (!Object.keys(body).length) throw new ValidationError("Nothing to update.");
  let name: string | undefined;
  if (body.name !== undefined) {
    const problem = obj.flags.includes("player")
      ? playerNameProblem(body.name)
      : objectNameProblem(body.name);
    if (problem) throw new ValidationError(problem);
    name = (body.name as string).trim();
  }
  const data: Record<string, unknown> = {};
  if (body.data !== undefined) {
    if (!isPlainObject(body.data)) throw new ValidationError("data must be an object.");
    for (const [k, v] of Object.entries(body.data)) {
      if (!DATA_KEYS.has(k)) {
        throw new ValidationError(
          `data.${k.slice(0, 40)} cannot be set; allowed: description, avatar, state.`,
        );
      }
      if (k === "description") data.description = checkDescription(v);
      if (k === "avatar") data.avatar = checkAvatar(v);
      if (k === "state") data.state = checkState(v);
    }
  }
  if (body.description !== undefined) data.description = checkDescription(body.description);
  return objects.update(obj.id, (o) => {
    if (name !== undefined) rename(o, name);
    Object.assign(o.data, data);
  });
}
