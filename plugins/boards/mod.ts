/**
 * The boards plugin: bulletin boards with per-board post numbers, read and post locks and
 * per-player unread state; REST at `/api/v1/boards` (also `/api/v1/bbs`) and Myrddin-style
 * `+bb` commands in game. A fresh game gets the default boards (Announcements, General unless
 * configured otherwise; see defaults.ts). See docs/boards.md.
 */
import type { PluginContext, PluginModule } from "../../src/plugins/mod.ts";
import { BoardStore } from "./store.ts";
import { BoardService, DEFAULT_POSTS_PER_DAY, MAX_BODY, MAX_SUBJECT } from "./service.ts";
import { boardRoutes, PREFIXES } from "./routes.ts";
import { boardCommands } from "./commands.ts";
import { defaultBoards, seedBoards } from "./defaults.ts";

const plugin: PluginModule = {
  name: "boards",
  async init(ctx: PluginContext) {
    const store = new BoardStore(ctx.kv);
    const defaults = defaultBoards(ctx.config.defaultBoards, (m) => ctx.log.warn(m));
    for (const problem of await seedBoards(store, defaults)) ctx.log.warn(problem);
    const svc = new BoardService({
      store,
      deliver: ctx.deliver,
      players: ctx.players,
      world: ctx.world,
      postsPerDay: ctx.quota({
        name: "posts",
        setting: "postsPerDay",
        default: DEFAULT_POSTS_PER_DAY,
        perDay: true,
        message: (max) => `You have posted ${max} times on that board today, the most a day.`,
      }),
      notices: (opts) => ctx.notices(opts),
    });
    // A toaded or destroyed player (a guest that left, say) leaves no read state behind.
    ctx.hooks.worldHooks.on("player:removed", (p) => store.forgetReader(p.id));
    for (const prefix of PREFIXES) {
      boardRoutes(ctx.http(prefix), svc, ctx.rates);
    }
    for (const spec of boardCommands(svc)) ctx.commands.add(spec);
    ctx.portal.section({
      path: "boards",
      label: "Boards",
      order: 30,
      module: "boards.js",
      settings: { maxSubject: MAX_SUBJECT, maxBody: MAX_BODY },
      unread: `${PREFIXES[0]}/unread`,
    });
    return true;
  },
  // Routes, commands and help registered through ctx are released by the engine.
  remove() {},
};

export default plugin;
