/**
 * How a route is described for `GET /api/v1/openapi.json`: a compact form the engine turns into
 * OpenAPI 3.1 (src/http/openapi/build.ts). Core routes are described in core_docs.ts, keyed like
 * `GET /api/v1/me` (the method and the full path as registered); a plugin's routes carry their
 * own, declared with `describe()` beside each route (src/plugins/route_doc.ts).
 */

/** A JSON Schema (draft 2020-12, as OpenAPI 3.1 uses it). */
export type JsonSchema = Record<string, unknown>;

/** A query parameter. */
export interface ApiParam {
  description: string;
  schema?: JsonSchema;
  required?: boolean;
}

/** One response: a description, or a description with its body's schema and type. */
export type ApiResponse = string | {
  description: string;
  schema?: JsonSchema;
  /** Default `application/json`. */
  contentType?: string;
};

/** Who may call a route. */
export type ApiAuth = "none" | "optional" | "user" | "builder" | "staff" | "admin";

/** One described route. */
export interface ApiOperation {
  summary: string;
  description?: string;
  /** Default `none`; anything else needs `Authorization: Bearer <token>`. */
  auth?: ApiAuth;
  /** Path parameters (`:id`) by name; an undescribed one is "the path segment". */
  params?: Record<string, string>;
  query?: Record<string, ApiParam>;
  /** The JSON request body's schema. */
  body?: JsonSchema;
  /** A request body that is not JSON (an upload): what it is and its type. */
  rawBody?: { description: string; contentType: string };
  /** By status code (`"200"`, `"404"`). */
  responses: Record<string, ApiResponse>;
}

/** Described routes by `METHOD /full/path`. */
export type ApiDocs = Record<string, ApiOperation>;
