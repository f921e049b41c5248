/**
 * Front matter of a wiki page: a YAML block between two `---` lines before the Markdown body,
 * read and written with the `yaml` package. Values written are strings, numbers, booleans and
 * inline (flow) arrays of those; keys are letters, digits, `_` and `-` only.
 */
import YAML from "yaml";
import { ValidationError } from "../../src/plugins/mod.ts";

/** A page's metadata: front matter keys and their values. */
export type Meta = Record<string, unknown>;

/** Keys that are fields of the page itself, never metadata. */
const RESERVED_KEYS = new Set(["path", "body", "type"]);
/** What a metadata key may be. */
export const META_KEY_RE = /^[A-Za-z0-9_-]{1,64}$/;
/** Most metadata keys a page may carry. */
export const MAX_META_KEYS = 64;
/** Longest string value (or array item) in metadata, in characters. */
export const MAX_META_STRING = 2000;
/** Most items in one metadata array. */
export const MAX_META_ITEMS = 100;
/** Longest page title, in characters. */
export const MAX_TITLE = 200;

const FRONT_RE = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/;

/**
 * Splits a file's text into metadata, body and the raw front matter block (with its `---`
 * lines; null when there is none). A file without a front matter block, or with
 * one that is not a YAML mapping, is all body with no metadata (it still reads). Keys that
 * break the key rule are left out of what is returned.
 */
export function parsePage(text: string): { meta: Meta; body: string; block: string | null } {
  const m = FRONT_RE.exec(text);
  if (!m) return { meta: {}, body: text, block: null };
  let parsed: unknown;
  try {
    parsed = YAML.parse(m[1] ?? "", { maxAliasCount: 20, prettyErrors: false });
  } catch {
    return { meta: {}, body: text, block: null };
  }
  const block = m[0].endsWith("\n") ? m[0] : m[0] + "\n";
  if (parsed === null || parsed === undefined) {
    return { meta: {}, body: dropBlank(text, m), block };
  }
  if (typeof parsed !== "object" || Array.isArray(parsed)) {
    return { meta: {}, body: text, block: null };
  }
  const meta: Meta = {};
  for (const [k, v] of Object.entries(parsed as Record<string, unknown>)) {
    if (META_KEY_RE.test(k) && !RESERVED_KEYS.has(k)) meta[k] = v;
  }
  return { meta, body: dropBlank(text, m), block };
}

/**
 * The file text for a new body under a front matter block kept exactly as it was written
 * (comments, order and quoting included), or the body alone when there was none.
 */
export function withBlock(block: string | null, body: string): string {
  return block === null ? body : `${block}\n${body}`;
}

/** The body after the block, without the one blank line the writer puts there. */
function dropBlank(text: string, m: RegExpExecArray): string {
  return text.slice(m[0].length).replace(/^\r?\n/, "");
}

/** The file text for metadata and a body: the front matter block, a blank line, the body. */
export function formatPage(meta: Meta, body: string): string {
  if (Object.keys(meta).length === 0) return body;
  const doc = new YAML.Document(meta);
  YAML.visit(doc, {
    Seq(_, node) {
      node.flow = true;
    },
  });
  const yaml = doc.toString({ lineWidth: 0, flowCollectionPadding: false });
  return `---\n${yaml}---\n\n${body}`;
}

/**
 * Checks metadata a client sent (REST or a command): key names, and values of the kinds the
 * front matter holds. `null` is allowed where `allowNull` says so (PATCH: remove the key).
 * Throws a ValidationError naming the first problem.
 */
export function checkMeta(meta: Meta, opts: { allowNull?: boolean } = {}): void {
  const keys = Object.keys(meta);
  if (keys.length > MAX_META_KEYS) {
    throw new ValidationError(`A page may have at most ${MAX_META_KEYS} metadata keys.`);
  }
  for (const k of keys) {
    if (!META_KEY_RE.test(k)) {
      throw new ValidationError(
        `Invalid metadata key '${k.slice(0, 64)}': use only letters, digits, '_' and '-' ` +
          `(at most 64).`,
      );
    }
    if (RESERVED_KEYS.has(k)) throw new ValidationError(`'${k}' is not a metadata key.`);
    const v = meta[k];
    if (v === null && opts.allowNull) continue;
    if (Array.isArray(v)) {
      if (v.length > MAX_META_ITEMS) {
        throw new ValidationError(`Metadata '${k}' has more than ${MAX_META_ITEMS} items.`);
      }
      for (const item of v) checkScalar(k, item);
    } else {
      checkScalar(k, v);
    }
  }
  const title = meta.title;
  if (title !== undefined && (typeof title !== "string" || title.trim() === "")) {
    throw new ValidationError("title must be a non-empty string.");
  }
  if (typeof title === "string" && title.length > MAX_TITLE) {
    throw new ValidationError(`title must be at most ${MAX_TITLE} characters.`);
  }
  const tags = meta.tags;
  if (tags !== undefined && tags !== null) {
    if (!Array.isArray(tags) || tags.some((t) => typeof t !== "string")) {
      throw new ValidationError("tags must be an array of strings.");
    }
  }
  const date = meta.date;
  if (date !== undefined && date !== null && typeof date !== "string") {
    throw new ValidationError("date must be a string.");
  }
}

function checkScalar(key: string, v: unknown): void {
  if (typeof v === "string") {
    if (v.length > MAX_META_STRING) {
      throw new ValidationError(`Metadata '${key}' is longer than ${MAX_META_STRING} characters.`);
    }
    return;
  }
  if (typeof v === "boolean") return;
  if (typeof v === "number" && Number.isFinite(v)) return;
  throw new ValidationError(
    `Metadata '${key}' must be a string, number, boolean or an array of those.`,
  );
}
