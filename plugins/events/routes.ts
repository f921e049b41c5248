/**
 * REST routes of the events plugin under `/api/v1/events` (all need a token): the list, one
 * event with its RSVPs, staff's create/update/delete, and RSVP as the caller.
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
import type { EventService } from "./service.ts";
import { EVENT_CHANGES, NEW_EVENT, type NewEvent, SPAN_PARAMS, spanOf } from "./validate.ts";
import { EVENT_STATUSES, RSVP_STATUSES, type RsvpStatus } from "./types.ts";

/** The prefix the routes are mounted on. */
export const PREFIX = "/api/v1/events";

export const EVENT = {
  type: "object",
  properties: {
    id: { type: "string" },
    number: { type: "integer", description: "the number players use in game" },
    title: { type: "string" },
    description: { type: "string" },
    startTime: { type: "number" },
    endTime: { type: ["number", "null"] },
    location: { type: "string" },
    tags: { type: "array", items: { type: "string" } },
    maxAttendees: { type: "integer" },
    status: { enum: [...EVENT_STATUSES] },
    createdBy: { type: "string" },
    createdByName: { type: "string" },
    createdAt: { type: "number" },
    updatedAt: { type: "number" },
    rsvpCounts: {
      type: "object",
      properties: {
        attending: { type: "integer" },
        maybe: { type: "integer" },
        declined: { type: "integer" },
      },
    },
  },
};

const RSVP: JsonSchema = {
  type: "object",
  properties: {
    playerId: { type: "string" },
    name: { type: "string" },
    status: { enum: [...RSVP_STATUSES] },
    time: { type: "number" },
  },
};

const DETAIL: JsonSchema = {
  ...EVENT,
  properties: { ...EVENT.properties, rsvps: { type: "array", items: RSVP } },
};

const DELETED = {
  description: "deleted",
  schema: { type: "object", properties: { deleted: { const: true } } },
};

const ID = { id: "the event's id" };

const LIST = describe({
  summary: "Events, soonest first (players do not see cancelled ones)",
  description:
    "`from` and `to` keep the events that start in that span (from included, to excluded): a calendar's month is one request, whatever came before it.",
  auth: "user",
  query: { params: SPAN_PARAMS, paging: true, only: true },
  responses: {
    "200": {
      description: "events with their RSVP counts",
      schema: { type: "array", items: EVENT },
    },
    "400": "a bad limit or offset, an unknown parameter, a bad time, or to not after from",
    "401": "no token",
  },
});

const ONE = describe({
  summary: "One event with its RSVPs",
  auth: "user",
  params: ID,
  responses: {
    "200": { description: "the event", schema: DETAIL },
    "401": "no token",
    "404": "no such event (or, for players, a cancelled one)",
  },
});

const CREATE = describe({
  summary: "Create an event (status upcoming)",
  auth: "staff",
  body: { schema: NEW_EVENT },
  responses: {
    "201": { description: "the event", schema: DETAIL },
    "400": "a missing, unknown or bad field, or an end not after the start",
    "401": "no token",
    "403": "not staff",
  },
});

const CHANGE = describe({
  summary: "Change an event",
  auth: "staff",
  params: ID,
  body: { schema: EVENT_CHANGES },
  responses: {
    "200": { description: "the event", schema: DETAIL },
    "400": "nothing to change, an unknown or bad field, or an end not after the start",
    "401": "no token",
    "403": "not staff",
    "404": "no such event",
    "409": "the event kept changing; try again",
  },
});

const DELETE = describe({
  summary: "Delete an event and its RSVPs",
  auth: "staff",
  params: ID,
  responses: { "200": DELETED, "401": "no token", "403": "not staff", "404": "no such event" },
});

const ANSWER = describe({
  summary: "RSVP as the caller (replaces an earlier RSVP)",
  description: "No body at all means `attending`.",
  auth: "user",
  params: ID,
  body: {
    schema: s.object({
      status: s.custom(
        { enum: [...RSVP_STATUSES], default: "attending" },
        rsvpStatus,
      ),
    }),
    emptyIsNone: true,
  },
  responses: {
    "200": { description: "the RSVP", schema: RSVP },
    "400": "a bad status, or the event is completed or cancelled",
    "401": "no token",
    "404": "no such event",
    "409": "the event is full",
    "429": REST_WRITE_LIMITED,
  },
});

const WITHDRAW = describe({
  summary: "Withdraw the caller's RSVP",
  auth: "user",
  params: ID,
  responses: {
    "200": DELETED,
    "401": "no token",
    "404": "no such event, or the caller has not RSVPed",
    "429": REST_WRITE_LIMITED,
  },
});

/** Adds the events routes to the plugin's app; `rates` meters the RSVPs. */
export function eventRoutes(app: PluginApp, svc: EventService, rates: PluginRates): void {
  app.use("*", requireUser());

  app.get("/", LIST, async (c) => {
    const q = LIST.query(c);
    return c.json(await svc.list(caller(c), q.page, spanOf(q)));
  });

  app.get("/:id", ONE, async (c) => {
    const ev = await svc.visible(c.req.param("id"), caller(c));
    return c.json(await svc.detail(ev));
  });

  app.post("/", CREATE, requireStaff(), async (c) => {
    const input = await CREATE.body(c) as NewEvent;
    const ev = await svc.create(input, caller(c));
    return c.json(await svc.detail(ev), 201);
  });

  app.patch("/:id", CHANGE, requireStaff(), async (c) => {
    const changes = await CHANGE.body(c);
    const ev = await svc.update(c.req.param("id"), changes);
    return c.json(await svc.detail(ev));
  });

  app.delete("/:id", DELETE, requireStaff(), async (c) => {
    await svc.remove(c.req.param("id"));
    return c.json({ deleted: true });
  });

  app.post("/:id/rsvp", ANSWER, rates.restWrite(), async (c) => {
    const { status } = await ANSWER.body(c);
    const me = caller(c);
    const ev = await svc.forRsvp(c.req.param("id"));
    return c.json(await svc.rsvp(ev, me, status));
  });

  app.delete("/:id/rsvp", WITHDRAW, rates.restWrite(), async (c) => {
    const me = caller(c);
    const ev = await svc.forRsvp(c.req.param("id"));
    await svc.unrsvp(ev, me);
    return c.json({ deleted: true });
  });
}

/** An RSVP status from a body (`attending` when absent or null). */
function rsvpStatus(v: unknown): RsvpStatus {
  if (v === undefined || v === null) return "attending";
  if (typeof v === "string" && RSVP_STATUSES.includes(v.trim().toLowerCase() as RsvpStatus)) {
    return v.trim().toLowerCase() as RsvpStatus;
  }
  throw new ValidationError(`status must be one of ${RSVP_STATUSES.join(", ")}`);
}
