/**
 * REST routes of the help plugin: `GET /api/v1/help` (`{ sections }`),
 * `GET /api/v1/help/:topic` (colour codes stripped; `?format=md` raw Markdown),
 * `POST` and `DELETE /api/v1/help/:topic` for staff.
 */
import {
  caller,
  NotFoundError,
  type PluginApp,
  type PluginHttpContext,
  readJson,
  requireStaff,
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

/** The topic slug of a request (a topic may hold `/`); 400 when it is not a slug. */
function slugOf(c: PluginHttpContext): string {
  return mustSlug(c.req.param("topic") ?? "");
}

/** Reads need no login; with one, the reader sees what it sees in game (staff: admin topics). */
function readerOf(c: PluginHttpContext): HelpReader {
  const me = c.var.player;
  if (!me || !me.flags.includes("player")) return ANONYMOUS_READER;
  return { id: `#${me.id}`, flags: me.flags, connected: true };
}

/** Adds the help routes to the plugin's app. */
export function helpRoutes(app: PluginApp, db: HelpDb, topics: HelpTopics): void {
  app.get("/", async (c) => c.json({ sections: (await topics.index(readerOf(c))).sections }));

  app.get("/:topic{.+}", async (c) => {
    const entry = await topics.getFor(slugOf(c), readerOf(c));
    if (!entry) throw new NotFoundError("Not found");
    if (c.req.query("format") === "md") {
      return c.body(entry.content, 200, { "content-type": "text/markdown; charset=utf-8" });
    }
    return c.json(topicView(entry));
  });

  app.post("/:topic{.+}", requireStaff(), async (c) => {
    const slug = slugOf(c);
    // Room for every character written as a six-byte `\uXXXX` escape.
    const body = await readJson(c, { limit: MAX_CONTENT * 6 + 1024 });
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
      updatedBy: caller(c).id,
    });
    return c.json(topicView((await topics.get(slug))!), created ? 201 : 200);
  });

  app.delete("/:topic{.+}", requireStaff(), async (c) => {
    const slug = slugOf(c);
    if (!(await db.delete(slug))) throw new NotFoundError("Not found");
    const now = await topics.get(slug);
    return c.json({ deleted: true, restored: now ? now.source : null });
  });
}
