/**
 * The building plugin: rooms, exits and things in game (`@dig`, `@open`, `@link`,
 * `@unlink`, `@destroy`, `@create`, `@teleport`), softcode's `destroy()`, and
 * `POST /api/v1/building/room` for builders.
 */
import type { PluginContext, PluginModule } from "../../src/plugins/mod.ts";
import { Builder, DESTROY_CONTENTS } from "./store.ts";
import { buildingCommands } from "./commands.ts";
import { buildingRoutes, PREFIX } from "./routes.ts";
import { destroyFunction } from "./function.ts";

const plugin: PluginModule = {
  name: "building",
  init(ctx: PluginContext) {
    const b = new Builder(ctx.world, ctx.deliver, () => {
      const n = Number(ctx.config.destroyContents);
      return Number.isInteger(n) && n > 0 ? n : DESTROY_CONTENTS;
    });
    buildingRoutes(ctx.http(PREFIX), b);
    for (const spec of buildingCommands(b)) ctx.commands.add(spec);
    ctx.functions.add(destroyFunction(b, ctx.world));
    return true;
  },
  remove() {},
};

export default plugin;
