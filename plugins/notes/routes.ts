/**
 * REST routes of the notes plugin: list (paged with `limit`/`offset`), create, delete.
 * Every call needs a token; typed errors become `{ error }` responses through the
 * engine's error handler.
 */
import {
  ForbiddenError,
  json,
  NotFoundError,
  pathBelow,
  readJson,
  requestPage,
  requireUser,
  type RouteHandler,
  type Services,
  ValidationError,
} from "../../src/plugins/mod.ts";
import { MAX_NOTE_LENGTH, type NoteStore } from "./store.ts";

/** The prefix the routes are mounted on. */
export const PREFIX = "/api/v1/notes";

/** Builds the handler for `/api/v1/notes` and everything below it. */
export function notesRoutes(services: Services, store: NoteStore): RouteHandler {
  return async (req, userId) => {
    const me = requireUser(userId);
    const parts = pathBelow(req, PREFIX);
    if (parts.length === 0 && req.method === "GET") {
      return json(await store.list(me, requestPage(req)));
    }
    if (parts.length === 0 && req.method === "POST") {
      // No readable JSON object means no text either: the API has one message for that.
      const body = await readJson(req, undefined, "text is required");
      const text = typeof body.text === "string" ? body.text.trim() : "";
      if (!text) throw new ValidationError("text is required");
      if (text.length > MAX_NOTE_LENGTH) {
        throw new ValidationError(`text must be ${MAX_NOTE_LENGTH} characters or fewer`);
      }
      const author = await services.objects.get(me);
      return json(await store.create(me, author?.name ?? "", text), 201);
    }
    if (parts.length === 1 && req.method === "DELETE") {
      const note = await store.get(parts[0]);
      if (!note) throw new NotFoundError("Not found");
      if (note.author !== me) throw new ForbiddenError("Forbidden");
      await store.delete(note);
      return json({ deleted: true });
    }
    throw new NotFoundError("Not Found");
  };
}
