import assert from "node:assert/strict";
import { guardProcess } from "./crash_guard.ts";

Deno.test("crash guard: stray rejections and timer throws are logged, not fatal", async () => {
  const seen: string[] = [];
  let done!: () => void;
  const both = new Promise<void>((r) => done = r);
  const stop = guardProcess((m, e) => {
    seen.push(`${m} ${(e as Error).message}`);
    if (seen.length === 2) done();
  });
  try {
    setTimeout(() => void Promise.reject(new Error("late reject")), 0);
    setTimeout(() => {
      throw new Error("late throw");
    }, 5);
    await both;
    assert.deepEqual(seen.sort(), [
      "engine: uncaught exception (kept running): late throw",
      "engine: unhandled promise rejection (kept running): late reject",
    ]);
  } finally {
    stop();
  }
});
