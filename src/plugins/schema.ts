/**
 * Schemas of what a route takes, declared once: each checks a value with the engine's own
 * rules and messages (the field helpers of fields.ts, the house paging) and describes it as JSON
 * Schema for `GET /api/v1/openapi.json`. A route's `describe()` holds its body, query and
 * answers (route_doc.ts); its handler parses with the same object, so what is documented is what
 * is checked. Small on purpose: the checks the plugins need, in the order they make them, with
 * their exact messages (docs/plugins.md, "Describing routes").
 */
import { ValidationError } from "../errors.ts";
import { oneLine, optionalText, requiredText } from "./fields.ts";
import { MAX_OFFSET } from "../http/pagination.ts";

/** A JSON Schema (draft 2020-12, as OpenAPI 3.1 uses it). */
export type JsonSchema = Record<string, unknown>;

/**
 * One value's check and description. `parse` answers the value checked and cleaned, or throws
 * a ValidationError (400) naming `name`; `json` describes it.
 */
export interface Schema<T, Optional extends boolean = boolean> {
  readonly json: JsonSchema;
  /** True when an object may leave the field out (it is then not parsed, and absent). */
  readonly optional: Optional;
  parse(value: unknown, name: string): T;
}

/** What a schema answers. */
export type Parsed<S> = S extends Schema<infer T> ? T : never;

/** A schema's field list: names to schemas, in the order they are checked. */
export type Shape = Record<string, Schema<unknown>>;

/** What an object schema answers: required fields always, optional ones when given. */
export type ObjectOf<S extends Shape> =
  & { [K in keyof S as S[K] extends Schema<unknown, false> ? K : never]: Parsed<S[K]> }
  & { [K in keyof S as S[K] extends Schema<unknown, false> ? never : K]?: Parsed<S[K]> };

function schema<T, O extends boolean>(
  json: JsonSchema,
  optional: O,
  parse: (value: unknown, name: string) => T,
): Schema<T, O> {
  return { json, optional, parse };
}

/** Marks a schema optional: an object leaves the field out when it is absent. */
export function optional<T>(s: Schema<T>): Schema<T, true> {
  return schema(s.json, true, s.parse);
}

/** The same check with more words in its description (a field's meaning). */
export function about<T, O extends boolean>(s: Schema<T, O>, description: string): Schema<T, O> {
  return schema({ ...s.json, description }, s.optional, s.parse);
}

/** Options of `text`. */
export interface TextSchemaOptions {
  /** Line breaks and tabs become spaces (a subject, a title shown in a list). */
  oneLine?: boolean;
  /** Absent, null or empty is "" rather than refused. */
  empty?: boolean;
  /**
   * One message for anything but a non-empty string (the notes contract's `text is required`),
   * instead of naming the type and the emptiness apart.
   */
  invalid?: string;
  description?: string;
}

/**
 * A text field: a string, trimmed, at most `max` characters (code points): `<name> must be a
 * string`, `<name> is required` (unless `empty`), `<name> must be <max> characters or fewer`.
 */
export function text(max: number, opts: TextSchemaOptions = {}): Schema<string, false> {
  const json: JsonSchema = { type: "string", maxLength: max };
  if (!opts.empty) json.minLength = 1;
  if (opts.description) json.description = opts.description;
  const o = { oneLine: opts.oneLine };
  return schema(json, false, (v, name) => {
    if (opts.invalid !== undefined && (typeof v !== "string" || !v.trim())) {
      throw new ValidationError(opts.invalid);
    }
    return opts.empty ? optionalText(v, name, max, o) : requiredText(v, name, max, o);
  });
}

/** Options of `oneOf`. */
export interface OneOfOptions {
  /** Trimmed and lower-cased before it is compared (words typed by people). */
  loose?: boolean;
  /** The refusal (default: `<name> must be one of a, b, c`). */
  message?: string;
  description?: string;
}

/** One of a list of words. */
export function oneOf<const W extends string>(
  words: readonly W[],
  opts: OneOfOptions = {},
): Schema<W, false> {
  const json: JsonSchema = { type: "string", enum: [...words] };
  if (opts.description) json.description = opts.description;
  return schema(json, false, (v, name) => {
    const s = typeof v === "string" && opts.loose ? v.trim().toLowerCase() : v;
    if (typeof s === "string" && (words as readonly string[]).includes(s)) return s as W;
    throw new ValidationError(opts.message ?? `${name} must be one of ${words.join(", ")}`);
  });
}

/** True or false: `<name> must be true or false` (or `message`). */
export function bool(message?: string): Schema<boolean, false> {
  return schema({ type: "boolean" }, false, (v, name) => {
    if (typeof v !== "boolean") {
      throw new ValidationError(message ?? `${name} must be true or false`);
    }
    return v;
  });
}

/** Options of `int`. */
export interface IntOptions {
  min?: number;
  max?: number;
  /** The refusal (default: `<name> must be a whole number from <min> to <max>`). */
  message?: string;
  description?: string;
}

