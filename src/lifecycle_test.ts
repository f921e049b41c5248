import assert from "node:assert/strict";
import { Lifecycle } from "./lifecycle.ts";

Deno.test("exit runs hooks last-registered first, then exits with the first code", async () => {
  const order: string[] = [];
  const codes: number[] = [];
  const lc = new Lifecycle({ exit: (c) => codes.push(c), drainMs: 0, log: () => {} });
  lc.onExit("storage", () => {
    order.push("storage");
  });
  lc.onExit("listeners", async () => {
    await new Promise((r) => setTimeout(r, 5));
    order.push("listeners");
  });
  const remove = lc.onExit("gone", () => {
    order.push("gone");
  });
  remove();
  const first = lc.exit(75, "reboot");
  const second = lc.exit(0, "shutdown");
  assert.equal(first, second);
  await first;
  assert.deepEqual(order, ["listeners", "storage"]);
  assert.deepEqual(codes, [75]);
  assert.equal(lc.exitCode, 75);
});

Deno.test("a failing or hanging hook does not stop the exit", async () => {
  const codes: number[] = [];
  const lines: string[] = [];
  const lc = new Lifecycle({
    exit: (c) => codes.push(c),
    drainMs: 0,
    hookTimeoutMs: 20,
    log: (l) => lines.push(l),
  });
  let last = false;
  lc.onExit("last", () => {
    last = true;
  });
  lc.onExit("hangs", () => new Promise<void>((r) => setTimeout(r, 100)));
  lc.onExit("throws", () => {
    throw new Error("boom");
  });
  await lc.exit(0, "test");
  assert.ok(last);
  assert.deepEqual(codes, [0]);
  assert.ok(lines.some((l) => l.includes("'throws' failed: boom")));
  assert.ok(lines.some((l) => l.includes("'hangs' timed out")));
  await new Promise((r) => setTimeout(r, 120));
});

Deno.test("begin marks one task at a time; none once an exit has begun", async () => {
  const lc = new Lifecycle({ exit: () => {}, drainMs: 0, log: () => {} });
  assert.equal(lc.task, null);
  assert.equal(lc.begin("update"), null);
  assert.equal(lc.task, "update");
  assert.equal(lc.begin("update"), "update");
  lc.end();
  assert.equal(lc.task, null);
  await lc.exit(75, "test");
  assert.equal(lc.begin("update"), "exit");
});
