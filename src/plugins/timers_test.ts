import assert from "node:assert/strict";
import { Scheduler } from "../timers/scheduler.ts";
import { ManualClock } from "../timers/clock.ts";
import { pluginTimers } from "./timers.ts";

Deno.test("ctx.timers.now() is the engine clock's time (a hand-driven one in tests)", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const clock = new ManualClock(Date.UTC(2026, 4, 1));
    const timers = pluginTimers(new Scheduler(kv, { clock }), "x", () => {}, () => {});
    assert.equal(timers.now(), Date.UTC(2026, 4, 1));
    clock.advance(90_000);
    assert.equal(timers.now(), Date.UTC(2026, 4, 1) + 90_000);
  } finally {
    kv.close();
  }
});
