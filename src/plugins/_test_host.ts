/** Test helper: the parts of a plugin context's host an engine built, as src/engine.ts wires them. */
import type { Engine } from "../engine.ts";
import type { ContextHost } from "./context.ts";
import type { HelpRegistry } from "./help_registry.ts";
import { pluginWorld } from "./world.ts";
import { pluginEngine } from "./engine_info.ts";
import { builtinFunctions } from "../softcode/functions/mod.ts";

/** The engine-side parts of a ContextHost (the test brings the registries it watches). */
export function hostParts(
  engine: Engine,
  help: HelpRegistry,
): Pick<ContextHost, "config" | "kv" | "world" | "engine" | "players" | "deliver" | "web"> {
  const s = engine.services;
  return {
    config: s.config,
    kv: s.kv,
    world: pluginWorld(s),
    engine: pluginEngine(
      {
        config: s.config,
        root: Deno.cwd(),
        commands: s.commands,
        soleWriter: true,
        functions: builtinFunctions(),
      },
      help,
    ),
    players: s.players,
    deliver: s.deliver,
    web: s.pluginWeb,
  };
}