/** A whole number within bounds. */
export function int(opts: IntOptions = {}): Schema<number, false> {
  const json: JsonSchema = { type: "integer" };
  if (opts.min !== undefined) json.minimum = opts.min;
  if (opts.max !== undefined) json.maximum = opts.max;
  if (opts.description) json.description = opts.description;
  return schema(json, false, (v, name) => {
    if (
      typeof v !== "number" || !Number.isInteger(v) ||
      (opts.min !== undefined && v < opts.min) || (opts.max !== undefined && v > opts.max)
    ) {
      throw new ValidationError(
        opts.message ??
          `${name} must be a whole number from ${opts.min ?? "any"} to ${opts.max ?? "any"}`,
      );
    }
    return v;
  });
}

/** Null, or what `s` takes. */
export function nullable<T, O extends boolean>(s: Schema<T, O>): Schema<T | null, O> {
  return schema(
    { anyOf: [s.json, { type: "null" }] },
    s.optional,
    (v, name) => v === null ? null : s.parse(v, name),
  );
}

/**
 * A check of the plugin's own (a rule the builders do not have: a room reference, tags as a list
 * or a comma-separated string), with the JSON Schema that describes what it takes. Write the
 * check once, in the plugin, and describe it here.
 */
export function custom<T>(
  json: JsonSchema,
  parse: (value: unknown, name: string) => T,
): Schema<T, false> {
  return schema(json, false, parse);
}

/**
 * Described here, checked later by the service, after checks the route must make first (who may
 * do it, whether the record exists): the value passes through untouched. The service's check
 * should use the same limits the description names.
 */
export function later<T, O extends boolean>(s: Schema<T, O>): Schema<unknown, O> {
  return schema(s.json, s.optional, (v) => v);
}

/** Options of `object`. */
export interface ObjectOptions {
  /**
   * Fields outside the shape are refused, and so is a body with none (a change body): `unknown
   * field 'x'; allowed: a, b` / `nothing to change; allowed: a, b`. Checked before the fields.
   */
  only?: boolean;
  /** Fields whose presence is checked before anything else (`<name> is required`). */
  present?: readonly string[];
  /** The order `only`'s messages name the allowed fields in (default: the shape's, then aliases). */
  listed?: readonly string[];
  /**
   * Other names the service contract gives a field (`roomId` for `location`), alias to field:
   * taken when the field itself is absent or null, and allowed by `only`.
   */
  aliases?: Readonly<Record<string, string>>;
  description?: string;
}

/**
 * An object of fields, checked in the shape's order (so the first problem reported is the one
 * the route always reported); optional fields that are absent are left out.
 */
export function object<S extends Shape>(
  shape: S,
  opts: ObjectOptions = {},
): Schema<ObjectOf<S>, false> {
  const names = Object.keys(shape);
  const aliases = Object.entries(opts.aliases ?? {});
  const allowed = opts.listed ? [...opts.listed] : [...names, ...aliases.map(([alias]) => alias)];
  const json: JsonSchema = {
    type: "object",
    properties: Object.fromEntries([
      ...names.map((n) => [n, shape[n].json]),
      ...aliases.map((
        [alias, of],
      ) => [alias, { ...shape[of]?.json, description: `alias of ${of}` }]),
    ]),
  };
  const required = names.filter((n) => !shape[n].optional);
  if (required.length) json.required = required;
  if (opts.only) json.additionalProperties = false;
  if (opts.description) json.description = opts.description;
  return schema(json, false, (v, name) => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) {
      throw new ValidationError(`${name} must be an object`);
    }
    const body = v as Record<string, unknown>;
    for (const f of opts.present ?? []) {
      if (body[f] === undefined) throw new ValidationError(`${f} is required`);
    }
    if (opts.only) {
      const keys = Object.keys(body);
      const bad = keys.find((k) => !allowed.includes(k));
      if (bad !== undefined) {
        throw new ValidationError(
          `unknown field '${bad.slice(0, 40)}'; allowed: ${allowed.join(", ")}`,
        );
      }
      if (!keys.length) {
        throw new ValidationError(`nothing to change; allowed: ${allowed.join(", ")}`);
      }
    }
    const out: Record<string, unknown> = {};
    for (const n of names) {
      // As `field ?? alias`: a null field gives way to its alias too.
      const alias = aliases.find(([, of]) => of === n);
      const value = alias ? body[n] ?? body[alias[0]] : body[n];
      if (value === undefined && shape[n].optional) continue;
      out[n] = shape[n].parse(value, n);
    }
    return out as ObjectOf<S>;
  });
}

/** An array of what `item` takes, at most `max` long. */
export function arrayOf<T>(item: Schema<T>, max: number, message?: string): Schema<T[], false> {
  return schema({ type: "array", items: item.json, maxItems: max }, false, (v, name) => {
    if (!Array.isArray(v)) throw new ValidationError(message ?? `${name} must be an array`);
    if (v.length > max) throw new ValidationError(`${name} may hold at most ${max} items`);
    return v.map((x, i) => item.parse(x, `${name}[${i}]`));
  });
}

/** Text as one line: line breaks and tabs as spaces (for checks written with `custom`). */
export { oneLine };

/** The paging query's JSON Schemas (its check is `page(c)`, which reads both at once). */
export const PAGING_QUERY: Record<string, JsonSchema> = {
  limit: { type: "integer", minimum: 1 },
  offset: { type: "integer", minimum: 0, maximum: MAX_OFFSET },
};
