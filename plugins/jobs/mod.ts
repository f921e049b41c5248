/**
 * The jobs plugin: players' requests to staff with sequential numbers, statuses, priorities,
 * categories from `plugins.jobs.categories`, comments and staff-only notes; REST at
 * `/api/v1/jobs`, `+request` and `+job` in game. See docs/jobs.md.
 */
import type { PluginContext, PluginModule } from "../../src/plugins/mod.ts";
import { JobStore } from "./store.ts";
import {
  categoriesFrom,
  DEFAULT_MAX_OPEN_JOBS,
  JobService,
  type MailApi,
  MAX_COMMENT,
  MAX_DESCRIPTION,
  MAX_TITLE,
} from "./service.ts";
import { PRIORITIES, STATUSES } from "./store.ts";
import { jobRoutes, PREFIX } from "./routes.ts";
import { jobCommands } from "./commands.ts";

const plugin: PluginModule = {
  name: "jobs",
  async init(ctx: PluginContext) {
    const store: JobStore = new JobStore(
      ctx.kv,
      ctx.quota({
        name: "open-jobs",
        setting: "maxOpenJobs",
        default: DEFAULT_MAX_OPEN_JOBS,
        message: (max) =>
          `You have ${max} open requests, the most a player may. Wait until staff resolve one.`,
        // Jobs filed before the quota: the combined index's keys, once per player.
        seed: (submitter) => store.countOpen(submitter),
      }),
    );
    // Jobs stored by an older version get their combined filter entries before any list runs.
    const filled = await store.fillComboIndex();
    if (filled) ctx.log.info(`filter index written for ${filled} stored jobs`);
    const svc = new JobService({
      store,
      deliver: ctx.deliver,
      players: ctx.players,
      world: ctx.world,
      log: ctx.log,
      categories: () => categoriesFrom(ctx.config.categories),
      notices: (opts) => ctx.notices(opts),
      // Looked up at each use: the mail plugin may load, unload or reload at any time.
      mail: () => {
        const api = ctx.api<Partial<MailApi>>("mail");
        return api && typeof api === "object" && typeof api.send === "function"
          ? api as MailApi
          : undefined;
      },
    });
    jobRoutes(ctx.http(PREFIX), svc, ctx.rates);
    for (const spec of jobCommands(svc, categoriesFrom(ctx.config.categories))) {
      ctx.commands.add(spec);
    }
    ctx.portal.section({
      path: "jobs",
      label: "Jobs",
      order: 60,
      module: "jobs.js",
      styles: "jobs.css",
      // A function: categories are the live configuration's.
      settings: () => ({
        maxTitle: MAX_TITLE,
        maxDescription: MAX_DESCRIPTION,
        maxComment: MAX_COMMENT,
        statuses: STATUSES,
        priorities: PRIORITIES,
        categories: svc.categories(),
      }),
    });
    return true;
  },
  // Routes, commands and help registered through ctx are released by the engine.
  remove() {},
};

export default plugin;
