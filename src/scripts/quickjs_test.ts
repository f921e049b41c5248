import assert from "node:assert/strict";
import { MIN_MEMORY_MB, OutOfMemory, QuickJs } from "./quickjs.ts";

// `_malloc` answers 0 when the instance's memory is at its cap; what the engine copied in was
// then written from address 0, over the instance's own low memory, and read back as a value.
Deno.test("quickjs: a copy into an instance whose memory is at its cap fails with a clear error and writes nothing", async () => {
  const qjs = await QuickJs.load();
  const q = await qjs.instance(MIN_MEMORY_MB);
  // Hold strings of shrinking sizes until none more fits: no block of 64 KiB is left.
  const fill = q.eval(
    `globalThis.held = [];
     for (const n of [1 << 20, 1 << 16, 1 << 12, 1 << 8]) {
       try { for (;;) held.push("x".repeat(n) + held.length); } catch { /* full */ }
     }
     held.length`,
    "fill",
    false,
  );
  const v = fill.value ?? fill.error;
  if (v) q.free(v);
  const low = new Uint8Array(q.memory.buffer.slice(0, 65536));
  const big = 1 << 16;
  assert.throws(() => q.string("é".repeat(big)), OutOfMemory);
  assert.throws(() => q.eval(`"${"y".repeat(big)}"`, "big", false), OutOfMemory);
  assert.throws(() => q.decode(new Uint8Array(big)), /out of memory: the sandbox's memory/);
  assert.deepEqual(new Uint8Array(q.memory.buffer.slice(0, 65536)), low, "nothing written at 0");
});
