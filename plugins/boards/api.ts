/**
 * The boards routes as `GET /api/v1/openapi.json` describes them (given to ctx.openapi), once
 * for each prefix they are mounted on (`/api/v1/boards` and, identically, `/api/v1/bbs`).
 */
import {
  API_PAGING,
  type ApiDocs,
  type ApiOperation,
  REST_WRITE_LIMITED,
} from "../../src/plugins/mod.ts";
import { MAX_BODY, MAX_DESCRIPTION, MAX_NAME, MAX_SUBJECT } from "./service.ts";
import { MAX_BOARDS } from "./store.ts";

const BOARD = {
  type: "object",
  properties: {
    id: { type: "string", description: "the board's number" },
    name: { type: "string" },
    slug: { type: "string" },
    description: { type: "string" },
    posts: { type: "integer" },
    unread: { type: "integer", description: "for the caller" },
    readLock: { type: "string", description: "staff only" },
    postLock: { type: "string", description: "staff only" },
    createdAt: { type: "number" },
  },
};

const POST = {
  type: "object",
  properties: {
    board: { type: "string" },
    num: { type: "integer", description: "per board, never reused" },
    subject: { type: "string" },
    body: { type: "string" },
    author: { type: "string" },
    authorName: { type: "string" },
    createdAt: { type: "number" },
    editedAt: { type: ["number", "null"] },
    read: { type: "boolean", description: "for the caller" },
  },
};

const NAME = {
  type: "string",
  minLength: 1,
  maxLength: MAX_NAME,
  pattern: "^[A-Za-z0-9][A-Za-z0-9 _'.-]*$",
  description: "its slug may be neither all digits nor `unread`",
};
const LOCK = { type: "string", description: "a lock expression; empty: everyone" };
const BOARD_FIELDS = {
  name: NAME,
  description: { type: "string", maxLength: MAX_DESCRIPTION },
  readLock: LOCK,
  postLock: LOCK,
};
const SUBJECT = { type: "string", minLength: 1, maxLength: MAX_SUBJECT };
const BODY = { type: "string", minLength: 1, maxLength: MAX_BODY };

const DELETED = {
  description: "deleted",
  schema: { type: "object", properties: { deleted: { const: true } } },
};
const ID = "the board's number (`2`) or slug (`staff-news`)";
const PARAMS = { id: ID, num: "the post's number" };
const NO_BOARD = "no such board, or one the caller may not read";
const NO_POST = "no such board or post";

const ROUTES: Record<string, ApiOperation> = {
  "GET ": {
    summary: "Boards the caller can read",
    auth: "user",
    query: API_PAGING,
    responses: {
      "200": { description: "boards", schema: { type: "array", items: BOARD } },
      "400": "a bad limit or offset",
      "401": "no token",
    },
  },
  "POST ": {
    summary: "Create a board",
    auth: "staff",
    body: { type: "object", properties: BOARD_FIELDS, required: ["name"] },
    responses: {
      "201": { description: "the board", schema: BOARD },
      "400": "a missing or bad name, a too long description, a lock that does not parse",
      "401": "no token",
      "403": "not staff",
      "409": `a board with that slug exists, or the game holds ${MAX_BOARDS} boards`,
    },
  },
  "GET /unread": {
    summary: "Boards with posts the caller has not read",
    auth: "user",
    responses: {
      "200": {
        description: "unread counts",
        schema: {
          type: "object",
          properties: {
            total: { type: "integer" },
            boards: {
              type: "array",
              items: {
                type: "object",
                properties: {
                  id: { type: "string" },
                  name: { type: "string" },
                  slug: { type: "string" },
                  unread: { type: "integer" },
                },
              },
            },
          },
        },
      },
      "401": "no token",
    },
  },
  "GET /:id": {
    summary: "One board",
    auth: "user",
    params: PARAMS,
    responses: {
      "200": { description: "the board", schema: BOARD },
      "401": "no token",
      "404": NO_BOARD,
    },
  },
  "PATCH /:id": {
    summary: "Change a board's name, description or locks",
    auth: "staff",
    params: PARAMS,
    body: {
      type: "object",
      properties: BOARD_FIELDS,
      minProperties: 1,
      additionalProperties: false,
    },
    responses: {
      "200": { description: "the board", schema: BOARD },
      "400": "nothing to change, an unknown field, or a bad value",
      "401": "no token",
      "403": "not staff",
      "404": NO_BOARD,
      "409": "the new slug is taken, or the board changed meanwhile",
    },
  },
  "DELETE /:id": {
    summary: "Delete a board with every post and read state",
    auth: "staff",
    params: PARAMS,
    responses: { "200": DELETED, "401": "no token", "403": "not staff", "404": NO_BOARD },
  },
  "POST /:id/read": {
    summary: "Mark every post of a board read for the caller",
    auth: "user",
    params: PARAMS,
    responses: {
      "200": {
        description: "marked",
        schema: {
          type: "object",
          properties: { id: { type: "string" }, unread: { const: 0 } },
        },
      },
      "401": "no token",
      "404": NO_BOARD,
    },
  },
  "GET /:id/posts": {
    summary: "A board's posts, oldest first",
    auth: "user",
    params: PARAMS,
    query: API_PAGING,
    responses: {
      "200": { description: "posts", schema: { type: "array", items: POST } },
      "400": "a bad limit or offset",
      "401": "no token",
      "404": NO_BOARD,
    },
  },
  "POST /:id/posts": {
    summary: "Post on a board (needs its post lock)",
    auth: "user",
    params: PARAMS,
    body: {
      type: "object",
      properties: { subject: SUBJECT, body: BODY },
      required: ["subject", "body"],
    },
    responses: {
      "201": { description: "the post (read for its author)", schema: POST },
      "400": "no or too long subject or body",
      "401": "no token",
      "403": "the caller does not pass the post lock",
      "404": NO_BOARD,
      "409": "the board is gone",
      "429":
        `the caller posted \`plugins.boards.postsPerDay\` (25) times on this board today (staff: no limit); or ${REST_WRITE_LIMITED}`,
    },
  },
  "GET /:id/posts/:num": {
    summary: "Read a post (marks it read for the caller)",
    auth: "user",
    params: PARAMS,
    responses: {
      "200": { description: "the post", schema: POST },
      "401": "no token",
      "404": NO_POST,
    },
  },
  "PATCH /:id/posts/:num": {
    summary: "Edit a post (its author or staff)",
    auth: "user",
    params: PARAMS,
    body: {
      type: "object",
      properties: { subject: SUBJECT, body: BODY },
      minProperties: 1,
      additionalProperties: false,
    },
    responses: {
      "200": { description: "the post (`editedAt` set)", schema: POST },
      "400": "nothing to change, an unknown field, or an empty or too long subject or body",
      "401": "no token",
      "403": "not the author or staff",
      "404": NO_POST,
      "409": "the post changed or is gone; try again",
    },
  },
  "DELETE /:id/posts/:num": {
    summary: "Delete a post (its author or staff); its number is never reused",
    auth: "user",
    params: PARAMS,
    responses: {
      "200": DELETED,
      "401": "no token",
      "403": "not the author or staff",
      "404": NO_POST,
    },
  },
};

/** Route descriptions of the boards plugin under `prefix`. */
export function boardsApi(prefix: string): ApiDocs {
  const out: ApiDocs = {};
  for (const [key, op] of Object.entries(ROUTES)) {
    const [method, path] = key.split(" ");
    out[`${method} ${prefix}${path}`] = op;
  }
  return out;
}
