/**
 * REST routes of the jobs plugin at `/api/v1/jobs`. Every call needs a token; players see and
 * comment on their own jobs only, staff manage all of them.
 */
import {
  caller,
  page,
  type PluginApp,
  type PluginHttpContext,
  type PluginRates,
  readJson,
  requireStaff,
  requireUser,
  ValidationError,
} from "../../src/plugins/mod.ts";
import { type JobFilter, type JobService, oneOf, viewOf } from "./service.ts";
import { PRIORITIES, STATUSES } from "./store.ts";

/** The prefix the routes are mounted on. */
export const PREFIX = "/api/v1/jobs";

/** Query parameters a job list understands. */
const FILTERS = ["status", "category", "priority", "assignee", "limit", "offset"];

/** Adds the jobs routes to the plugin's app; `rates` meters the writes staff hear of. */
export function jobRoutes(app: PluginApp, svc: JobService, rates: PluginRates): void {
  app.use("*", requireUser());

  app.get("/", async (c) => {
    const me = caller(c);
    const filter = await filterOf(c, svc);
    const jobs = await svc.list(me, filter, page(c));
    return c.json(jobs.map((j) => viewOf(j, me)));
  });

  app.post("/", rates.restWrite(), async (c) => {
    const me = caller(c);
    const job = await svc.submit(me, await readJson(c));
    return c.json(viewOf(job, me), 201);
  });

  app.get("/stats", requireStaff("Only staff may see job stats."), async (c) => {
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

  app.get("/:id", async (c) => {
    const me = caller(c);
    return c.json(await svc.detail(await svc.find(c.req.param("id"), me), me));
  });

  app.patch("/:id", requireStaff("Only staff may change jobs."), async (c) => {
    const me = caller(c);
    const job = await svc.find(c.req.param("id"), me);
    return c.json(await svc.change(job, me, await readJson(c)));
  });

  app.delete("/:id", requireStaff("Only staff may delete jobs."), async (c) => {
    const me = caller(c);
    await svc.remove(await svc.find(c.req.param("id"), me), me);
    return c.json({ deleted: true });
  });

  app.post("/:id/comment", rates.restWrite(), async (c) => {
    const me = caller(c);
    const job = await svc.find(c.req.param("id"), me);
    const body = await readJson(c);
    if (body.staffOnly !== undefined && typeof body.staffOnly !== "boolean") {
      throw new ValidationError("staffOnly must be true or false");
    }
    const comment = await svc.comment(job, me, body.text, body.staffOnly === true);
    return c.json(comment, 201);
  });
}

/** The list filters of the query, each checked against its allowed values. */
async function filterOf(c: PluginHttpContext, svc: JobService): Promise<JobFilter> {
  const q = new URL(c.req.url).searchParams;
  for (const k of q.keys()) {
    if (!FILTERS.includes(k)) {
      throw new ValidationError(
        `unknown query '${k.slice(0, 40)}'; allowed: ${FILTERS.join(", ")}`,
      );
    }
  }
  const f: JobFilter = {};
  const status = q.get("status"), category = q.get("category");
  const priority = q.get("priority"), assignee = q.get("assignee");
  if (status !== null) f.status = oneOf(status, "status", STATUSES);
  if (category !== null) f.category = oneOf(category, "category", svc.categories());
  if (priority !== null) f.priority = oneOf(priority, "priority", PRIORITIES);
  if (assignee !== null) {
    const p = await svc.assignee(assignee);
    if (!p) throw new ValidationError("assignee must name a staff player");
    f.assignee = p.id;
  }
  return f;
}
