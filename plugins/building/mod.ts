/**
 * The building plugin: rooms, exits and things in game (`@dig`, `@open`, `@link`,
 * `@unlink`, `@destroy`, `@create`, `@lock`, `@unlock`, `@teleport`) and
 * `POST /api/v1/building/room` for builders.
 */
import type { Outbound, PluginContext, PluginModule } from "../../src/plugins/mod.ts";
import { Builder } from "./store.ts";
import { buildingCommands } from "./commands.ts";
import { buildingRoutes, PREFIX } from "./routes.ts";

const plugin: PluginModule = {
  name: "building",
  version: "1.0.0",
  description: "Building commands and the REST room endpoint.",
  init(ctx: PluginContext) {
    const hub = ctx.services.hub;
    const b = new Builder(ctx.world, (room, out, exclude) => hub.sendToRoom(room, out, exclude));
    buildingRoutes(ctx.http(PREFIX), b);
    const toPlayer = (id: string, out: Outbound) => hub.send(id, out);
    for (const spec of buildingCommands(b, ctx.world, toPlayer)) ctx.commands.add(spec);
    return true;
  },
  remove() {},
};

export default plugin;
