/** JSON Schemas shared by the core's and the plugins' route descriptions. */
import type { ApiParam, JsonSchema } from "./types.ts";
import { LIST_PAGE, MAX_OFFSET } from "../pagination.ts";

/** `{ token }` from register and login. */
export const TOKEN: JsonSchema = {
  type: "object",
  properties: { token: { type: "string", description: "JWT (HS256), valid for 7 days" } },
  required: ["token"],
};

/** Name and password of the auth bodies (`username` is accepted for `name`). */
export const CREDENTIALS: JsonSchema = {
  type: "object",
  properties: {
    name: { type: "string" },
    username: { type: "string", description: "alias of name" },
    password: { type: "string", minLength: 1, maxLength: 512 },
  },
  required: ["password"],
};

const STRINGS: JsonSchema = { type: "array", items: { type: "string" } };

/** The fields that name an object: a content entry, and the core of a profile. */
export const BRIEF_PROPERTIES: Record<string, JsonSchema> = {
  id: { type: "string" },
  dbref: { type: "string" },
  name: { type: "string" },
  flags: STRINGS,
};

/** A game object (`GET /api/v1/dbobj/:id`). */
export const OBJECT: JsonSchema = {
  type: "object",
  properties: {
    id: { type: "string" },
    dbref: { type: "string", examples: ["#1"] },
    name: { type: "string" },
    location: { type: ["string", "null"] },
    owner: { type: ["string", "null"] },
    flags: STRINGS,
    data: {
      type: "object",
      properties: { description: { type: "string" }, state: { type: "object" } },
    },
    contents: {
      type: "array",
      items: { type: "object", properties: BRIEF_PROPERTIES },
    },
    createdAt: { type: "number" },
    updatedAt: { type: "number" },
  },
  required: ["id", "dbref", "name", "flags", "data"],
};

/** An attribute of an object (`GET /api/v1/dbobj/:id/attributes/:name`). */
export const ATTRIBUTE: JsonSchema = {
  type: "object",
  properties: {
    name: { type: "string", description: "upper-case name", examples: ["FINGER"] },
    value: { type: "string", maxLength: 8000 },
    owner: { type: "string", description: "id of the player who owns it" },
    flags: {
      type: "array",
      items: {
        enum: [
          "locked",
          "no_command",
          "case",
          "html",
          "no_inherit",
          "hidden",
          "no_name",
          "no_parse",
          "regexp",
          "trace",
          "visual",
          "wizard",
        ],
      },
    },
  },
  required: ["name", "value", "owner", "flags"],
};

/** The paging query of lists: `limit` (see {@linkcode LIST_PAGE}) and `offset`. */
export const PAGING: Record<string, ApiParam> = {
  limit: {
    description: `how many (default ${LIST_PAGE.limit}, at most ${LIST_PAGE.max})`,
    schema: { type: "integer", minimum: 1 },
  },
  offset: {
    description: `how many to skip (at most ${MAX_OFFSET})`,
    schema: { type: "integer", minimum: 0, maximum: MAX_OFFSET },
  },
};
