/**
 * The one door at run time (fixture plugin `door`): a plugin command's `u` has no engine
 * services or hub, atomic operations refuse keys outside the plugin's space, and a timer job
 * sees the engine's clock (`ctx.timers.now()`, driven by the kit's `advance`).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ManualClock, startTestGame } from "../src/plugins/testing.ts";
import { ROOT } from "./harness.ts";

Deno.test("one door: no services in u, writes held to the plugin's space, the engine's clock", async () => {
  const clock = new ManualClock(Date.UTC(2026, 10, 1));
  const game = await startTestGame({
    plugins: [join(ROOT, "tests/fixtures/plugins/door")],
    clock,
  });
  try {
    const ann = await game.player("Ann");
    const sdk = (await game.run(ann, "+door")).text("Ann");
    assert.match(sdk, /^sdk: /);
    const keys = sdk.slice("sdk: ".length).split(",");
    assert.ok(keys.includes("send") && keys.includes("me"), sdk);
    assert.ok(!keys.includes("services") && !keys.includes("hub"), sdk);

    const escape = (await game.run(ann, "+escape")).text("Ann");
    assert.match(escape, /escape: storage: key \["object","1"\] is outside this plugin's space/);
    assert.match(escape, /own: true/);
    assert.equal((await game.engine.services.objects.get("1"))?.name !== "x", true);

    assert.equal((await game.run(ann, "+tick")).text("Ann"), "ticking");
    assert.equal((await game.advance(59_000)).text("Ann"), "");
    const heard = await game.advance(1_000);
    assert.match(heard.text("Ann"), /^tick: storage: key \["object","1"\] is outside/);
  } finally {
    await game.close();
  }
});
