/** Tests of the sidecar process: listening, caps, refused and reset connections. */
import assert from "node:assert/strict";
import { acceptRetryDelay } from "./accept.ts";

Deno.test("acceptRetryDelay: 10 ms doubling, capped at 1 s", () => {
  assert.deepEqual([0, 1, 2, 3, 6, 7, 50].map(acceptRetryDelay), [10, 20, 40, 80, 640, 1000, 1000]);
});
