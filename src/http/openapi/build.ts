/**
 * Builds the OpenAPI 3.1 document of the running engine from the routes actually registered
 * (the same list as `GET /api/v1/routes`), described by the core's and the plugins' docs. A
 * route nobody described is still listed (marked `x-undocumented`), and a description that
 * matches no route is named in `x-unmatched-docs`: the document cannot drift from the server.
 */
import type { RouteInfo } from "../plugin_apps.ts";
import type { ApiAuth, ApiDocs, ApiOperation, ApiResponse, JsonSchema } from "./types.ts";

/** What the document says about the game. */
export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
}

/** `/api/v1/x/:topic{.+}` → `/api/v1/x/{topic}`; a trailing `*` → `{path}`. */
export function openApiPath(path: string): string {
  return path
    .replace(/:([A-Za-z_][A-Za-z0-9_]*)(\{[^}]*\})?/g, "{$1}")
    .replace(/\/\*$/, "/{path}");
}

function pathParams(path: string): string[] {
  return [...openApiPath(path).matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
}

const ERROR: JsonSchema = {
  type: "object",
  properties: { error: { type: "string" } },
  required: ["error"],
};

function response(r: ApiResponse, status: string): Record<string, unknown> {
  const spec = typeof r === "string" ? { description: r } : r;
  const schema = spec.schema ??
    (Number(status) >= 400 ? { $ref: "#/components/schemas/Error" } : undefined);
  const out: Record<string, unknown> = { description: spec.description };
  if (schema) out.content = { [spec.contentType ?? "application/json"]: { schema } };
  else if (spec.contentType) out.content = { [spec.contentType]: {} };
  return out;
}

function operation(route: RouteInfo, doc: ApiOperation | undefined): Record<string, unknown> {
  const op: Record<string, unknown> = {
    operationId: `${route.method.toLowerCase()}${
      openApiPath(route.path).replace(/[^A-Za-z0-9]+/g, "_")
    }`,
    tags: [route.owner],
    "x-owner": route.owner,
  };
  const parameters: unknown[] = pathParams(route.path).map((name) => ({
    name,
    in: "path",
    required: true,
    description: doc?.params?.[name] ?? "the path segment",
    schema: { type: "string" },
  }));
  if (!doc) {
    op.summary = `${route.method} ${route.path}`;
    op["x-undocumented"] = true;
    op.responses = { default: { description: `not described by ${route.owner}` } };
  } else {
    op.summary = doc.summary;
    if (doc.description) op.description = doc.description;
    const auth: ApiAuth = doc.auth ?? "none";
    op["x-auth"] = auth;
    if (auth === "optional") op.security = [{}, { bearer: [] }];
    else if (auth !== "none") op.security = [{ bearer: [] }];
    else op.security = [];
    for (const [name, q] of Object.entries(doc.query ?? {})) {
      parameters.push({
        name,
        in: "query",
        required: q.required ?? false,
        description: q.description,
        schema: q.schema ?? { type: "string" },
      });
    }
    if (doc.body) {
      op.requestBody = {
        required: true,
        content: { "application/json": { schema: doc.body } },
      };
    } else if (doc.rawBody) {
      op.requestBody = {
        required: true,
        description: doc.rawBody.description,
        content: { [doc.rawBody.contentType]: { schema: { type: "string", format: "binary" } } },
      };
    }
    op.responses = Object.fromEntries(
      Object.entries(doc.responses).map(([status, r]) => [status, response(r, status)]),
    );
  }
  if (parameters.length) op.parameters = parameters;
  return op;
}

/** The document for `routes`, described by `docs` (core and plugins together). */
export function buildOpenApi(
  routes: readonly RouteInfo[],
  docs: ApiDocs,
  info: OpenApiInfo,
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const used = new Set<string>();
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    let doc = docs[key];
    if (doc) used.add(key);
    else if (route.path.startsWith("/plugins/") && route.path.endsWith("/*")) {
      doc = {
        summary: `Static pages and assets of the ${route.owner} plugin`,
        responses: {
          "200": { description: "the file", contentType: "*/*" },
          "404": "no such file",
        },
      };
    }
    const item = paths[openApiPath(route.path)] ??= {};
    item[route.method.toLowerCase()] = operation(route, doc);
  }
  const unmatched = Object.keys(docs).filter((k) => !used.has(k)).sort();
  return {
    openapi: "3.1.0",
    info,
    servers: [{ url: "/" }],
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description: "the token from POST /api/v1/auth/login or /auth/register",
        },
      },
      schemas: { Error: ERROR },
    },
    ...(unmatched.length ? { "x-unmatched-docs": unmatched } : {}),
  };
}
