/**
 * REST routes of the help plugin: `GET /api/v1/help` (`{ sections }`),
 * `GET /api/v1/help/:topic` (colour codes stripped; `?format=md` raw Markdown),
 * `POST` and `DELETE /api/v1/help/:topic` for staff.
 */
import {
  ForbiddenError,
  isStaff,
  json,
  NotFoundError,
  pathBelow,
  query,
  readJson,
  requireUser,
  type RouteHandler,
  type Services,
  stripColour,
  ValidationError,
} from "../../src/plugins/mod.ts";
import { mustSlug, toSection } from "./slug.ts";
import { type HelpDb, MAX_CONTENT } from "./store.ts";
import { ANONYMOUS_READER, type HelpEntry, type HelpReader, type HelpTopics } from "./topics.ts";

/** The prefix the routes are mounted on. */
export const PREFIX = "/api/v1/help";

/** The JSON view of a topic; `entry` repeats it in the shape some clients expect. */
export function topicView(e: HelpEntry) {
  const view = {
    name: e.name,
    section: e.section,
    source: e.source,
    content: stripColour(e.content),
  };
  return { topic: e.name, ...view, entry: view };
}

/** Builds the help handler. */
export function helpRoutes(services: Services, db: HelpDb, topics: HelpTopics): RouteHandler {
  const staff = async (userId: string | null) => {
    const me = await services.objects.get(requireUser(userId));
    if (!me || !me.flags.includes("player")) throw new ForbiddenError();
    if (!isStaff(me.flags)) throw new ForbiddenError();
    return me;
  };
  // Reads need no login; with one, the reader sees what it sees in game (staff: admin topics).
  const reader = async (userId: string | null): Promise<HelpReader> => {
    const me = userId ? await services.objects.get(userId) : null;
    if (!me || !me.flags.includes("player")) return ANONYMOUS_READER;
    return { id: `#${me.id}`, flags: me.flags, connected: true };
  };
  return async (req, userId) => {
    const parts = pathBelow(req, PREFIX);
    if (parts.length === 0) {
      if (req.method !== "GET") throw new NotFoundError("Not Found");
      return json({ sections: (await topics.index(await reader(userId))).sections });
    }
    const write = req.method === "POST" || req.method === "DELETE";
    const me = write ? await staff(userId) : null;
    const slug = mustSlug(parts.join("/"));
    if (req.method === "GET") {
      const entry = await topics.getFor(slug, await reader(userId));
      if (!entry) throw new NotFoundError("Not found");
      if (query(req, "format") === "md") {
        return new Response(entry.content, {
          headers: { "content-type": "text/markdown; charset=utf-8" },
        });
      }
      return json(topicView(entry));
    }
    if (req.method === "POST" && me) {
      // Room for every character written as a six-byte `\uXXXX` escape.
      const body = await readJson(req, MAX_CONTENT * 6 + 1024);
      if (typeof body.content !== "string" || !body.content.trim()) {
        throw new ValidationError("content is required");
      }
      if (body.content.length > MAX_CONTENT) {
        throw new ValidationError(`content must be ${MAX_CONTENT} characters or fewer`);
      }
      let section = toSection("general")!;
      if (body.section !== undefined && body.section !== "") {
        const s = toSection(body.section);
        if (!s) {
          throw new ValidationError(
            "section must be 1-32 letters, digits, spaces, _ or -, starting with a letter or digit",
          );
        }
        section = s;
      } else {
        section = (await topics.get(slug))?.section ?? section;
      }
      const created = await db.set({
        slug,
        section,
        content: body.content,
        updatedAt: Date.now(),
        updatedBy: me.id,
      });
      return json(topicView((await topics.get(slug))!), created ? 201 : 200);
    }
    if (req.method === "DELETE") {
      if (!(await db.delete(slug))) throw new NotFoundError("Not found");
      const now = await topics.get(slug);
      return json({ deleted: true, restored: now ? now.source : null });
    }
    throw new NotFoundError("Not Found");
  };
}
