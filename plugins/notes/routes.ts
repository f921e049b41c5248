/**
 * REST routes of the notes plugin: list, create and delete the caller's notes. Every
 * call needs a token; typed errors become `{ error }` through the engine's error handler.
 */
import {
  caller,
  ForbiddenError,
  NotFoundError,
  page,
  type PluginApp,
  readJson,
  requireUser,
  ValidationError,
} from "../../src/plugins/mod.ts";
import { MAX_NOTE_LENGTH, type NoteStore } from "./store.ts";

/** The prefix the routes are mounted on. */
export const PREFIX = "/api/v1/notes";

/** Adds the notes routes to the plugin's app. */
export function notesRoutes(app: PluginApp, store: NoteStore): void {
  app.use("*", requireUser());

  app.get("/", async (c) => c.json(await store.list(caller(c).id, page(c))));

  app.post("/", async (c) => {
    // No readable JSON object means no text either: the contract has one message for that.
    const body = await readJson(c, { invalid: "text is required" });
    const text = typeof body.text === "string" ? body.text.trim() : "";
    if (!text) throw new ValidationError("text is required");
    if (text.length > MAX_NOTE_LENGTH) {
      throw new ValidationError(`text must be ${MAX_NOTE_LENGTH} characters or fewer`);
    }
    const me = caller(c);
    return c.json(await store.create(me.id, me.name, text), 201);
  });

  app.delete("/:id", async (c) => {
    const note = await store.get(c.req.param("id"));
    if (!note) throw new NotFoundError("Not found");
    if (note.author !== caller(c).id) throw new ForbiddenError("Forbidden");
    await store.delete(note);
    return c.json({ deleted: true });
  });
}
