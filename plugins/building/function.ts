/**
 * Softcode's `destroy()`, as TinyMUX 2.12's runs `@destroy`: the same Builder.destroy (its rules,
 * the room's confirmation, what goes home and what is unlinked) and the same words, told to the
 * executor. As in MUX, where destroy() marks the object and the game takes it a moment later,
 * the object goes after the evaluation: destroys are done in the order they were asked, each
 * once the one before is done.
 */
import {
  BUILDER_LOCK,
  EngineError,
  type PluginFunctionSpec,
  type PluginWorld,
} from "../../src/plugins/mod.ts";
import type { Builder } from "./store.ts";
import { destroyedSaid } from "./commands.ts";

/** `destroy()` for `ctx.functions.add`, over the plugin's Builder. */
export function destroyFunction(b: Builder, world: PluginWorld): PluginFunctionSpec {
  let tail: Promise<void> = Promise.resolve();
  return {
    name: "destroy",
    minArgs: 1,
    maxArgs: 1,
    help: {
      family: "effects",
      args: "destroy(<object>)",
      summary: "Destroys something you control, as @destroy does, once the evaluation is done; " +
        "gives nothing.",
      more: "@destroy's rules: builders only; not players or the starting room (what is in a " +
        "room goes home); a safe object is refused (@destroy/override). A room needs destroy() " +
        "again within a minute (or @destroy/confirm). You are told what @destroy says; one who " +
        "may not use @destroy gets #-1 PERMISSION DENIED.",
      example: { think: "destroy(create(Junk,10))", gives: "" },
    },
    call({ caller, target, tell }, args) {
      const subject = { id: `#${caller.id}`, flags: caller.flags, connected: true };
      // MUX's check of the @destroy command comes before anything is matched.
      if (!world.passes(BUILDER_LOCK, subject)) return "#-1 PERMISSION DENIED";
      const named = target(args[0]);
      if (!named) {
        tell("I don't see that here.");
        return "";
      }
      tail = tail.then(async () => {
        // Read again: what the evaluation saw may have changed or gone since.
        const obj = await world.get(named.id);
        if (!obj) return tell("I don't see that here.");
        const r = await b.destroy(caller, obj, false);
        tell(destroyedSaid(obj, r, `@destroy/confirm #${obj.id}`, "destroy()"));
      }).catch((e) => {
        if (e instanceof EngineError) return tell(e.message);
        console.error(`building: destroy(#${named.id}) failed:`, e);
      });
      return "";
    },
  };
}
