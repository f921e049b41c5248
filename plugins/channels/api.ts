/** The channels routes as `GET /api/v1/openapi.json` describes them (given to ctx.openapi). */
import { API_PAGING, type ApiDocs } from "../../src/plugins/mod.ts";

/** Route descriptions of the channels plugin. */
export const CHANNELS_API: ApiDocs = {
  "GET /api/v1/channels": {
    summary: "Channels the caller may see, with their member counts",
    auth: "optional",
    query: API_PAGING,
    responses: {
      "200": {
        description: "channels",
        schema: {
          type: "array",
          items: {
            type: "object",
            properties: {
              name: { type: "string" },
              header: { type: "string" },
              members: { type: "integer" },
            },
          },
        },
      },
    },
  },
  "GET /api/v1/channels/:name/history": {
    summary: "A channel's recent messages",
    auth: "user",
    params: { name: "the channel's name" },
    query: {
      limit: { description: "how many (default 20, at most 500)", schema: { type: "integer" } },
      offset: API_PAGING.offset,
    },
    responses: {
      "200": { description: "messages, oldest first", schema: { type: "array" } },
      "401": "no token",
      "403": "the caller may not read it",
      "404": "no such channel",
    },
  },
};
