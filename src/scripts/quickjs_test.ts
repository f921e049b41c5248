import assert from "node:assert/strict";
import { MIN_MEMORY_MB, OutOfMemory, QuickJs } from "./quickjs.ts";
import { BjsonWriter } from "./bjson.ts";

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

// A call's id is written in the instance's memory as QuickJS lays out an integer, and a host
// call's integer arguments are read in place: both must give what QuickJS's own calls give.
Deno.test("quickjs: small integers cross in place, as QuickJS's own values", async () => {
  const qjs = await QuickJs.load();
  const q = await qjs.instance(MIN_MEMORY_MB);
  const seen: number[] = [];
  q.serve({
    call: (args) => {
      for (const a of args) seen.push(q.int(a));
      return 0;
    },
    interrupt: () => false,
  });
  const host = q.hostFunction("host");
  const f = q.eval(
    "(function (host) { return (n) => { host(n, 0, -5, 2147483647, 1.5, 2 ** 40); return n * 2; }; })",
    "f",
    false,
  ).value!;
  const g = q.call(f, [host]).value!;
  for (const n of [0, 7, 2147483647]) {
    const slot = q.smallInt(n);
    assert.ok(slot, "this build's integers are laid out as the engine writes them");
    const r = q.call(g, [slot]).value!;
    assert.equal(q.num(r), n * 2);
    q.free(r);
  }
  assert.equal(q.smallInt(-1), null);
  assert.equal(q.smallInt(2 ** 31), null);
  assert.equal(q.smallInt(1.5), null);
  assert.deepEqual(seen, [
    0,
    0,
    -5,
    2147483647,
    1.5,
    2 ** 40,
    7,
    0,
    -5,
    2147483647,
    1.5,
    2 ** 40,
    2147483647,
    0,
    -5,
    2147483647,
    1.5,
    2 ** 40,
  ]);
});

// Whether an answer is an exception or undefined is read in place: it must agree with QuickJS.
Deno.test("quickjs: exceptions and undefined are told in place, as QuickJS tells them", async () => {
  const qjs = await QuickJs.load();
  const q = await qjs.instance(MIN_MEMORY_MB);
  for (
    const [code, thrown, undef] of [
      ["undefined", false, true],
      ["void 0", false, true],
      ["null", false, false],
      ["0", false, false],
      ["false", false, false],
      ["NaN", false, false],
      ["-1.5e300", false, false],
      ["''", false, false],
      ["({})", false, false],
      ["throw undefined", true, false],
      ["throw 0", true, false],
      ["throw new Error('x')", true, false],
    ] as const
  ) {
    const r = q.eval(code, "t", false);
    assert.equal(!!r.error, thrown, code);
    const v = (r.value ?? r.error)!;
    if (!thrown) assert.equal(q.isUndefined(v), undef, code);
    q.free(v);
  }
});

// Strings are read where QuickJS keeps them: each must read as QuickJS's own C string gives it,
// and what that cannot give whole (a NUL, a lone surrogate) must still take the old way.
Deno.test("quickjs: strings read in place read as QuickJS's own answer", async () => {
  const qjs = await QuickJs.load();
  const q = await qjs.instance(MIN_MEMORY_MB);
  assert.ok(q.stringsInPlace, "this build's strings are laid out as the engine reads them");
  const made = (code: string) => {
    const r = q.eval(code, "s", false);
    assert.ok(r.value, code);
    return r.value;
  };
  const cases: [string, string][] = [
    ['""', ""],
    ['"a"', "a"],
    ['"hello there"', "hello there"],
    ['"é ÿ \\u0080 latin"', "é ÿ \u0080 latin"],
    ['"€ wide ā"', "€ wide ā"],
    ['"emoji 😀 pair"', "emoji 😀 pair"],
    ['"x".repeat(300)', "x".repeat(300)],
    ['"é".repeat(5000)', "é".repeat(5000)],
    ['"€".repeat(20000)', "€".repeat(20000)],
    ["Object.keys({ type: 1 })[0]", "type"],
    ["String.fromCharCode(104, 105)", "hi"],
    [
      '(() => { let s = ""; for (let i = 0; i < 2000; i++) s += "ab"; return s; })()',
      "ab".repeat(2000),
    ],
    ["1.5", "1.5"],
    ["null", "null"],
    ["({})", "[object Object]"],
    // A NUL ends QuickJS's C string: the text stops there, as it did (the flat data's count of
    // characters notices).
    ['"a\\u0000b"', "a"],
  ];
  for (const [code, want] of cases) {
    const v = made(code);
    assert.equal(q.text(v), want, code);
    if (q.typeOf(v) === "string" && !code.startsWith('"a\\u0000')) {
      assert.equal(q.wellFormed(v, want.length), want, code);
      if (want.length) assert.equal(q.wellFormed(v, want.length - 1), null, code);
    }
    q.free(v);
  }
  // Made by the engine too (its own copy in).
  for (const s of ["plain", "é", "€ and ā", "x".repeat(1000)]) {
    const v = q.string(s);
    assert.equal(q.text(v), s);
    assert.equal(q.wellFormed(v, 10_000), s);
    q.free(v);
  }
  // A lone surrogate does not cross as text the flat way.
  for (const code of ['"x\\ud800y"', '"\\udc00"', '"€\\ud83d"']) {
    const v = made(code);
    assert.equal(q.wellFormed(v, 100), null, code);
    q.free(v);
  }
});

// The ArrayBuffer a value is read from owns the bytes the engine copied in and frees them itself:
// had the engine freed (or reused) them as well, blocks QuickJS handed out afterwards would
// overlap strings kept alive meanwhile. (A reused scratch buffer fails this at once; the double
// free of before did not show in this pattern: the allocator let it pass.)
Deno.test("quickjs: a value's bytes are the ArrayBuffer's: values kept meanwhile stay whole", async () => {
  const qjs = await QuickJs.load();
  const q = await qjs.instance(MIN_MEMORY_MB);
  const w = new BjsonWriter();
  let seed = 7;
  const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  const kept: { v: ReturnType<typeof q.string>; s: string }[] = [];
  for (let i = 0; i < 3000; i++) {
    const s = `k${i}-` + "abcdefgh".repeat(rnd(40));
    kept.push({ v: q.string(s), s });
    if (kept.length > 50) {
      const [k] = kept.splice(rnd(kept.length), 1);
      q.free(k.v);
    }
    const list = Array.from({ length: rnd(30) }, (_, j) => "y".repeat(rnd(20)) + j);
    const r = q.decode(w.write(list)!.slice());
    assert.ok(r.value);
    assert.equal(q.dump(r.value), JSON.stringify(list));
    q.free(r.value);
  }
  for (const k of kept) assert.equal(q.text(k.v), k.s);
});
