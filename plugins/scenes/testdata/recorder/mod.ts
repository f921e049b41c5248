/**
 * Test fixture for the scenes tests: records every scene event on `gameHooks` as it arrives
 * and serves the list at `GET /api/v1/scene-recorder`, so a black-box test sees the payloads.
 */
import type { PluginContext, PluginModule } from "../../../../src/plugins/mod.ts";

const EVENTS = ["scene:created", "scene:pose", "scene:set", "scene:title", "scene:clear"];

const plugin: PluginModule = {
  name: "scene-recorder",
  init(ctx: PluginContext) {
    const seen: { event: string; payload: unknown }[] = [];
    // Untyped on purpose: a listener that imports none of the owner's types.
    const bus = ctx.hooks.bus("gameHooks");
    for (const event of EVENTS) bus.on(event, (payload) => void seen.push({ event, payload }));
    ctx.http("/api/v1/scene-recorder").get("/", (c) => c.json(seen));
    return true;
  },
  remove() {},
};

export default plugin;
