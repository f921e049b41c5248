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

Deno.test("crash guard: a late connection failure is one line without a stack", async () => {
  const seen: [string, unknown][] = [];
  let done!: () => void;
  const logged = new Promise<void>((r) => done = r);
  const stop = guardProcess((m, e) => {
    seen.push([m, e]);
    done();
  });
  try {
    setTimeout(() => void Promise.reject(new Deno.errors.ConnectionReset("reset by peer")), 0);
    await logged;
    assert.deepEqual(seen, [["engine: a client connection failed:", "reset by peer"]]);
  } finally {
    stop();
  }
});
