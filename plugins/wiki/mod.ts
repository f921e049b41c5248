/**
 * The wiki plugin: Markdown pages with YAML front matter and assets, stored as files under
 * `server.wikiDir` (the files are the truth, so the wiki can also live in git), served over
 * REST at `/api/v1/wiki`, read in game with `+wiki`, edited by staff in both places. Changes
 * fire `wiki:created`, `wiki:edited` and `wiki:deleted` on `wikiHooks`.
 */
import type { PluginContext, PluginModule } from "../../src/plugins/mod.ts";
import { WikiFiles } from "./files.ts";
import { SearchIndex } from "./search_index.ts";
import { WikiStore } from "./store.ts";
import { MAX_QUERY, PREFIX, wikiRoutes } from "./routes.ts";
import { PUBLIC_PREFIX, publicWikiRoutes } from "./public.ts";
import { MAX_PATH_LENGTH } from "./paths.ts";
import { MAX_TITLE } from "./frontmatter.ts";
import { wikiCommands } from "./commands.ts";
import { type NetPolicy, systemPolicy } from "./safe_fetch.ts";
import { WIKI_BUS, WIKI_EVENTS, type WikiEventMap } from "./events.ts";

export type { WikiCreated, WikiDeleted, WikiEdited, WikiEventMap } from "./events.ts";
export type { NetPolicy } from "./safe_fetch.ts";

/** Options of `createWikiPlugin`. */
export interface WikiPluginOptions {
  /**
   * How `@wiki/fetch` resolves names and which addresses it may reach (default: the system
   * resolver and the public-address filter). Tests give their own.
   */
  policy?: (ctx: PluginContext) => NetPolicy;
  /**
   * The folder of the wiki's portal pages (default: `web/` of the plugin's folder). A plugin
   * built on this one from another folder (a test's) points at the wiki's own.
   */
  webDir?: string;
}

/** The wiki plugin, with its outbound-fetch policy chosen by the caller. */
export function createWikiPlugin(opts: WikiPluginOptions = {}): PluginModule {
  return {
    name: "wiki",
    async init(ctx: PluginContext) {
      const dir = () => ctx.engine.path(ctx.engine.config().server.wikiDir || "wiki");
      const files = new WikiFiles(dir);
      const index = new SearchIndex(() => files.root(), (m) => ctx.log.warn(m));
      ctx.onRemove(() => index.close());
      await index.refresh();
      const store = new WikiStore(
        files,
        index,
        ctx.hooks.declare<WikiEventMap>(WIKI_BUS, WIKI_EVENTS),
      );
      const policy = opts.policy ? () => opts.policy!(ctx) : () => systemPolicy();
      wikiRoutes(ctx.http(PREFIX), store);
      publicWikiRoutes(
        ctx.http(PUBLIC_PREFIX),
        store,
        () => ctx.engine.config().web.public.wiki,
      );
      for (const spec of wikiCommands(store, policy)) ctx.commands.add(spec);
      ctx.web(opts.webDir);
      ctx.portal.section({
        path: "wiki",
        label: "Wiki",
        order: 20,
        module: "wiki.js",
        settings: { maxQuery: MAX_QUERY, maxPath: MAX_PATH_LENGTH, maxTitle: MAX_TITLE },
        visitors: () => ctx.engine.config().web.public.wiki,
      });
      // The newest pages on the front page.
      ctx.portal.card({
        place: "front",
        module: "wiki_cards.js",
        order: 30,
        visitors: () => ctx.engine.config().web.public.wiki,
      });
      return true;
    },
    // Routes, commands, help and the watcher (onRemove) are released by the engine.
    remove() {},
  };
}

export default createWikiPlugin();
