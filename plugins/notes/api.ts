/** The notes routes as `GET /api/v1/openapi.json` describes them (given to ctx.openapi). */
import { API_PAGING, type ApiDocs } from "../../src/plugins/mod.ts";
import { MAX_NOTE_LENGTH } from "./store.ts";

const NOTE = {
  type: "object",
  properties: {
    id: { type: "string" },
    author: { type: "string" },
    authorName: { type: "string" },
    text: { type: "string" },
    createdAt: { type: "number" },
  },
};

/** Route descriptions of the notes plugin. */
export const NOTES_API: ApiDocs = {
  "GET /api/v1/notes": {
    summary: "The caller's notes, newest first",
    auth: "user",
    query: API_PAGING,
    responses: {
      "200": { description: "notes", schema: { type: "array", items: NOTE } },
      "401": "no token",
    },
  },
  "POST /api/v1/notes": {
    summary: "Write a note",
    auth: "user",
    body: {
      type: "object",
      properties: { text: { type: "string", minLength: 1, maxLength: MAX_NOTE_LENGTH } },
      required: ["text"],
    },
    responses: {
      "201": { description: "the note", schema: NOTE },
      "400": "no text, or too long",
      "401": "no token",
      "409": "the caller keeps `plugins.notes.maxNotes` (1000) notes already",
    },
  },
  "DELETE /api/v1/notes/:id": {
    summary: "Delete one of the caller's notes",
    auth: "user",
    params: { id: "the note's id" },
    responses: {
      "200": {
        description: "deleted",
        schema: { type: "object", properties: { deleted: { const: true } } },
      },
      "403": "not the caller's note",
      "404": "no such note",
    },
  },
};
