import assert from "node:assert/strict";
import { startMallocTrim } from "./malloc_trim.ts";

const onLinux = Deno.build.os === "linux";

/** This process's resident memory in KiB (Linux). */
function rssKiB(): number {
  const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(Deno.readTextFileSync("/proc/self/status"));
  return Number(m?.[1] ?? 0);
}

/** Resolves once `done()` holds, or fails after `ms`. */
async function until(done: () => boolean, ms: number): Promise<void> {
  const end = performance.now() + ms;
  while (!done()) {
    if (performance.now() > end) throw new Error(`not done in ${ms} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Resolves once `n` trims are done, or fails after `ms`. */
async function trimsDone(t: { readonly trims: number }, n: number, ms = 5_000): Promise<void> {
  const end = performance.now() + ms;
  while (t.trims < n) {
    if (performance.now() > end) throw new Error(`${t.trims} of ${n} trims in ${ms} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

Deno.test("startMallocTrim: trims again and again until stopped", async () => {
  const seen: number[] = [];
  // The pause after a trim is capped at 20 ms: other tests running in this process leave it
  // memory to trim, and a trim that takes long would otherwise set the next one far off.
  const t = startMallocTrim({ everyMs: 10, maxPauseMs: 20, onTrim: (ms) => seen.push(ms) });
  if (!onLinux) {
    assert.equal(t.available, false);
    assert.match(t.why ?? "", /not Linux/);
    return;
  }
  assert.ok(t.available, t.why);
  try {
    await trimsDone(t, 3);
    assert.ok(seen.length >= 3 && seen.every((ms) => ms >= 0), JSON.stringify(seen));
  } finally {
    t.stop();
  }
  // Stopped: a trim under way may still finish, none starts after it.
  await new Promise((r) => setTimeout(r, 50));
  const after = t.trims;
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(t.trims, after);
  t.stop(); // twice is harmless
});

/** The libc calls freedAndTrimmed needs. */
interface Libc {
  malloc(size: bigint): Deno.PointerValue;
  free(p: Deno.PointerValue): void;
  memset(p: Deno.PointerValue, c: number, n: bigint): Deno.PointerValue;
}

/**
 * Makes malloc keep 64 MiB after free (1,024 blocks of 64 KiB, below glibc's mmap threshold, so
 * from an arena, each written so its pages are resident, all freed but the last, which keeps the
 * arena's top in use: free() alone then gives nothing back), trims once, and reads the RSS (KiB)
 * just before and how much the trim took off.
 */
async function freedAndTrimmed(libc: Libc): Promise<{ kept: number; gone: number }> {
  const size = 64 * 1024;
  const blocks: Deno.PointerValue[] = [];
  try {
    for (let i = 0; i < 1024; i++) {
      const p = libc.malloc(BigInt(size));
      assert.ok(p !== null);
      libc.memset(p, 1, BigInt(size));
      blocks.push(p);
    }
    const last = blocks.pop()!;
    for (const p of blocks) libc.free(p);
    blocks.length = 0;
    blocks.push(last);
    let trimmed = 0;
    const kept = rssKiB();
    const t = startMallocTrim({ everyMs: 1, onTrim: () => trimmed ||= rssKiB() });
    try {
      await trimsDone(t, 1);
    } finally {
      t.stop();
    }
    return { kept, gone: kept - trimmed };
  } finally {
    for (const p of blocks) libc.free(p);
  }
}

Deno.test({
  name: "startMallocTrim: what malloc kept after free goes back to the OS",
  ignore: !onLinux,
  async fn() {
    const libc = Deno.dlopen("libc.so.6", {
      malloc: { parameters: ["usize"], result: "pointer" },
      free: { parameters: ["pointer"], result: "void" },
      memset: { parameters: ["pointer", "i32", "usize"], result: "pointer" },
    });
    // The RSS is the whole process's, and test files running beside this one in it may grow it
    // while the trim runs: a drop seen in any of three tries shows the trim gives memory back.
    const tries: string[] = [];
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        const drop = await freedAndTrimmed(libc.symbols);
        if (drop.gone > 32 * 1024) break;
        tries.push(`RSS ${drop.kept} KiB before the trim, ${drop.kept - drop.gone} after`);
      }
    } finally {
      libc.close();
    }
    // 64 MiB were freed each time; most of it must have left the process.
    assert.ok(tries.length < 3, tries.join("; "));
  },
});

Deno.test({
  name: "startMallocTrim: a throwing onTrim loses that report only; trimming goes on",
  ignore: !onLinux,
  async fn() {
    let calls = 0;
    const t = startMallocTrim({
      everyMs: 5,
      maxPauseMs: 10,
      onTrim: () => {
        calls++;
        throw new Error("a broken observer");
      },
    });
    try {
      await trimsDone(t, 3);
    } finally {
      t.stop();
    }
    assert.ok(calls >= 3);
  },
});

Deno.test({
  name: "startMallocTrim: a look that finds no new pages skips the trim and backs off",
  ignore: !onLinux,
  async fn() {
    // No fault count reaches a billion: every look after the first trim skips until the longest
    // pause. The first look comes 100 times the first trim's duration after it, so a slow trim
    // (a loaded machine) may put it past the longest pause: then it trims, as it should.
    const took: number[] = [];
    const t = startMallocTrim({
      everyMs: 5,
      maxPauseMs: 2_000,
      minNewPages: 1e9,
      onTrim: (ms) => took.push(ms),
    });
    try {
      await trimsDone(t, 1);
      await until(() => t.skipped >= 1 || t.trims >= 2, 15_000);
      if (t.skipped === 0) {
        assert.ok(took[0] * 100 >= 2_000, `no look skipped after a ${took[0]} ms trim`);
      } else {
        assert.equal(t.trims, 1, "a look with no new pages trimmed before the longest pause");
      }
      // The longest pause trims whatever the faults say.
      await trimsDone(t, 2, 15_000);
      // Doubling from at least 5 ms up to 2 s: at most a dozen looks skipped, not 400.
      assert.ok(t.skipped <= 12, `${t.skipped} looks skipped`);
    } finally {
      t.stop();
    }
  },
});

Deno.test({
  name: "startMallocTrim: pages newly touched make the next look trim",
  ignore: !onLinux,
  async fn() {
    const libc = Deno.dlopen("libc.so.6", {
      mmap: { parameters: ["pointer", "usize", "i32", "i32", "i32", "i64"], result: "pointer" },
      munmap: { parameters: ["pointer", "usize"], result: "i32" },
      memset: { parameters: ["pointer", "i32", "usize"], result: "pointer" },
    });
    const t = startMallocTrim({ everyMs: 5, maxPauseMs: 60_000, minNewPages: 64 });
    try {
      await trimsDone(t, 1);
      // Backed off a while, then 4 MiB of a fresh mapping touched: 1,024 faults whatever malloc
      // keeps from other tests in this process (PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS).
      await new Promise((r) => setTimeout(r, 200));
      const size = 4n * 1024n * 1024n;
      const p = libc.symbols.mmap(null, size, 3, 0x22, -1, 0n);
      assert.ok(p !== null && Deno.UnsafePointer.value(p) !== 0xffffffffffffffffn, "mmap failed");
      libc.symbols.memset(p, 1, size);
      libc.symbols.munmap(p, size);
      // The backed-off look is a few hundred ms away; without the fault count it would be a minute.
      await trimsDone(t, 2, 15_000);
    } finally {
      t.stop();
      libc.close();
    }
  },
});
