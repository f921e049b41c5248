/** The help routes as `GET /api/v1/openapi.json` describes them (given to ctx.openapi). */
import type { ApiDocs } from "../../src/plugins/mod.ts";

const TOPIC = { description: "the topic's slug (may contain /)" };

/** Route descriptions of the help plugin. */
export const HELP_API: ApiDocs = {
  "GET /api/v1/help": {
    summary: "The help index by section",
    responses: {
      "200": {
        description: "sections",
        schema: { type: "object", properties: { sections: { type: "object" } } },
      },
    },
  },
  "GET /api/v1/help/:topic{.+}": {
    summary: "One help topic (colour codes stripped; ?format=md for the raw Markdown)",
    params: { topic: TOPIC.description },
    query: { format: { description: "`md` for the raw Markdown", schema: { enum: ["md"] } } },
    responses: {
      "200": { description: "the topic", schema: { type: "object" } },
      "404": "no such topic",
    },
  },
  "POST /api/v1/help/:topic{.+}": {
    summary: "Create or replace a topic in the database (staff)",
    auth: "staff",
    params: { topic: TOPIC.description },
    body: {
      type: "object",
      properties: { content: { type: "string" }, section: { type: "string" } },
      required: ["content"],
    },
    responses: {
      "200": "replaced",
      "201": "created",
      "400": "no content, too long, or a bad section",
      "403": "not staff",
    },
  },
  "DELETE /api/v1/help/:topic{.+}": {
    summary: "Delete a database topic; a file topic of the same slug shows again (staff)",
    auth: "staff",
    params: { topic: TOPIC.description },
    responses: {
      "200": {
        description: "deleted",
        schema: {
          type: "object",
          properties: { deleted: { const: true }, restored: { type: ["string", "null"] } },
        },
      },
      "403": "not staff",
      "404": "no database topic of that slug",
    },
  },
};
