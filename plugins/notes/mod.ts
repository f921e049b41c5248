/**
 * The notes plugin: private notes over REST (`/api/v1/notes`) and in game
 * (`+note`, `+notes`). Small on purpose: copy this folder to start a plugin.
 */
import type { PluginContext, PluginModule } from "../../src/plugins/mod.ts";
import { notesQuota, NoteStore } from "./store.ts";
import { notesRoutes, PREFIX } from "./routes.ts";
import { notesCommands } from "./commands.ts";

const plugin: PluginModule = {
  name: "notes",
  init(ctx: PluginContext) {
    const store = new NoteStore(ctx.kv, ctx.quota(notesQuota(ctx.kv)));
    notesRoutes(ctx.http(PREFIX), store);
    for (const spec of notesCommands(store)) ctx.commands.add(spec);
    return true;
  },
  // Routes, commands and help registered through ctx are released by the engine.
  remove() {},
};

export default plugin;
