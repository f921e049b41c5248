/**
 * REST routes of the jobs plugin at `/api/v1/jobs`. Every call needs a token; players see and
 * comment on their own jobs only, staff manage all of them.
 */
import {
  caller,
  describe,
  type JsonSchema,
  type PluginApp,
  type PluginRates,
  requireStaff,
  requireUser,
  REST_WRITE_LIMITED,
  s,
  ValidationError,
} from "../../src/plugins/mod.ts";
import {
  DEFAULT_CATEGORIES,
  type JobFilter,
  type JobService,
  MAX_COMMENT,
  MAX_DESCRIPTION,
  MAX_TITLE,
  oneOf,
  viewOf,
} from "./service.ts";
import { MAX_COMMENTS, PRIORITIES, STATUSES } from "./store.ts";

/** The prefix the routes are mounted on. */
export const PREFIX = "/api/v1/jobs";

const CATEGORY: JsonSchema = {
  type: "string",
  description: `one of the configured categories (plugins.jobs.categories; default ${
    DEFAULT_CATEGORIES.join(", ")
  })`,
};

const JOB = {
  type: "object",
  properties: {
    id: { type: "string", examples: ["job-<uuid>"] },
    number: { type: "integer" },
    title: { type: "string" },
    description: { type: "string" },
    category: { type: "string" },
    priority: { enum: [...PRIORITIES] },
    status: { enum: [...STATUSES] },
    submitter: { type: "string" },
    submitterName: { type: "string" },
    assignee: { type: ["string", "null"] },
    assigneeName: { type: ["string", "null"] },
    resolution: { type: ["string", "null"] },
    createdAt: { type: "number" },
    updatedAt: { type: "number" },
    comments: { type: "integer", description: "comments players see" },
    staffNotes: { type: "integer", description: "staff-only comments (staff only)" },
  },
};

const COMMENT: JsonSchema = {
  type: "object",
  properties: {
    id: { type: "string" },
    job: { type: "string" },
    author: { type: "string" },
    authorName: { type: "string" },
    text: { type: "string" },
    staffOnly: { type: "boolean" },
    createdAt: { type: "number" },
  },
};

const ID = { id: "the job's number (`12`, `%2312`) or id (`job-<uuid>`)" };
const NOT_FOUND = "no such job, or another player's";

/** One of the words of a list, as jobs reads them (trimmed, any case). */
const word = <T extends string>(allowed: () => readonly T[], json: JsonSchema) =>
  s.custom(json, (v, name) => oneOf(v, name, allowed()));

/** The routes and what they take: categories are the live configuration's. */
function routes(svc: JobService) {
  const status = word(() => STATUSES, { enum: [...STATUSES] });
  const priority = word(() => PRIORITIES, { enum: [...PRIORITIES] });
  const category = word(() => svc.categories(), CATEGORY);
  return {
    LIST: describe({
      summary: "Jobs, newest first (players: their own)",
      auth: "user",
      query: {
        params: {
          status: { schema: status, description: "only this status" },
          category: { schema: category, description: "only this category" },
          priority: { schema: priority, description: "only this priority" },
          // Looked up after the others (a player lookup).
          assignee: {
            schema: s.custom({ type: "string" }, String),
            description: "only jobs assigned to this staff player (name or id)",
          },
        },
        paging: true,
        only: true,
      },
      responses: {
        "200": { description: "jobs", schema: { type: "array", items: JOB } },
        "400": "an unknown query parameter, a value not allowed, or an assignee who is not staff",
        "401": "no token",
      },
    }),
    SUBMIT: describe({
      summary: "Submit a job (status new)",
      auth: "user",
      body: {
        schema: s.object({
          // One line: the title is shown inside other lines (lists, the notice to staff).
          title: s.text(MAX_TITLE, { oneLine: true }),
          description: s.text(MAX_DESCRIPTION),
          category: s.optional(category),
          priority: s.optional(s.about(priority, "default normal")),
        }),
      },
      responses: {
        "201": { description: "the job", schema: JOB },
        "400": "a missing or too long title or description, or a value not allowed",
        "401": "no token",
        "409": "the caller has `plugins.jobs.maxOpenJobs` (20) jobs open (staff: no limit)",
        "429": REST_WRITE_LIMITED,
      },
    }),
    STATS: describe({
      summary: "Counts of jobs by status, category and priority (every value, 0 included)",
      auth: "staff",
      responses: {
        "200": {
          description: "the counts",
          schema: {
            type: "object",
            properties: {
              total: { type: "integer" },
              status: { type: "object", additionalProperties: { type: "integer" } },
              category: { type: "object", additionalProperties: { type: "integer" } },
              priority: { type: "object", additionalProperties: { type: "integer" } },
            },
          },
        },
        "401": "no token",
        "403": "not staff",
      },
    }),
    ONE: describe({
      summary: "One job with its comments (staff notes for staff only)",
      auth: "user",
      params: ID,
      responses: {
        "200": {
          description: "the job",
          schema: {
            ...JOB,
            properties: { ...JOB.properties, commentList: { type: "array", items: COMMENT } },
          },
        },
        "401": "no token",
        "404": NOT_FOUND,
      },
    }),
    CHANGE: describe({
      summary: "Change a job's status, priority, category, assignee or resolution",
      auth: "staff",
      params: ID,
      body: {
        schema: s.object({
          status: s.optional(status),
          priority: s.optional(priority),
          category: s.optional(category),
          resolution: s.optional(s.text(MAX_COMMENT)),
          // A player lookup, made by the service after the other fields.
          assignee: s.optional(s.later(s.custom({
            type: ["string", "null"],
            description: "a staff player's name or id; empty or null unassigns",
          }, String))),
        }, { only: true, listed: ["status", "priority", "category", "assignee", "resolution"] }),
      },
      responses: {
        "200": { description: "the job", schema: JOB },
        "400": "nothing to change, an unknown field, a value not allowed, or a non-staff assignee",
        "401": "no token",
        "403": "not staff",
        "404": NOT_FOUND,
        "409": "the job changed meanwhile; try again",
      },
    }),
    DELETE: describe({
      summary: "Delete a job with its comments",
      auth: "staff",
      params: ID,
      responses: {
        "200": {
          description: "deleted",
          schema: { type: "object", properties: { deleted: { const: true } } },
        },
        "401": "no token",
        "403": "not staff",
        "404": NOT_FOUND,
      },
    }),
    COMMENT: describe({
      summary: "Comment on a job (staff, or its submitter)",
      auth: "user",
      params: ID,
      body: {
        schema: s.object({
          staffOnly: s.optional(s.about(s.bool(), "a staff note (staff only)")),
          // Checked by the service after who may comment (a player's staff note is a 403).
          text: s.later(s.text(MAX_COMMENT)),
        }),
      },
      responses: {
        "201": { description: "the comment", schema: COMMENT },
        "400": "no or too long text, or staffOnly not a boolean",
        "401": "no token",
        "403": "staffOnly from a player",
        "404": NOT_FOUND,
        "409": `the job already holds ${MAX_COMMENTS} comments`,
        "429": REST_WRITE_LIMITED,
      },
    }),
  };
}

