/** The wiki routes as `GET /api/v1/openapi.json` describes them (given to ctx.openapi). */
import { API_PAGING, type ApiDocs } from "../../src/plugins/mod.ts";
import { MAX_ASSET_BYTES, MAX_BODY_BYTES } from "./store.ts";
import { MAX_TITLE } from "./frontmatter.ts";

const ASSET_EXTENSIONS = ".jpg, .jpeg, .png, .gif, .webp, .svg or .pdf";
const PATH =
  `a folder-style wiki path without .md (\`setting/harbour\`); a last segment ending in ${ASSET_EXTENSIONS} names an asset`;

/** Metadata keys are letters, digits, `_` and `-`; values strings, numbers, booleans or arrays. */
const META_VALUE = {
  oneOf: [
    { type: "string" },
    { type: "number" },
    { type: "boolean" },
    { type: "array", items: { type: ["string", "number", "boolean"] } },
  ],
};

const PAGE = {
  type: "object",
  description: "the page's front matter merged with its path and body",
  properties: {
    path: { type: "string" },
    title: { type: "string" },
    date: { type: "string" },
    author: { type: "string" },
    tags: { type: "array", items: { type: "string" } },
    body: { type: "string" },
  },
  additionalProperties: META_VALUE,
};

const STUB = {
  type: "object",
  properties: {
    path: { type: "string" },
    title: { type: "string" },
    type: { enum: ["page", "directory", "asset"] },
  },
};

const LISTING = {
  type: "object",
  properties: {
    path: { type: "string" },
    type: { const: "directory" },
    children: { type: "array", items: STUB },
  },
};

const BAD_PATH = "a hostile path (`..`, empty segments, a hidden name, ...)";

/** Route descriptions of the wiki plugin. */
export const WIKI_API: ApiDocs = {
  "GET /api/v1/wiki": {
    summary: "Search the wiki's pages (every word must match; title matches first)",
    auth: "user",
    query: {
      q: { description: "words; none: every page", schema: { type: "string", maxLength: 200 } },
      ...API_PAGING,
    },
    responses: {
      "200": {
        description: "page stubs",
        schema: {
          type: "array",
          items: {
            type: "object",
            properties: {
              path: { type: "string" },
              title: { type: "string" },
              type: { const: "page" },
            },
          },
        },
      },
      "400": "q over 200 characters, or a bad limit or offset",
      "401": "no token",
    },
  },
  "POST /api/v1/wiki": {
    summary: "Create a page",
    description:
      `author and date default to the caller and today. The body may be up to ${MAX_BODY_BYTES} bytes (the JSON up to 256 KiB more).`,
    auth: "staff",
    body: {
      type: "object",
      properties: {
        path: { type: "string", description: PATH },
        title: { type: "string", minLength: 1, maxLength: MAX_TITLE },
        date: { type: "string" },
        author: { type: "string" },
        tags: { type: "array", items: { type: "string" } },
        body: { type: "string", description: `at most ${MAX_BODY_BYTES} bytes` },
      },
      required: ["path", "title"],
      additionalProperties: META_VALUE,
    },
    responses: {
      "201": { description: "the page", schema: PAGE },
      "400": `${BAD_PATH}, an asset path, no or too long title, a bad metadata key or value`,
      "401": "no token",
      "403": "not staff",
      "409": "a wiki page already exists at that path",
    },
  },
  "GET /api/v1/wiki/*": {
    summary: "A page, a folder (its index.md or its listing), or a raw asset",
    description:
      "Pages and listings need a token; a raw asset does not, and is served with its Content-Type, `Cache-Control: public, max-age=3600` and a sandboxing Content-Security-Policy.",
    auth: "optional",
    params: { path: PATH },
    responses: {
      "200": {
        description: "the page, or the folder's listing (an asset: its bytes)",
        schema: { oneOf: [PAGE, LISTING] },
      },
      "400": BAD_PATH,
      "401": "no token (pages and listings)",
      "404": "not found",
    },
  },
  "PATCH /api/v1/wiki/*": {
    summary: "Edit a page's body and metadata (`null` removes a key)",
    description: "`body` alone keeps the front matter as it was; `path` cannot change.",
    auth: "staff",
    params: { path: PATH },
    body: {
      type: "object",
      properties: {
        title: { type: "string", minLength: 1, maxLength: MAX_TITLE },
        body: { type: "string", description: `at most ${MAX_BODY_BYTES} bytes` },
      },
      additionalProperties: { oneOf: [META_VALUE, { type: "null" }] },
    },
    responses: {
      "200": { description: "the updated page", schema: PAGE },
      "400":
        `${BAD_PATH}, an asset path, a changed path, a bad metadata key or value, a removed or too long title`,
      "401": "no token",
      "403": "not staff",
      "404": "no such page",
    },
  },
  "DELETE /api/v1/wiki/*": {
    summary: "Delete a page (`<path>.md`, else `<path>/index.md`) or an asset",
    auth: "staff",
    params: { path: PATH },
    responses: {
      "200": {
        description: "deleted",
        schema: { type: "object", properties: { deleted: { const: true } } },
      },
      "400": BAD_PATH,
      "401": "no token",
      "403": "not staff",
      "404": "not found",
    },
  },
  "PUT /api/v1/wiki/*": {
    summary: "Upload or replace an asset (the raw bytes, with the extension's Content-Type)",
    description:
      `The request body is the file itself (not JSON), at most ${MAX_ASSET_BYTES} bytes, counted while it streams; an upload over that keeps nothing.`,
    auth: "staff",
    params: { path: `a wiki path ending in ${ASSET_EXTENSIONS}` },
    responses: {
      "200": { description: "replaced", schema: assetSchema() },
      "201": { description: "stored", schema: assetSchema() },
      "400":
        `${BAD_PATH}, not an asset path, a missing or wrong Content-Type, an empty upload or one over ${MAX_ASSET_BYTES} bytes`,
      "401": "no token",
      "403": "not staff",
    },
  },
};

function assetSchema() {
  return {
    type: "object",
    properties: {
      path: { type: "string" },
      type: { const: "asset" },
      contentType: { type: "string" },
      size: { type: "integer" },
    },
  };
}
