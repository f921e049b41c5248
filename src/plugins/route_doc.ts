/**
 * A route's description, declared once beside the route: what it is, who may call it, its path
 * parameters, its query and body (schemas that check them with the engine's messages) and its
 * answers. `describe()` answers a middleware that carries the description (the API document
 * reads it from the registered routes, so an undescribed route shows) and whose `body(c)` and
 * `query(c)` read and check the request with the same schemas. See docs/plugins.md,
 * "Describing routes".
 */
import type { MiddlewareHandler } from "hono";
import type { PluginEnv } from "../http/plugin_env.ts";
import type { ApiAuth, ApiOperation, ApiParam, ApiResponse } from "../http/openapi/types.ts";
import { ValidationError } from "../errors.ts";
import { ROUTE_DOC } from "../http/openapi/described.ts";
import { LIST_PAGE, type Page, pageFromUrl, type PageSizes } from "../http/pagination.ts";
import { type JsonSchema, PAGING_QUERY, type Schema } from "./schema.ts";
import { type PluginHttpContext, readJson } from "./http.ts";

/** One query parameter: what it takes (its text) and what it means. */
export interface QueryParam<T> {
  schema: Schema<T>;
  description: string;
  required?: boolean;
}

/** A route's query. */
export interface QuerySpec<P extends Record<string, QueryParam<unknown>>> {
  /** The parameters by name, checked in this order (absent ones are left out). */
  params?: P;
  /** `limit`/`offset` paging: the house sizes (`true`) or others. */
  paging?: true | PageSizes;
  /**
   * Parameters outside the list (and paging) are refused: `unknown query 'x'; allowed: a, b`.
   */
  only?: boolean;
}

/** What `query(c)` answers: each parameter given, and the page when the route pages. */
export type QueryOf<P extends Record<string, QueryParam<unknown>>> =
  & { [K in keyof P]?: P[K] extends QueryParam<infer T> ? T : never }
  & { page: Page };

/** A route's JSON body. */
export interface BodySpec<B> {
  schema: Schema<B>;
  /** Largest body read, in bytes (default 64 KiB). */
  limit?: number;
  /** The one message for a missing, unreadable or non-object body, when the contract names one. */
  invalid?: string;
  /** No body at all is `{}` (a body whose every field has a default). */
  emptyIsNone?: boolean;
}

/** Everything said about a route. */
export interface RouteSpec<B, P extends Record<string, QueryParam<unknown>>> {
  summary: string;
  description?: string;
  /** Who may call it (default `none`): the middleware decides; this describes it. */
  auth?: ApiAuth;
  /** Path parameters (`:id`) by name. */
  params?: Record<string, string>;
  query?: QuerySpec<P>;
  body?: BodySpec<B>;
  /** A body that is not JSON (an upload): its description and type. */
  rawBody?: { description: string; contentType: string };
  /** By status code (`"200"`, `"404"`); a schema may be a `Schema` or plain JSON Schema. */
  responses: Record<string, ApiResponse | { description: string; schema: Schema<unknown> }>;
}

/** A described route's middleware: pass it first in the route's handlers. */
export interface DescribedRoute<B, P extends Record<string, QueryParam<unknown>>>
  extends MiddlewareHandler<PluginEnv> {
  readonly [ROUTE_DOC]: ApiOperation;
  /** Reads the JSON body and checks it (400 with the schema's message). */
  body(c: PluginHttpContext): Promise<B>;
  /** Checks the query (400 with the schema's message). */
  query(c: PluginHttpContext): QueryOf<P>;
}

/** Describes a route once: its documentation and the schemas its handler checks with. */
export function describe<
  B = never,
  P extends Record<string, QueryParam<unknown>> = Record<never, QueryParam<unknown>>,
>(spec: RouteSpec<B, P>): DescribedRoute<B, P> {
  const mw = (async (_c, next) => {
    await next();
  }) as DescribedRoute<B, P>;
  const doc = operationOf(spec);
  Object.defineProperty(mw, ROUTE_DOC, { value: doc });
  mw.body = async (c) => {
    const b = spec.body;
    if (!b) throw new Error(`${spec.summary}: the route describes no body`);
    const empty = b.emptyIsNone &&
      (c.req.raw.body === null || c.req.header("content-length") === "0");
    const raw = empty ? {} : await readJson(c, { limit: b.limit, invalid: b.invalid });
    return b.schema.parse(raw, "body");
  };
  mw.query = (c) => parseQuery(spec.query ?? {}, new URL(c.req.url));
  return mw;
}

function parseQuery<P extends Record<string, QueryParam<unknown>>>(
  q: QuerySpec<P>,
  url: URL,
): QueryOf<P> {
  const params = Object.entries(q.params ?? {});
  if (q.only) {
    const allowed = [...params.map(([n]) => n), ...(q.paging ? ["limit", "offset"] : [])];
    for (const k of url.searchParams.keys()) {
      if (!allowed.includes(k)) {
        throw new ValidationError(
          `unknown query '${k.slice(0, 40)}'; allowed: ${allowed.join(", ")}`,
        );
      }
    }
  }
  const out: Record<string, unknown> = {};
  for (const [name, p] of params) {
    const v = url.searchParams.get(name);
    if (v === null) {
      if (p.required) throw new ValidationError(`${name} is required`);
      continue;
    }
    out[name] = p.schema.parse(v, name);
  }
  out.page = q.paging
    ? pageFromUrl(url, q.paging === true ? LIST_PAGE : q.paging)
    : { limit: LIST_PAGE.limit, offset: 0 };
  return out as QueryOf<P>;
}

function operationOf<B, P extends Record<string, QueryParam<unknown>>>(
  spec: RouteSpec<B, P>,
): ApiOperation {
  const query: Record<string, ApiParam> = {};
  for (const [name, p] of Object.entries(spec.query?.params ?? {})) {
    query[name] = { description: p.description, schema: p.schema.json, required: p.required };
  }
  if (spec.query?.paging) {
    const sizes = spec.query.paging === true ? LIST_PAGE : spec.query.paging;
    query.limit = {
      description: `how many (default ${sizes.limit}, at most ${sizes.max})`,
      schema: PAGING_QUERY.limit,
    };
    query.offset = { description: "how many to skip", schema: PAGING_QUERY.offset };
  }
  const responses: Record<string, ApiResponse> = {};
  for (const [status, r] of Object.entries(spec.responses)) {
    responses[status] = typeof r === "object" && r.schema && isSchema(r.schema)
      ? { ...r, schema: r.schema.json }
      : r as ApiResponse;
  }
  const op: ApiOperation = { summary: spec.summary, responses };
  if (spec.description) op.description = spec.description;
  if (spec.auth) op.auth = spec.auth;
  if (spec.params) op.params = spec.params;
  if (Object.keys(query).length) op.query = query;
  if (spec.body) op.body = spec.body.schema.json;
  if (spec.rawBody) op.rawBody = spec.rawBody;
  return op;
}

function isSchema(v: unknown): v is Schema<unknown> {
  return typeof v === "object" && v !== null && typeof (v as Schema<unknown>).parse === "function";
}

export type { JsonSchema };
