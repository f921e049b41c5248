/**
 * The help plugin: topics from the database (priority 100), help files in the
 * game's `help/` folder and every plugin's `help/` folder (50), and registered
 * commands' inline help (10). In game: `help`; over REST: `/api/v1/help`.
 */
import type { PluginContext, PluginModule } from "../../src/plugins/mod.ts";
import { HelpDb } from "./store.ts";
import { HelpTopics } from "./topics.ts";
import { helpRoutes, PREFIX } from "./routes.ts";
import { helpCommands } from "./commands.ts";
import { NewsTopics } from "./news.ts";
import { textfileFunction } from "./textfile.ts";

const plugin: PluginModule = {
  name: "help",
  async init(ctx: PluginContext) {
    const db = new HelpDb(ctx.kv);
    await db.load();
    const topics = new HelpTopics({
      db,
      mainFolder: () => ({
        dir: ctx.engine.path(ctx.engine.config().server.helpDir),
        defaultSection: "general",
      }),
      registry: ctx.engine.help,
      commands: () => ctx.engine.commands(),
      turnedOff: () => ctx.engine.turnedOff(),
      functions: ctx.engine.functionHelp,
      warn: (m) => ctx.log.warn(m),
    });
    await topics.reloadFiles();
    const news = new NewsTopics(
      () => ({ dir: ctx.engine.path(ctx.engine.config().server.newsDir), defaultSection: "news" }),
      (m) => ctx.log.warn(`news: ${m}`),
    );
    await news.reload();
    helpRoutes(ctx.http(PREFIX), db, topics);
    for (const spec of helpCommands(db, topics, news)) ctx.commands.add(spec);
    ctx.functions.add(textfileFunction(topics, news));
    ctx.provide({ topics });
    return true;
  },
  remove() {},
};

export default plugin;
