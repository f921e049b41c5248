/**
 * What visitors read of the calendar, under `/api/v1/public/events` while `web.public.events`
 * is on (docs/events.md, "Visitors"): upcoming and running events, soonest first, and one
 * event. Cancelled events never show; nor does who answered (an RSVP list names players, dark
 * ones too): only the counts.
 */
import { describe, ForbiddenError, NotFoundError, type PluginApp } from "../../src/plugins/mod.ts";
import type { EventService, EventView } from "./service.ts";
import { EVENT } from "./routes.ts";
import { SPAN_PARAMS, spanOf } from "./validate.ts";

/** The prefix the visitors' routes are mounted on. */
export const PUBLIC_PREFIX = "/api/v1/public/events";

/** An event as visitors see it. */
export type PublicEvent = Omit<EventView, "createdBy">;

const OFF = "`web.public.events` is off: visitors may not read the calendar";
const { createdBy: _by, ...SHOWN } = EVENT.properties;
const EVENT_SHOWN = {
  ...EVENT,
  properties: { ...SHOWN, status: { enum: ["upcoming", "active", "completed"] } },
};

const LIST = describe({
  summary: "Upcoming and running events, soonest first",
  description: "`from` and `to` keep the ones that start in that span, as the players' list does.",
  auth: "none",
  query: { params: SPAN_PARAMS, paging: true, only: true },
  responses: {
    "200": {
      description: "events with their RSVP counts",
      schema: { type: "array", items: EVENT_SHOWN },
    },
    "400": "a bad limit or offset, a bad time, to not after from, or another query",
    "403": OFF,
  },
});

const ONE = describe({
  summary: "One event (not a cancelled one), without who answered",
  auth: "none",
  params: { id: "the event's id" },
  responses: {
    "200": { description: "the event", schema: EVENT_SHOWN },
    "403": OFF,
    "404": "no such event, or a cancelled one",
  },
});

/** Adds the visitors' event routes; `open()` reads `web.public.events` at each request. */
export function publicEventRoutes(app: PluginApp, svc: EventService, open: () => boolean): void {
  // A logged-in caller reads what any player may; the switch is the visitors'.
  app.use("*", async (c, next) => {
    if (!c.var.player && !open()) {
      throw new ForbiddenError("This game does not show its events to visitors.");
    }
    await next();
  });

  app.get("/", LIST, async (c) => {
    const q = LIST.query(c);
    const list = await svc.store.list("open", q.page, spanOf(q));
    return c.json((await svc.views(list)).map(publicEvent));
  });

  app.get("/:id", ONE, async (c) => {
    const ev = await svc.store.get(c.req.param("id"));
    if (!ev || ev.status === "cancelled") throw new NotFoundError("No such event.");
    const [view] = await svc.views([ev]);
    return c.json(publicEvent(view));
  });
}

function publicEvent(v: EventView): PublicEvent {
  const { createdBy: _by, ...rest } = v;
  return rest;
}
