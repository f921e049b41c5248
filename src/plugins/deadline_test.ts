import assert from "node:assert/strict";
import { withDeadline } from "./deadline.ts";

Deno.test("withDeadline: values, sync throws and rejections come through", async () => {
  assert.equal(await withDeadline(() => 7, 100, "sync"), 7);
  assert.equal(await withDeadline(() => Promise.resolve("ok"), 100, "async"), "ok");
  await assert.rejects(
    withDeadline(
      () => {
        throw new Error("init broke");
      },
      100,
      "init",
    ),
    /init broke/,
  );
});

Deno.test("withDeadline: a hang is an error naming what hung; its late failure is swallowed", async () => {
  let fail!: (e: Error) => void;
  await assert.rejects(
    withDeadline(() => new Promise((_, reject) => fail = reject), 20, "init() of slow"),
    /^Error: init\(\) of slow took longer than 20 ms$/,
  );
  // Rejecting after the deadline must not surface as an unhandled rejection (the test would fail).
  fail(new Error("too late"));
  await new Promise((r) => setTimeout(r, 10));
});
