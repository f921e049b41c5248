/**
 * REST routes of the notes plugin: list, create and delete the caller's notes. Every call needs
 * a token; typed errors become `{ error }` through the engine's error handler. Each route is
 * described once, beside it: its documentation and the schema its body is checked with.
 */
import {
  caller,
  describe,
  ForbiddenError,
  type JsonSchema,
  NotFoundError,
  type PluginApp,
  requireUser,
  s,
} from "../../src/plugins/mod.ts";
import { MAX_NOTE_LENGTH, type NoteStore } from "./store.ts";

/** The prefix the routes are mounted on. */
export const PREFIX = "/api/v1/notes";

/** A note as the routes answer it. */
const NOTE: JsonSchema = {
  type: "object",
  properties: {
    id: { type: "string" },
    author: { type: "string" },
    authorName: { type: "string" },
    text: { type: "string" },
    createdAt: { type: "number" },
  },
};

const LIST = describe({
  summary: "The caller's notes, oldest first",
  auth: "user",
  query: { paging: true },
  responses: {
    "200": { description: "notes", schema: { type: "array", items: NOTE } },
    "400": "a bad limit or offset",
    "401": "no token",
  },
});

const WRITE = describe({
  summary: "Write a note",
  auth: "user",
  // No readable JSON object means no text either: the contract has one message for that.
  body: {
    schema: s.object({ text: s.text(MAX_NOTE_LENGTH, { invalid: "text is required" }) }),
    invalid: "text is required",
  },
  responses: {
    "201": { description: "the note", schema: NOTE },
    "400": "no text, or too long",
    "401": "no token",
    "409": "the caller keeps `plugins.notes.maxNotes` (1000) notes already",
  },
});

const DELETE = describe({
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
});

/** Adds the notes routes to the plugin's app. */
export function notesRoutes(app: PluginApp, store: NoteStore): void {
  app.use("*", requireUser());

  app.get("/", LIST, async (c) => c.json(await store.list(caller(c).id, LIST.query(c).page)));

  app.post("/", WRITE, async (c) => {
    const { text } = await WRITE.body(c);
    const me = caller(c);
    return c.json(await store.create(me.id, me.name, text), 201);
  });

  app.delete("/:id", DELETE, async (c) => {
    const note = await store.get(c.req.param("id"));
    if (!note) throw new NotFoundError("Not found");
    if (note.author !== caller(c).id) throw new ForbiddenError("Forbidden");
    await store.delete(note);
    return c.json({ deleted: true });
  });
}
