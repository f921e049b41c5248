/** Descriptions of the core routes (docs/api.md has the prose). Every core route has one. */
import { ATTRIBUTE, BRIEF_PROPERTIES, CREDENTIALS, OBJECT, PAGING, TOKEN } from "./schemas.ts";
import type { ApiDocs } from "./types.ts";

const PUBLIC_PARTS = {
  type: "object",
  description: "web.public.*: what visitors may read",
  properties: Object.fromEntries(
    ["front", "online", "characters", "wiki", "scenes", "events"].map((
      k,
    ) => [k, { type: "boolean" }]),
  ),
};

const CHARACTER = {
  type: "object",
  properties: {
    id: { type: "string" },
    dbref: { type: "string" },
    name: { type: "string" },
    moniker: { type: "string" },
    avatar: { type: "string", description: "a path on this site, an http(s) address, or empty" },
    online: { type: "boolean" },
    fields: {
      type: "array",
      description: "web.profileFields, each read from its attribute",
      items: {
        type: "object",
        properties: {
          label: { type: "string" },
          attr: { type: "string", examples: ["FINGER.FULLNAME"] },
          value: { type: "string" },
        },
      },
    },
  },
};

/** The core's route descriptions by `METHOD /path`. */
export const CORE_DOCS: ApiDocs = {
  "GET /health": {
    summary: "Liveness check",
    responses: {
      "200": {
        description: "the engine answers",
        schema: {
          type: "object",
          properties: { status: { const: "ok" }, engine: { const: "UrsaMU" } },
        },
      },
    },
  },
  "POST /api/v1/auth/register": {
    summary: "Create a player and log in",
    body: CREDENTIALS,
    responses: {
      "200": { description: "the new player's token", schema: TOKEN },
      "400": "a missing or invalid name or password",
      "403": "registration is off (game.registerEnabled)",
      "409": "the name is taken",
      "429": "too many attempts",
    },
  },
  "POST /api/v1/auth/login": {
    summary: "Log in",
    body: CREDENTIALS,
    responses: {
      "200": { description: "a token", schema: TOKEN },
      "400": "name or password missing",
      "401": "wrong name or password",
      "429": "too many failed attempts",
    },
  },
  "POST /api/v1/auth/guest": {
    summary: "Make a guest character and log in as it (game.guestEnabled)",
    responses: {
      "200": {
        description: "the guest's token and name; connect within a minute or it is removed",
        schema: {
          type: "object",
          properties: {
            token: { type: "string" },
            player: { type: "object", properties: BRIEF_PROPERTIES },
          },
        },
      },
      "400": "guest logins are not open",
      "429": "every guest place is taken, or this address has its guests",
    },
  },
  "POST /api/v1/auth/reset-password": {
    summary: "Set a new password with a reset token from @resettoken",
    body: {
      type: "object",
      properties: {
        token: { type: "string", format: "uuid" },
        newPassword: { type: "string", maxLength: 512 },
        password: { type: "string", description: "alias of newPassword" },
      },
      required: ["token"],
    },
    responses: {
      "200": {
        description: "changed",
        schema: {
          type: "object",
          properties: { message: { const: "Password updated successfully." } },
        },
      },
      "400": "an invalid, expired or used token, or a bad password",
    },
  },
  "POST /api/v1/auth/password": {
    summary: "Change one's own password; other sessions end, the caller gets a fresh token",
    auth: "user",
    body: {
      type: "object",
      properties: {
        oldPassword: { type: "string", maxLength: 512 },
        newPassword: { type: "string", minLength: 8, maxLength: 512 },
      },
      required: ["oldPassword", "newPassword"],
    },
    responses: {
      "200": {
        description: "changed: the token the caller goes on with",
        schema: { type: "object", properties: { token: { type: "string" } } },
      },
      "400": "a missing field or a password that breaks the rules",
      "401": "no or a bad token",
      "403": "a wrong current password (it counts as a failed login), or a guest",
      "429": "too many failed logins from this address",
    },
  },
  "GET /api/v1/public/game": {
    summary: "The front page's data: the game, its banner, how to connect, what visitors see",
    responses: {
      "200": {
        description: "the game",
        schema: {
          type: "object",
          properties: {
            name: { type: "string" },
            description: { type: "string" },
            banner: { type: "string", description: "a path on this site, or empty" },
            connect: {
              type: "object",
              properties: {
                host: { type: "string" },
                telnet: { type: "integer" },
                telnetTls: { type: "integer", description: "while TLS is on" },
                web: { type: "string", description: "the web client's path" },
              },
            },
            registration: { type: "boolean" },
            guests: { type: "boolean" },
            online: {
              type: ["integer", "null"],
              description: "null while web.public.online is off",
            },
            public: PUBLIC_PARTS,
          },
        },
      },
      "403": "web.public.front is off",
    },
  },
  "GET /api/v1/public/online": {
    summary:
      "Who is online, as visitors see it (no dark players; unfindable ones without their room)",
    query: PAGING,
    responses: {
      "200": {
        description: "online players, first come first",
        schema: {
          type: "array",
          items: {
            type: "object",
            properties: {
              id: { type: "string" },
              name: { type: "string" },
              location: { type: "string", description: "the room's name; empty when hidden" },
              doing: { type: "string" },
            },
          },
        },
      },
      "400": "a bad limit or offset",
      "403": "web.public.online is off",
    },
  },
  "GET /api/v1/public/characters": {
    summary: "The character gallery by name (no guests, no dark players)",
    query: {
      q: { description: "only names holding this (any case; 64 characters at most)" },
      ...PAGING,
    },
    responses: {
      "200": { description: "characters", schema: { type: "array", items: CHARACTER } },
      "400": "a bad limit, offset or q",
      "403": "web.public.characters is off",
    },
  },
  "GET /api/v1/public/characters/:id": {
    summary: "A character's page: description, avatar and profile fields",
    params: { id: "player id (`12` or `#12`)" },
    responses: {
      "200": {
        description: "the character",
        schema: {
          ...CHARACTER,
          properties: { ...CHARACTER.properties, description: { type: "string" } },
        },
      },
      "403": "web.public.characters is off",
      "404": "no such character (or a guest, or dark)",
    },
  },
  "PUT /api/v1/me/avatar": {
    summary: "Upload one's avatar: PNG, JPEG, WebP or GIF (told by content), 2 MB at most",
    auth: "user",
    rawBody: { description: "the picture's bytes", contentType: "image/*" },
    responses: {
      "200": {
        description: "stored and set as the avatar",
        schema: { type: "object", properties: { avatar: { type: "string" } } },
      },
      "400": "not a PNG, JPEG, WebP or GIF picture (SVG included), or larger than 2 MB",
      "401": "no or a bad token",
      "403": "a guest",
      "429": "10 pictures stored this hour already",
    },
  },
  "PATCH /api/v1/me/profile": {
    summary: "Change one's character page: the description and the profile fields",
    auth: "user",
    body: {
      type: "object",
      properties: {
        description: { type: "string", maxLength: 8000 },
        fields: {
          type: "object",
          description:
            "attribute (FINGER.FULLNAME) to text, one line of at most 400 characters; empty clears",
          additionalProperties: { type: "string", maxLength: 400 },
        },
      },
    },
    responses: {
      "200": {
        description: "saved",
        schema: { type: "object", properties: { saved: { const: true } } },
      },
      "400": "nothing to change, an unknown key, not a field of web.profileFields, a bad value",
      "401": "no or a bad token",
      "403": "a guest",
    },
  },
  "DELETE /api/v1/me/avatar": {
    summary: "Remove one's avatar",
    auth: "user",
    responses: {
      "200": {
        description: "removed",
        schema: { type: "object", properties: { deleted: { const: true } } },
      },
      "401": "no or a bad token",
      "403": "a guest",
    },
  },
  "GET /api/v1/avatars/:file": {
    summary: "An uploaded avatar (cached for a year: a new picture has a new name)",
    params: { file: "the file name in the avatar's address" },
    responses: {
      "200": {
        description: "the picture",
        contentType: "image/*",
        schema: { type: "string", format: "binary" },
      },
      "404": "no such avatar",
    },
  },
  "GET /api/v1/me": {
    summary: "The caller's profile",
    auth: "user",
    responses: {
      "200": {
        description: "the profile",
        schema: {
          type: "object",
          properties: { ...BRIEF_PROPERTIES, data: { type: "object" } },
        },
      },
      "401": "no or a bad token",
    },
  },
  "GET /api/v1/config": {
    summary: "Public game settings: name, ports, theme",
    responses: { "200": { description: "the settings", schema: { type: "object" } } },
  },
  "GET /api/v1/connect": {
    summary: "The connect screen (text/connect.txt), with colour codes",
    responses: {
      "200": { description: "text", contentType: "text/plain", schema: { type: "string" } },
    },
  },
  "GET /api/v1/welcome": {
    summary: "The welcome text (text/welcome.txt), with colour codes",
    responses: {
      "200": { description: "text", contentType: "text/plain", schema: { type: "string" } },
    },
  },
  "GET /api/v1/players/online": {
    summary: "Who is online (staff also see dark players)",
    auth: "optional",
    query: PAGING,
    responses: {
      "200": { description: "online players, first come first", schema: { type: "array" } },
    },
  },
  "GET /api/v1/dbos": {
    summary: "Objects the caller may see, filtered by flags",
    auth: "user",
    query: {
      flags: { description: "flag names (comma or space separated); all must be set" },
      ...PAGING,
    },
    responses: {
      "200": { description: "objects", schema: { type: "array", items: OBJECT } },
      "401": "no or a bad token",
    },
  },
  "GET /api/v1/dbobj/:id": {
    summary: "One game object with its contents",
    auth: "user",
    params: { id: "object id (`12` or `#12`)" },
    responses: {
      "200": { description: "the object", schema: OBJECT },
      "401": "no or a bad token",
      "404": "no such object (or not visible)",
    },
  },
  "PATCH /api/v1/dbobj/:id": {
    summary: "Change an object's name, description or data (owner or staff)",
    auth: "user",
    params: { id: "object id" },
    body: {
      type: "object",
      properties: {
        name: { type: "string" },
        description: { type: "string" },
        data: {
          type: "object",
          description: "allowed keys: description, avatar, state (an object)",
        },
      },
    },
    responses: {
      "200": { description: "the changed object", schema: OBJECT },
      "400": "a field that may not be set, or a bad value",
      "401": "no or a bad token",
      "403": "not the owner or staff",
      "404": "no such object",
      "409": "the name is taken",
    },
  },
  "GET /api/v1/dbobj/:id/attributes": {
    summary: "The attributes of an object the caller may see, in name order (docs/softcode.md)",
    auth: "user",
    params: { id: "object id (`12` or `#12`)" },
    query: {
      pattern: { description: "a wildcard pattern of names (`*` and `?`), e.g. `FINGER.*`" },
      ...PAGING,
    },
    responses: {
      "200": { description: "attributes", schema: { type: "array", items: ATTRIBUTE } },
      "400": "a bad page or pattern",
      "401": "no or a bad token",
      "404": "no such object (or not visible)",
    },
  },
  "GET /api/v1/dbobj/:id/attributes/:name": {
    summary: "One attribute (visual ones to anyone; others to whoever controls the object)",
    auth: "user",
    params: { id: "object id", name: "attribute name (any case; URL-encoded)" },
    responses: {
      "200": { description: "the attribute", schema: ATTRIBUTE },
      "400": "not a valid attribute name",
      "401": "no or a bad token",
      "404": "no such object or attribute (or not visible)",
    },
  },
  "PUT /api/v1/dbobj/:id/attributes/:name": {
    summary: "Set an attribute (whoever controls the object; within the owner's quota)",
    auth: "user",
    params: { id: "object id", name: "attribute name (any case; URL-encoded)" },
    body: {
      type: "object",
      properties: { value: { type: "string", minLength: 1, maxLength: 8000 } },
      required: ["value"],
    },
    responses: {
      "200": { description: "the attribute as set", schema: ATTRIBUTE },
      "400": "a bad name or value, or over the owner's quota of attribute bytes",
      "401": "no or a bad token",
      "403": "not allowed to change it (not the controller; a wizard or locked attribute)",
      "404": "no such object (or not visible)",
    },
  },
  "DELETE /api/v1/dbobj/:id/attributes/:name": {
    summary: "Remove an attribute",
    auth: "user",
    params: { id: "object id", name: "attribute name (any case; URL-encoded)" },
    responses: {
      "200": {
        description: "removed",
        schema: { type: "object", properties: { deleted: { const: true } } },
      },
      "400": "not a valid attribute name",
      "401": "no or a bad token",
      "403": "not allowed to change it",
      "404": "no such object or attribute (or not visible)",
    },
  },
  "POST /api/v1/dbobj/:id/repair": {
    summary: "Rebuild an object whose stored record cannot be read (staff)",
    auth: "staff",
    params: { id: "object id" },
    responses: {
      "200": {
        description: "what was done",
        schema: {
          type: "object",
          properties: {
            repaired: { type: "boolean" },
            detail: { type: "string" },
            object: { oneOf: [OBJECT, { type: "null" }] },
          },
        },
      },
      "403": "not staff",
      "404": "no such object",
    },
  },
  "GET /api/v1/routes": {
    summary: "Every registered route with its owner (core or a plugin)",
    responses: {
      "200": {
        description: "routes sorted by path",
        schema: {
          type: "array",
          items: {
            type: "object",
            properties: {
              method: { type: "string" },
              path: { type: "string" },
              owner: { type: "string" },
            },
          },
        },
      },
    },
  },
  "GET /api/v1/portal": {
    summary: "The plugins' portal sections and play panes, in menu order (the web client's menu)",
    responses: {
      "200": {
        description: "sections and panes",
        schema: {
          type: "object",
          properties: {
            sections: {
              type: "array",
              items: {
                type: "object",
                properties: {
                  path: { type: "string" },
                  label: { type: "string" },
                  owner: { type: "string" },
                  order: { type: "number" },
                  module: { type: "string", description: "the module's address on this site" },
                  styles: { type: ["string", "null"] },
                  settings: { type: "object" },
                },
              },
            },
            panes: { type: "array", items: { type: "object" } },
          },
        },
      },
    },
  },
  "GET /api/v1/openapi.json": {
    summary: "This document: every core and plugin route, built from the registered routes",
    responses: { "200": { description: "OpenAPI 3.1", schema: { type: "object" } } },
  },
};
