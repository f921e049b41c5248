/**
 * The script process's batching of messages (src/scripts/child.ts): a call's messages go out
 * with its answer, but never later than the moment the script waits (an operation with an
 * answer, or a timer of its own).
 */
import { assert, assertEquals } from "./assert.ts";
import { ScriptPool } from "../src/scripts/pool.ts";

Deno.test("scripts: messages sent before a script waits on a timer arrive before the wait ends", async () => {
  const pool = new ScriptPool(
    { size: 1, timeoutMs: 3000, heapMb: 64, rssMb: 300 },
    () => ({ message: "refused", user: true }),
  );
  try {
    const src = {
      key: "wait@1",
      label: "+wait.ts",
      js: false,
      src: `export default async (u: any) => {
        u.send("before");
        await new Promise((ok) => setTimeout(ok, 400));
        u.send("in between");
        setTimeout(() => u.send("never"), 10_000);
        const seen = await u.target("me");
        u.send("after " + seen);
      };`,
    };
    const t0 = performance.now();
    const seen: [string, number][] = [];
    const out = await pool.run(
      src,
      { me: { id: "1" }, here: null, cmd: { args: "" }, args: [] },
      (op, args) => {
        seen.push([op === "send" ? String(args[0]) : op, performance.now() - t0]);
        return Promise.resolve(op === "target" ? "it" : undefined);
      },
    );
    const took = performance.now() - t0;
    assert(out.ok && !out.frame.error, JSON.stringify(out));
    assertEquals(seen.map(([what]) => what), ["before", "in between", "target", "after it"]);
    // "before" did not wait for the timer; the call itself did.
    assert(seen[0][1] < 300, `the first message came after ${seen[0][1]} ms`);
    assert(took >= 400, `the call took ${took} ms`);
  } finally {
    await pool.close();
  }
});

Deno.test("scripts: the time limit holds for a call that starts while the watchdog of an earlier one is armed", async () => {
  // The watchdog outlives a short call (it is not cleared per call); an endless loop started
  // right after one must still be stopped at its own limit, not one sampling period late.
  const pool = new ScriptPool(
    { size: 1, timeoutMs: 300, heapMb: 64, rssMb: 300 },
    () => ({ message: "refused", user: true }),
  );
  try {
    const quick = {
      key: "quick@1",
      label: "+quick.ts",
      js: false,
      src: `export default () => {};`,
    };
    const loop = {
      key: "loop@1",
      label: "+loop.ts",
      js: false,
      src: `export default () => { for (;;) {} };`,
    };
    const ctx = { me: { id: "1" }, here: null, cmd: { args: "" }, args: [] };
    const none = () => Promise.resolve(undefined);
    for (let i = 0; i < 3; i++) {
      const ok = await pool.run(quick, ctx, none);
      assert(ok.ok && !ok.frame.error, JSON.stringify(ok));
      await new Promise((r) => setTimeout(r, 20 * i)); // Start the loop at several watchdog phases.
      const t0 = performance.now();
      const out = await pool.run(loop, ctx, none);
      const took = performance.now() - t0;
      assert(!out.ok && out.reason === "time", JSON.stringify(out));
      assert(took >= 290 && took < 1000, `stopped after ${took} ms (limit 300)`);
    }
    // The replacement process serves the next call.
    const after = await pool.run(quick, ctx, none);
    assert(after.ok && !after.frame.error, JSON.stringify(after));
  } finally {
    await pool.close();
  }
});
