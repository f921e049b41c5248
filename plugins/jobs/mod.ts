/**
 * The jobs plugin: players' requests to staff with sequential numbers, statuses, priorities,
 * categories from `plugins.jobs.categories`, comments and staff-only notes; REST at
 * `/api/v1/jobs`, `+request` and `+job` in game. See docs/jobs.md.
 */
import type { PluginContext, PluginModule } from "../../src/plugins/mod.ts";
import { JobStore } from "./store.ts";
import { categoriesFrom, JobService, type MailApi } from "./service.ts";
import { jobRoutes, PREFIX } from "./routes.ts";
import { JOBS_API } from "./api.ts";
import { jobCommands } from "./commands.ts";

const plugin: PluginModule = {
  name: "jobs",
  init(ctx: PluginContext) {
    const svc = new JobService({
      store: new JobStore(ctx.kv),
      deliver: ctx.deliver,
      players: ctx.players,
      world: ctx.world,
      log: ctx.log,
      categories: () => categoriesFrom(ctx.config.categories),
      // Looked up at each use: the mail plugin may load, unload or reload at any time.
      mail: () => {
        const api = ctx.api<Partial<MailApi>>("mail");
        return api && typeof api === "object" && typeof api.send === "function"
          ? api as MailApi
          : undefined;
      },
    });
    jobRoutes(ctx.http(PREFIX), svc);
    ctx.openapi(JOBS_API);
    for (const spec of jobCommands(svc, categoriesFrom(ctx.config.categories))) {
      ctx.commands.add(spec);
    }
    return true;
  },
  // Routes, commands and help registered through ctx are released by the engine.
  remove() {},
};

export default plugin;
