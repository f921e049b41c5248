/**
 * REST routes of the help plugin: `GET /api/v1/help` (`{ sections }`),
 * `GET /api/v1/help/:topic` (colour codes stripped; `?format=md` raw Markdown),
 * `POST` and `DELETE /api/v1/help/:topic` for staff.
 */
import {
  caller,
  describe,
  NotFoundError,
  type PluginApp,
  type PluginHttpContext,
  requireStaff,
  s,
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

/** A topic's text as written (not trimmed): not blank, at most MAX_CONTENT UTF-16 units. */
function checkContent(v: unknown): string {
  if (typeof v !== "string" || !v.trim()) throw new ValidationError("content is required");
  if (v.length > MAX_CONTENT) {
    throw new ValidationError(`content must be ${MAX_CONTENT} characters or fewer`);
  }
  return v;
}

/** A section name; "" means the section the topic had. */
function checkSection(v: unknown): string {
  if (v === "") return "";
  const section = toSection(v);
  if (!section) {
    throw new ValidationError(
      "section must be 1-32 letters, digits, spaces, _ or -, starting with a letter or digit",
    );
  }
  return section;
}

const TOPIC = { topic: "the topic's slug (may contain /)" };

const INDEX = describe({
  summary: "The help index by section",
  auth: "optional",
  responses: {
    "200": {
      description: "sections",
      schema: { type: "object", properties: { sections: { type: "object" } } },
    },
  },
});

const READ = describe({
  summary: "One help topic (colour codes stripped; ?format=md for the raw Markdown)",
  auth: "optional",
  params: TOPIC,
  query: {
    params: {
      // Any other value is the JSON form, as it always was.
      format: {
        schema: s.custom({ enum: ["md"] }, String),
        description: "`md` for the raw Markdown",
      },
    },
  },
  responses: {
    "200": { description: "the topic", schema: { type: "object" } },
    "400": "not a topic name",
    "404": "no such topic",
  },
});

const WRITE = describe({
  summary: "Create or replace a topic in the database (staff)",
  auth: "staff",
  params: TOPIC,
  body: {
    schema: s.object({
      content: s.custom({ type: "string", minLength: 1, maxLength: MAX_CONTENT }, checkContent),
      section: s.optional(s.custom({
        type: "string",
        description: "default: the section the topic had, else general",
      }, checkSection)),
    }),
    // Room for every character written as a six-byte `\uXXXX` escape.
    limit: MAX_CONTENT * 6 + 1024,
  },
  responses: {
    "200": "replaced",
    "201": "created",
    "400": "no content, too long, or a bad section or topic name",
    "401": "no token",
    "403": "not staff",
  },
});

const DELETE = describe({
  summary: "Delete a database topic; a file topic of the same slug shows again (staff)",
  auth: "staff",
  params: TOPIC,
  responses: {
    "200": {
      description: "deleted",
      schema: {
        type: "object",
        properties: { deleted: { const: true }, restored: { type: ["string", "null"] } },
      },
    },
    "401": "no token",
    "403": "not staff",
    "404": "no database topic of that slug",
  },
});

/** Adds the help routes to the plugin's app. */
export function helpRoutes(app: PluginApp, db: HelpDb, topics: HelpTopics): void {
  app.get(
    "/",
    INDEX,
    async (c) => c.json({ sections: (await topics.index(readerOf(c))).sections }),
  );

  app.get("/:topic{.+}", READ, async (c) => {
    const entry = await topics.getFor(slugOf(c), readerOf(c));
    if (!entry) throw new NotFoundError("Not found");
    if (READ.query(c).format === "md") {
      return c.body(entry.content, 200, { "content-type": "text/markdown; charset=utf-8" });
    }
    return c.json(topicView(entry));
  });

  app.post("/:topic{.+}", WRITE, requireStaff(), async (c) => {
    const slug = slugOf(c);
    const body = await WRITE.body(c);
    const section = body.section ||
      ((await topics.get(slug))?.section ?? toSection("general")!);
    const created = await db.set({
      slug,
      section,
      content: body.content,
      updatedAt: Date.now(),
      updatedBy: caller(c).id,
    });
    return c.json(topicView((await topics.get(slug))!), created ? 201 : 200);
  });

  app.delete("/:topic{.+}", DELETE, requireStaff(), async (c) => {
    const slug = slugOf(c);
    if (!(await db.delete(slug))) throw new NotFoundError("Not found");
    const now = await topics.get(slug);
    return c.json({ deleted: true, restored: now ? now.source : null });
  });
}
