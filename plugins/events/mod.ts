/**
 * The events plugin: a calendar with RSVPs over REST (`/api/v1/events`) and in game
 * (`+event`). A scheduler on the platform's persistent timers moves each event to `active` at
 * its start and `completed` at its end, reminds attending players, and fires the calendar
 * events on `eventHooks`.
 */
import { MAX_ATTENDEES, MAX_DESCRIPTION, MAX_LOCATION, MAX_TITLE } from "./validate.ts";
import { EVENT_STATUSES } from "./types.ts";
import type { PluginContext, PluginModule } from "../../src/plugins/mod.ts";
import { EventService } from "./service.ts";
import { eventRoutes, PREFIX } from "./routes.ts";
import { PUBLIC_PREFIX, publicEventRoutes } from "./public.ts";
import { eventCommands } from "./commands.ts";

const plugin: PluginModule = {
  name: "events",
  async init(ctx: PluginContext) {
    const svc = new EventService(ctx);
    eventRoutes(ctx.http(PREFIX), svc, ctx.rates);
    publicEventRoutes(ctx.http(PUBLIC_PREFIX), svc, () => ctx.engine.config().web.public.events);
    for (const spec of eventCommands(svc)) ctx.commands.add(spec);
    // A player who is gone no longer holds a seat.
    ctx.hooks.worldHooks.on("player:removed", (p) => svc.forgetPlayer(p.id));
    await svc.start();
    ctx.portal.section({
      path: "events",
      label: "Events",
      order: 50,
      module: "events.js",
      styles: "events.css",
      settings: {
        maxTitle: MAX_TITLE,
        maxDescription: MAX_DESCRIPTION,
        maxLocation: MAX_LOCATION,
        maxAttendees: MAX_ATTENDEES,
        statuses: EVENT_STATUSES,
      },
      visitors: () => ctx.engine.config().web.public.events,
    });
    // The next events on the front page.
    ctx.portal.card({
      place: "front",
      module: "event_cards.js",
      order: 20,
      visitors: () => ctx.engine.config().web.public.events,
    });
    return true;
  },
  remove() {},
};

export default plugin;
