import assert from "node:assert/strict";
import { deliveryDelays } from "./telnet_interleave.ts";

Deno.test("deliveryDelays: a ready listener's unseen delivery is Infinity, a listener not ready is left out", () => {
  const arrivals = new Map<number, Float64Array>([
    [0, Float64Array.from([15, NaN, 12])],
    [1, Float64Array.from([NaN, 30, 40])],
  ]);
  const sent = [{ k: 0, at: 10 }, { k: 1, at: 20 }];
  // Listener 1 did not hear the sync message: none of its deliveries count.
  assert.deepEqual(deliveryDelays(sent, arrivals, [true, false, true]), [5, 2, Infinity, 20]);
  // A message whose arrivals are gone counts every ready listener as lost.
  assert.deepEqual(deliveryDelays([{ k: 9, at: 0 }], arrivals, [true, true]), [Infinity, Infinity]);
});
