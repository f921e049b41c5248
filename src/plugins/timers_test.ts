/** `ctx.timers.now()` reads the scheduler's clock, so plugins agree with when their jobs run. */
import { assertEquals } from "../../tests/assert.ts";
import { Scheduler } from "../timers/scheduler.ts";
import { ManualClock } from "../timers/clock.ts";
import { pluginTimers } from "./timers.ts";
import { PluginKv } from "./kv.ts";

Deno.test("ctx.timers.now() is the scheduler's clock, not the wall clock", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const clock = new ManualClock(Date.UTC(2030, 5, 1));
    const timers = pluginTimers(
      new Scheduler(kv, { clock }),
      "p",
      () => {},
      () => {},
      (op) => new PluginKv(kv, "p").scoped(op),
    );
    assertEquals(timers.now(), Date.UTC(2030, 5, 1));
    clock.advance(90_000);
    assertEquals(timers.now(), Date.UTC(2030, 5, 1) + 90_000);
  } finally {
    kv.close();
  }
});
