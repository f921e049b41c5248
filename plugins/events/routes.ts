/**
 * REST routes of the events plugin under `/api/v1/events` (all need a token): the list, one
 * event with its RSVPs, staff's create/update/delete, and RSVP as the caller.
 */
import {
  caller,
  page,
  type PluginApp,
  type PluginRates,
  readJson,
  requireStaff,
  requireUser,
  ValidationError,
} from "../../src/plugins/mod.ts";
import type { EventService } from "./service.ts";
import { checkCreate, checkPatch } from "./validate.ts";
import { RSVP_STATUSES, type RsvpStatus } from "./types.ts";

/** The prefix the routes are mounted on. */
export const PREFIX = "/api/v1/events";

/** Adds the events routes to the plugin's app; `rates` meters the RSVPs. */
export function eventRoutes(app: PluginApp, svc: EventService, rates: PluginRates): void {
  app.use("*", requireUser());

  app.get("/", async (c) => c.json(await svc.list(caller(c), page(c))));

  app.get("/:id", async (c) => {
    const ev = await svc.visible(c.req.param("id"), caller(c));
    return c.json(await svc.detail(ev));
  });

  app.post("/", requireStaff(), async (c) => {
    const input = checkCreate(await readJson(c));
    const ev = await svc.create(input, caller(c));
    return c.json(await svc.detail(ev), 201);
  });

  app.patch("/:id", requireStaff(), async (c) => {
    const changes = checkPatch(await readJson(c));
    const ev = await svc.update(c.req.param("id"), changes);
    return c.json(await svc.detail(ev));
  });

  app.delete("/:id", requireStaff(), async (c) => {
    await svc.remove(c.req.param("id"));
    return c.json({ deleted: true });
  });

  app.post("/:id/rsvp", rates.restWrite(), async (c) => {
    // No body at all means the default, `attending`.
    const empty = c.req.raw.body === null || c.req.header("content-length") === "0";
    const raw = empty ? {} : await readJson(c);
    const status = rsvpStatus(raw.status);
    const me = caller(c);
    const ev = await svc.forRsvp(c.req.param("id"));
    return c.json(await svc.rsvp(ev, me, status));
  });

  app.delete("/:id/rsvp", rates.restWrite(), async (c) => {
    const me = caller(c);
    const ev = await svc.forRsvp(c.req.param("id"));
    await svc.unrsvp(ev, me);
    return c.json({ deleted: true });
  });
}

/** An RSVP status from a body (`attending` when absent). */
function rsvpStatus(v: unknown): RsvpStatus {
  if (v === undefined || v === null) return "attending";
  if (typeof v === "string" && RSVP_STATUSES.includes(v.trim().toLowerCase() as RsvpStatus)) {
    return v.trim().toLowerCase() as RsvpStatus;
  }
  throw new ValidationError(`status must be one of ${RSVP_STATUSES.join(", ")}`);
}
