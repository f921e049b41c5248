/** The building routes as `GET /api/v1/openapi.json` describes them (given to ctx.openapi). */
import type { ApiDocs } from "../../src/plugins/mod.ts";

/** Route descriptions of the building plugin. */
export const BUILDING_API: ApiDocs = {
  "POST /api/v1/building/room": {
    summary: "Dig a room (builder flag or higher)",
    auth: "builder",
    body: {
      type: "object",
      properties: { name: { type: "string" }, description: { type: "string" } },
      required: ["name"],
    },
    responses: {
      "201": { description: "the room", schema: { type: "object" } },
      "400": "a bad name",
      "403": "not a builder",
    },
  },
};