/** Adds the jobs routes to the plugin's app; `rates` meters the writes staff hear of. */
export function jobRoutes(app: PluginApp, svc: JobService, rates: PluginRates): void {
  const r = routes(svc);
  app.use("*", requireUser());

  app.get("/", r.LIST, async (c) => {
    const me = caller(c);
    const q = r.LIST.query(c);
    const filter: JobFilter = { status: q.status, category: q.category, priority: q.priority };
    if (q.assignee !== undefined) {
      const p = await svc.assignee(q.assignee);
      if (!p) throw new ValidationError("assignee must name a staff player");
      filter.assignee = p.id;
    }
    const jobs = await svc.list(me, filter, q.page);
    return c.json(jobs.map((j) => viewOf(j, me)));
  });

  app.post("/", r.SUBMIT, rates.restWrite(), async (c) => {
    const me = caller(c);
    const job = await svc.submit(me, await r.SUBMIT.body(c));
    return c.json(viewOf(job, me), 201);
  });

  app.get("/stats", r.STATS, requireStaff("Only staff may see job stats."), async (c) => {
    const counts = await svc.store.counts();
    const fill = (keys: readonly string[], have: Record<string, number>) => {
      const out: Record<string, number> = {};
      for (const k of keys) out[k] = have[k] ?? 0;
      // A category dropped from the configuration still shows while jobs carry it.
      for (const [k, n] of Object.entries(have)) out[k] ??= n;
      return out;
    };
    const status = fill(STATUSES, counts.status);
    return c.json({
      total: Object.values(status).reduce((a, b) => a + b, 0),
      status,
      category: fill(svc.categories(), counts.category),
      priority: fill(PRIORITIES, counts.priority),
    });
  });

  app.get("/:id", r.ONE, async (c) => {
    const me = caller(c);
    return c.json(await svc.detail(await svc.find(c.req.param("id"), me), me));
  });

  app.patch("/:id", r.CHANGE, requireStaff("Only staff may change jobs."), async (c) => {
    const me = caller(c);
    const job = await svc.find(c.req.param("id"), me);
    return c.json(await svc.change(job, me, await r.CHANGE.body(c)));
  });

  app.delete("/:id", r.DELETE, requireStaff("Only staff may delete jobs."), async (c) => {
    const me = caller(c);
    await svc.remove(await svc.find(c.req.param("id"), me), me);
    return c.json({ deleted: true });
  });

  app.post("/:id/comment", r.COMMENT, rates.restWrite(), async (c) => {
    const me = caller(c);
    const job = await svc.find(c.req.param("id"), me);
    const body = await r.COMMENT.body(c);
    const comment = await svc.comment(job, me, body.text, body.staffOnly === true);
    return c.json(comment, 201);
  });
}
