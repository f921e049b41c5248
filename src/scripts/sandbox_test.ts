/**
 * The sandbox of one script (src/scripts/sandbox.ts): loads, calls, limits, and the ways a script
 * might reach past it, against the real QuickJS instance.
 */
import { assert, assertEquals, assertMatch } from "../../tests/assert.ts";
import { QuickJs } from "./quickjs.ts";
import {
  callHost,
  LoadError,
  type OpHandler,
  type Outcome,
  ScriptVm,
  type VmLimits,
  warmUp,
} from "./sandbox.ts";
import { Transpiler } from "./transpile.ts";

const LIMITS: VmLimits = { timeoutMs: 100, wallMs: 2_000, memoryMb: 32, maxQueue: 4 };
const CMD = { raw: "+t hi", name: "+t", switches: [], args: "hi", lhs: "hi", rhs: null };
const qjs = await QuickJs.load();
await warmUp(qjs);
const tsc = new Transpiler();

async function vmOf(src: string, limits: Partial<VmLimits> = {}): Promise<ScriptVm> {
  const vm = await ScriptVm.create(qjs, { ...LIMITS, ...limits });
  vm.load(tsc.javascript(crypto.randomUUID(), src, "+t.ts", false), "+t.ts");
  return vm;
}

/** Ops that record sends and answer a few reads (some later, as a database read would). */
function recorder() {
  const sent: string[] = [];
  const ops: OpHandler = (name, args) => {
    if (name === "send") {
      sent.push(String(args[0]));
      return undefined;
    }
    if (name === "me") return { id: "3", dbref: "#3", name: "Bob", flags: ["player"] };
    if (name === "here") return null;
    if (name === "target") {
      if (args[0] === "nobody") throw new RefusedError("I don't see that here.");
      return new Promise((ok) => setTimeout(() => ok({ name: `the ${args[0]}` }), 5));
    }
    if (name === "online") return [{ name: "Bob" }];
    throw new RefusedError(`no op ${name}`);
  };
  return { sent, ops };
}

class RefusedError extends Error {}
const mapError = (e: unknown) => ({
  message: e instanceof Error ? e.message : String(e),
  user: e instanceof RefusedError,
});

async function call(vm: ScriptVm, ops?: OpHandler): Promise<Outcome & { sent: string[] }> {
  const r = recorder();
  const out = await vm.run(CMD, callHost(ops ?? r.ops, mapError));
  return { ...out, sent: r.sent };
}

Deno.test("vm: a script runs, reads the SDK, sends, awaits answers and timers", async () => {
  const vm = await vmOf(`/// <reference path="./sdk.d.ts" />
export const help = "+t: a test";
export const aliases = ["+tt"];
export default async function (u: ScriptSdk): Promise<void> {
  await u.send("hello " + u.me.name + " " + u.cmd.args);
  const t = await u.target("box");
  await new Promise((r) => setTimeout(r, 10));
  u.send(t.name + " " + (await u.online()).length);
}`);
  const out = await call(vm);
  assert(out.ok && !out.error, JSON.stringify(out));
  assertEquals(out.sent, ["hello Bob hi", "the box 1"]);
  assert(out.cpuMs >= 0 && out.cpuMs < 100);
  // The same instance serves the next call.
  assertEquals((await call(vm)).sent.length, 2);
});

Deno.test("vm: exports are read as plain data; a bad module is one clean line", async () => {
  const vm = await ScriptVm.create(qjs, LIMITS);
  const meta = vm.load(
    `export const help = "x"; export const switches = ["a"]; export const lock = "admin+";
export default () => {};`,
    "+m.js",
  );
  assertEquals(meta, { help: "x", switches: ["a"], lock: "admin+" });
  const bad = async (src: string, want: RegExp) => {
    const fresh = await ScriptVm.create(qjs, LIMITS);
    try {
      fresh.load(src, "+bad.js");
      throw new Error("loaded");
    } catch (e) {
      assert(e instanceof LoadError, String(e));
      assertMatch(e.message, want);
      assert(!e.message.includes("\n"), e.message);
    }
  };
  await bad(`export default (u) => { u.send("x") ;;; oops(`, /^SyntaxError: .*\(\+bad\.js:1/);
  await bad(`export const help = 1;`, /^TypeError: the script must default-export a function/);
  await bad(
    `throw new Error("at load");\nexport default () => {};`,
    /^Error: at load \(\+bad\.js:1\)/,
  );
  await bad(`import x from "./other.js";\nexport default () => x;`, /could not load module/);
  await bad(`for (;;) {}\nexport default () => {};`, /stopped after 250 ms \(the time limit\)/);
  // TypeScript errors are syntax errors too, with the file's line.
  try {
    tsc.javascript("h1", `export default (u: number) => { let x: = 1; }`, "+ts.ts", false);
    throw new Error("transpiled");
  } catch (e) {
    assertMatch(String((e as Error).message), /^SyntaxError: .*\(\+ts\.ts:1:\d+\)$/);
  }
});

Deno.test("vm: refusals, throws and garbage", async () => {
  let out = await call(await vmOf(`export default async (u) => { await u.target("nobody"); };`));
  assert(out.ok);
  assertEquals(out.error, { message: "I don't see that here.", user: true });
  out = await call(await vmOf(`export default () => { throw new Error("kaboom"); };`));
  assert(out.ok);
  assertEquals(out.error, { message: "Error: kaboom (+t.ts:1)", user: false });
  // A forged refusal is a plain error: the brand cannot be made by a script.
  out = await call(
    await vmOf(
      `export default () => { const e = new Error("I don't see that here."); e.user = true; throw e; };`,
    ),
  );
  assert(out.ok && out.error?.user === false, JSON.stringify(out));
  out = await call(await vmOf(`export default () => ({ no: 1 });`));
  assert(out.ok && out.garbage === "object", JSON.stringify(out));
  // Describing a throw runs its getters as the script's own time.
  out = await call(
    await vmOf(`export default () => { throw { name: "X", get message() { for (;;) {} } }; };`),
  );
  assert(!out.ok && out.reason === "time", JSON.stringify(out));
});

// The prelude is compiled without source text or line table (about 32 KiB of every sandbox):
// its functions show no source, and a throw passing through them is still placed in the script.
Deno.test("vm: the prelude keeps no source; a script's own functions keep theirs", async () => {
  assert(qjs.strips, "this QuickJS build's strip flags are known");
  const out = await call(
    await vmOf(`function mine(a) { return a + 1; }
export default async (u) => { await u.send(String(u.send) + "|" + String(mine)); };`),
  );
  assert(out.ok, JSON.stringify(out));
  assertEquals(out.sent, [
    "function send() {\n    [native code]\n}|function mine(a) { return a + 1; }",
  ]);
  // Thrown by the prelude itself: its frames come first and are passed over.
  const thrown = await call(
    await vmOf(`export default async (u) => {
  await u.send("x".repeat(40000));
};`),
  );
  assert(thrown.ok, JSON.stringify(thrown));
  assertEquals(thrown.error?.user, false);
  assert(/^RangeError: .* \(\+t\.ts:2\)$/.test(thrown.error?.message ?? ""), thrown.error?.message);
});

Deno.test("vm: limits stop a call and leave the engine alone", async () => {
  const loop = await vmOf(`export default () => { for (;;) {} };`);
  const t0 = performance.now();
  let out = await call(loop);
  assert(!out.ok && out.reason === "time", JSON.stringify(out));
  assertMatch(out.message, /stopped after 100 ms \(the time limit\)/);
  assert(performance.now() - t0 < 1000);
  assert(loop.dead);
  // A catch cannot swallow the stop.
  out = await call(
    await vmOf(`export default () => { for (;;) { try { for (;;) {} } catch {} } };`),
  );
  assert(!out.ok && out.reason === "time", JSON.stringify(out));
  // Time across awaits: each slice counts, and waiting forever meets the wall clock.
  out = await call(
    await vmOf(`export default async () => { await new Promise(() => {}); };`, { wallMs: 200 }),
  );
  assert(!out.ok && out.reason === "time", JSON.stringify(out));
  assertMatch(out.message, /wall-clock/);
  for (
    const bomb of [
      `const a = []; for (let n = 1024; ; n *= 2) a.push("x".repeat(n));`,
      `const a = []; for (;;) a.push(new Array(1e5).fill(1));`,
      `const a = []; for (;;) a.push(new Uint8Array(1 << 20));`,
      `const a = []; for (let i = 0; ; i++) a.push({ i, s: "y" + i });`,
      `new Uint8Array(1 << 30);`,
      `"x".repeat(1 << 29);`,
    ]
  ) {
    out = await call(await vmOf(`export default () => { ${bomb} };`, { timeoutMs: 2000 }));
    assert(!out.ok && out.reason === "memory", `${bomb}: ${JSON.stringify(out)}`);
  }
  out = await call(await vmOf(`const f = (n) => f(n + 1) + 1; export default () => { f(0); };`));
  assert(out.ok && /stack overflow/i.test(out.error?.message ?? ""), JSON.stringify(out));
  out = await call(
    await vmOf(`export default (u) => { for (let i = 0; i < 1e6; i++) u.send("x"); };`),
  );
  assert(!out.ok && out.reason === "calls", JSON.stringify(out));
  assertEquals(out.sent.length, 2000);
});

Deno.test("vm: a memory bomb grows the host by at most the cap", async () => {
  // Uncapped, this bomb takes QuickJS to WebAssembly's 4 GB (its own memory limit does not hold
  // in the prebuilt build); capped, the host's resident memory grows by the cap and some slack.
  const before = Deno.memoryUsage().rss;
  const out = await call(
    await vmOf(
      `export default () => { const a = []; for (let n = 1024; ; n *= 2) { const s = "x".repeat(n); a.push(s + s); } };`,
      { timeoutMs: 5000 },
    ),
  );
  assert(!out.ok && out.reason === "memory", JSON.stringify(out));
  const grown = (Deno.memoryUsage().rss - before) / 1048576;
  assert(grown < LIMITS.memoryMb + 96, `the host grew by ${grown.toFixed(0)} MB`);
  // The engine goes on: a fresh sandbox works.
  const again = await call(await vmOf(`export default (u) => { u.send("fine"); };`));
  assertEquals(again.sent, ["fine"]);
});

Deno.test("vm: calls wait in a bounded queue, one at a time", async () => {
  const vm = await vmOf(`let n = 0;
export default async (u) => { const mine = ++n; await new Promise((r) => setTimeout(r, 20)); u.send("done " + mine + " of " + n); };`);
  const outs = await Promise.all([1, 2, 3, 4, 5, 6].map(() => call(vm)));
  assertEquals(outs.filter((o) => !o.ok && o.reason === "busy").length, 1);
  assertEquals(
    outs.filter((o) => o.ok).map((o) => o.sent[0]),
    ["done 1 of 1", "done 2 of 2", "done 3 of 3", "done 4 of 4", "done 5 of 5"],
  );
});

Deno.test("vm: a timer never outlives its call", async () => {
  const vm = await vmOf(`let leaked = null;
export default async (u) => {
  if (u.cmd.args === "set") { setTimeout(() => u.send("late"), 30); setInterval(() => u.send("tick"), 5); return; }
  await new Promise((r) => setTimeout(r, 80));
  u.send("second");
};`);
  const sent: string[] = [];
  const ops: OpHandler = (name, args) => {
    if (name === "send") sent.push(String(args[0]));
  };
  await vm.run({ ...CMD, args: "set" }, callHost(ops, mapError));
  await vm.run({ ...CMD, args: "wait" }, callHost(ops, mapError));
  assertEquals(sent, ["second"]);
});

Deno.test("vm: built-ins are frozen; no eval, no function constructors, no modules, nothing of the host", async () => {
  const vm = await vmOf(`export default async (u) => {
  const out = [];
  const tryIt = (what, f) => { try { out.push(what + ": " + f()); } catch (e) { out.push(what + ": " + e.name + " " + e.message); } };
  tryIt("push", () => { Array.prototype.push = () => 0; return "patched"; });
  tryIt("global", () => { globalThis.stash = 1; return "set"; });
  tryIt("iter", () => { Object.getPrototypeOf([][Symbol.iterator]()).next = () => 0; return "patched"; });
  tryIt("gen", () => { Object.getPrototypeOf(function* () {}).prototype.next = () => 0; return "patched"; });
  tryIt("eval", () => eval("1 + 1"));
  tryIt("indirect", () => (0, globalThis.eval)("1"));
  tryIt("Function", () => new Function("return 1")());
  tryIt("ctor", () => (() => {}).constructor("return 1")());
  tryIt("async ctor", () => (async () => {}).constructor("return 1"));
  tryIt("gen ctor", () => (function* () {}).constructor("yield 1"));
  tryIt("send proto", () => Object.getPrototypeOf(u.send) === Function.prototype);
  tryIt("u frozen", () => { u.send = null; return "replaced"; });
  tryIt("own name", () => { const e = new Error("x"); e.name = "Mine"; return e.name; });
  tryIt("globals", () => ["Deno", "fetch", "process", "require", "WebAssembly", "std", "os", "FinalizationRegistry"].filter((g) => g in globalThis).join(",") || "none");
  try { await import("node:timers"); out.push("import: loaded"); } catch (e) { out.push("import: " + e.message); }
  await u.send(out.join("\\n"));
};`);
  const out = await call(vm);
  assert(out.ok && !out.error, JSON.stringify(out));
  const lines = out.sent[0].split("\n");
  assertMatch(lines[0], /^push: TypeError/);
  assertMatch(lines[1], /^global: TypeError/);
  assertMatch(lines[2], /^iter: TypeError/);
  assertMatch(lines[3], /^gen: TypeError/);
  assertMatch(lines[4], /^eval: ReferenceError/);
  assertMatch(lines[5], /^indirect: TypeError/);
  assertMatch(lines[6], /^Function: TypeError scripts cannot make functions from text/);
  assertMatch(lines[7], /^ctor: TypeError scripts cannot make functions from text/);
  assertMatch(lines[8], /^async ctor: TypeError/);
  assertMatch(lines[9], /^gen ctor: TypeError/);
  assertEquals(lines[10], "send proto: true");
  assertMatch(lines[11], /^u frozen: TypeError/);
  assertEquals(lines[12], "own name: Mine");
  assertEquals(lines[13], "globals: none");
  assertMatch(lines[14], /^import: could not load module/);
});

Deno.test("vm: a built-in method cannot be extended or given another prototype; its holders stay frozen", async () => {
  const src = `export default async (u) => {
  const out = [];
  const tryIt = (what, f) => { try { out.push(what + ": " + f()); } catch (e) { out.push(what + ": " + e.name); } };
  tryIt("add", () => { JSON.stringify.call = () => "mine"; return "added"; });
  tryIt("proto", () => { Object.setPrototypeOf(Array.prototype.map, {}); return "changed"; });
  tryIt("accessor proto", () => { Object.setPrototypeOf(Object.getOwnPropertyDescriptor(Map.prototype, "size").get, {}); return "changed"; });
  tryIt("static", () => { Promise.resolve = () => 0; return "replaced"; });
  tryIt("slot", () => { Object.defineProperty(JSON, "stringify", { value: () => "x" }); return "replaced"; });
  tryIt("frozen", () => [Array, Promise, JSON, Array.prototype, Object].every(Object.isFrozen));
  tryIt("extensible", () => Object.isExtensible(Array.prototype.map) || Object.isExtensible(JSON.parse));
  const renamed = Object.defineProperty(Array.prototype.map, "name", { value: "mine" }).name;
  await u.send(out.join("\\n") + "\\nname: " + renamed + " " + [1].map((x) => x + 1) + " " + JSON.stringify([1]));
};`;
  const [first, second] = [await call(await vmOf(src)), await call(await vmOf(src))];
  for (const out of [first, second]) {
    assert(out.ok && !out.error, JSON.stringify(out));
    assertEquals(out.sent[0].split("\n"), [
      "add: TypeError",
      "proto: TypeError",
      "accessor proto: TypeError",
      "static: TypeError",
      "slot: TypeError",
      "frozen: true",
      "extensible: false",
      // A method's name stays configurable, in its own sandbox: the second began with "map".
      "name: mine 2 [1]",
    ]);
  }
});

Deno.test("vm: a fresh sandbox holds at most 264 KiB of its memory's pages", async () => {
  // Pages that hold anything but zeros, after the prelude and a small script's call. Frozen
  // methods (a shape of their own each) made it 300 KiB; non-extensible ones, 260.
  const made: WebAssembly.Memory[] = [];
  const own = await QuickJs.load();
  const instance = own.instance.bind(own);
  own.instance = async (mb: number) => {
    const q = await instance(mb);
    made.push(q.memory);
    return q;
  };
  const vm = await ScriptVm.create(own, LIMITS);
  vm.load(
    tsc.javascript("pages", `export default (u) => u.send(u.cmd.args);`, "+t.ts", false),
    "+t.ts",
  );
  assert((await call(vm)).ok);
  const words = new Uint32Array(made[made.length - 1].buffer);
  let pages = 0;
  for (let p = 0; p < words.length; p += 1024) {
    for (let i = p; i < p + 1024; i++) {
      if (words[i] !== 0) {
        pages++;
        break;
      }
    }
  }
  assert(pages * 4 <= 264, `${pages * 4} KiB of pages`);
  vm.kill();
});

Deno.test("vm: what crosses to the host is checked there: huge strings, hostile data", async () => {
  // The size checks are what is tested, not the clock: a fresh instance's first megabyte can take
  // 100 ms of the process's CPU on a loaded machine (its code still compiling), so 1 s here.
  const roomy = { timeoutMs: 1_000 };
  let out = await call(
    await vmOf(`export default async (u) => { await u.send("x".repeat(1024 * 1024)); };`, roomy),
  );
  assert(out.ok && out.error, JSON.stringify(out));
  assertMatch(out.error!.message, /the message is 1048576 characters; the limit is 32000/);
  out = await call(
    await vmOf(
      `export default async (u) => { await u.send("a", { blob: "y".repeat(1e6) }); };`,
      roomy,
    ),
  );
  assertMatch(out.ok ? out.error!.message : "", /data must be JSON of at most 16384 bytes/);
  out = await call(
    await vmOf(`export default async (u) => { await u.target("z".repeat(1e6)); };`, roomy),
  );
  assertMatch(out.ok ? out.error!.message : "", /arguments of u\.target are too long/);
  out = await call(
    await vmOf(`export default async (u) => {
  const p = new Proxy({}, { get() { throw new Error("trap"); }, ownKeys() { for (;;) {} } });
  await u.send("a", p);
};`),
  );
  assert(!out.ok && out.reason === "time" || out.ok && out.error, JSON.stringify(out));
  out = await call(
    await vmOf(`export default async (u) => {
  await u.send({ toString() { return "from toString"; } });
  await u.send("b", { get type() { throw new Error("getter"); } });
};`),
  );
  assert(out.ok && out.error, JSON.stringify(out));
  assertEquals(out.sent, ["from toString"]);
  assertMatch(out.error!.message, /Error: getter/);
  // u always acts for the call that runs now: one kept from an earlier call is this call's.
  const vm = await vmOf(`let saved = null;
export default async (u) => { if (saved) await saved.send((saved === u) + " " + saved.cmd.args); saved = u; };`);
  await call(vm);
  assertEquals((await call(vm)).sent, ["true hi"]);
  // Random bytes for dice.
  out = await call(
    await vmOf(`export default async (u) => {
  const b = new Uint32Array(4); crypto.getRandomValues(b);
  await u.send(String(b.some((x) => x !== 0)) + " " + crypto.randomUUID().length);
};`),
  );
  assertEquals(out.sent, ["true 36"]);
});

/** Runs `body` as a command with ops that keep each send's data; answers `online` with `online`. */
async function dataOf(
  body: string,
  online: unknown = [],
  limits: Partial<VmLimits> = {},
): Promise<
  Outcome & { data: unknown[] }
> {
  const data: unknown[] = [];
  const ops: OpHandler = (name, args) => {
    if (name === "send") {
      data.push(args[1]);
      return undefined;
    }
    if (name === "online") return online;
    throw new RefusedError(`no op ${name}`);
  };
  const out = await vm2(body, limits).then((vm) => vm.run(CMD, callHost(ops, mapError)));
  return { ...out, data };
}
const vm2 = (body: string, limits: Partial<VmLimits> = {}) =>
  vmOf(`export default async (u) => {\n${body}\n};`, limits);

Deno.test("vm: a send's data reaches the engine as JSON would give it", async () => {
  assert(qjs.binary, "the engine's binary format is this build's");
  // Plain data, every kind of string and number, keys that are indexes and `__proto__`.
  let out = await dataOf(`await u.send("a", { type: "t", s: "é\\u00ff€\\ud800x", n: [0, -1, 2 ** 31,
    1.5, -0, NaN, Infinity], b: [true, false, null, undefined], o: { 7: 1, x: undefined },
    p: JSON.parse('{"__proto__": {"polluted": 1}}') });`);
  assert(out.ok && !out.error, JSON.stringify(out));
  const d = out.data[0] as Record<string, unknown>;
  assertEquals(
    JSON.stringify(d),
    JSON.stringify({
      type: "t",
      s: "é\u00ff€\ud800x",
      n: [0, -1, 2 ** 31, 1.5, 0, null, null],
      b: [true, false, null, null],
      o: { 7: 1 },
      p: JSON.parse('{"__proto__": {"polluted": 1}}'),
    }),
  );
  const p = d.p as Record<string, unknown>;
  assertEquals(Object.getPrototypeOf(p), Object.prototype);
  assert(Object.hasOwn(p, "__proto__") && !("polluted" in {}));
  // What the binary format does not hold goes as JSON, with JSON's meaning: a shared object
  // twice, a Date as its text, toJSON, a Map as {}, functions and symbols left out.
  out = await dataOf(`const o = { a: 1 };
await u.send("a", { type: "t", l: [o, o], d: new Date(0), j: { toJSON() { return "J"; } },
  m: new Map([[1, 2]]), f() {}, [Symbol()]: 1, c: new (class { constructor() { this.x = 1; } })() });`);
  assert(out.ok && !out.error, JSON.stringify(out));
  assertEquals(out.data[0], {
    type: "t",
    l: [{ a: 1 }, { a: 1 }],
    d: "1970-01-01T00:00:00.000Z",
    j: "J",
    m: {},
    c: { x: 1 },
  });
  // Data near the limit is taken whichever way it goes (the JSON way's size bound counted an
  // array's indexes, which JSON does not write, and refused 3,000 digits).
  out = await dataOf(`const n = Array.from({ length: 3000 }, (_, i) => i % 10);
await u.send("a", { type: "t", n, no: undefined, f() {} });
await u.send("b", { type: "t", n, d: new Date(0) });`);
  assert(out.ok && !out.error, JSON.stringify(out));
  assertEquals(out.data.map((d) => JSON.stringify(d).length), [6018, 6049]);
  // A cycle and a BigInt are refused as JSON refuses them; deep nesting past the reader's bound
  // is still taken (as JSON).
  out = await dataOf(`const o = { type: "t" }; o.o = o; await u.send("a", o);`);
  assertMatch(out.ok ? out.error?.message ?? "" : "", /data must be JSON of at most 16384 bytes/);
  out = await dataOf(`await u.send("a", { type: "t", n: 1n });`);
  assertMatch(out.ok ? out.error?.message ?? "" : "", /TypeError/);
  out = await dataOf(`let v = 1; for (let i = 0; i < 150; i++) v = [v];
await u.send("a", { type: "t", v });`);
  assert(out.ok && !out.error, JSON.stringify(out));
  assertEquals(
    JSON.stringify(out.data[0]).length,
    JSON.stringify({ type: "t", v: 1 }).length + 300,
  );
});

Deno.test("vm: flat data (a few strings) crosses as its strings, as JSON would give it", async () => {
  // Each case sent twice: as it is, and through JSON made in the sandbox (the reference).
  const cases = [
    `{ type: "think", text: "hello there" }`,
    `{ type: "t", s: "é\\u00ff€ ${"x".repeat(300)}" }`,
    `JSON.parse('{"__proto__": "p", "type": "t"}')`,
    `{ 7: "index", type: "t", 1: "one" }`,
    // What crosses another way, and must read the same.
    `{ type: "t", nul: "a\\u0000b" }`,
    `{ type: "t", lone: "\\ud800x" }`,
    `{ type: "t", a: "1", b: "2", c: "3", d: "4" }`,
    `{ type: "t", n: 1 }`,
    `{ type: "t", long: "\\u2028".repeat(3000) }`,
    `Object.defineProperty({ type: "t" }, "toJSON", { value: () => ({ type: "j" }) })`,
    `Object.assign(Object.create({ inherited: "x" }), { type: "t" })`,
    `Object.assign(Object.create(null), { type: "t" })`,
    `{ type: "t", get g() { return "got"; } }`,
    // A toJSON QuickJS's writer would not see (not enumerable, or a class's): JSON's to call.
    `{ type: "t", o: Object.defineProperty({ a: 1 }, "toJSON", { value: () => "J" }) }`,
    `{ type: "t", c: [new (class { toJSON() { return "C"; } })()] }`,
  ];
  const out = await dataOf(
    cases.map((c) =>
      `await u.send("a", ${c}); await u.send("b", JSON.parse(JSON.stringify(${c})));`
    )
      .join("\n"),
  );
  assert(out.ok && !out.error, JSON.stringify(out));
  assertEquals(out.data.length, cases.length * 2);
  for (let i = 0; i < cases.length; i++) {
    const [mine, json] = [out.data[2 * i], out.data[2 * i + 1]];
    assertEquals(JSON.stringify(mine), JSON.stringify(json), cases[i]);
    assertEquals(Object.getPrototypeOf(mine), Object.prototype);
  }
  assert(Object.hasOwn(out.data[4] as object, "__proto__") && !("p" in {}));
  // Too long as JSON: refused with the same error either way.
  const long = await dataOf(`await u.send("a", { type: "t", s: "x".repeat(20000) });`);
  assertMatch(long.ok ? long.error?.message ?? "" : "", /data must be JSON of at most 16384 bytes/);
});

Deno.test("vm: a command that returns an operation's settled answer ends with it", async () => {
  // u.send answers one settled promise (frozen: one call cannot leave anything on it).
  const vm = await vmOf(`let last;
export default (u) => {
  const p = u.send(u.cmd.args, { type: "t", text: u.cmd.args });
  if (last && last !== p) throw new Error("another promise");
  if (!Object.isFrozen(p)) throw new Error("not frozen");
  last = p;
  return p;
};`);
  for (let i = 0; i < 3; i++) {
    const out = await call(vm);
    assert(out.ok && !out.error && !out.garbage, JSON.stringify(out));
    assertEquals(out.sent, ["hi"]);
  }
  // Awaited, and followed by more work, as before.
  const out = await call(
    await vmOf(`export default async (u) => { await u.send("a"); await u.send("b"); };`),
  );
  assert(out.ok && !out.error, JSON.stringify(out));
  assertEquals(out.sent, ["a", "b"]);
});

Deno.test("vm: sends of data leave nothing behind in the sandbox's memory", async () => {
  // About 12 KB in QuickJS's binary format each call: 1,500 calls are 18 MB, more than the 16 MiB
  // an instance starts with, so bytes left behind by a send would grow its memory.
  const vm = await vmOf(
    `const l = Array.from({ length: 300 }, (_, i) => String(i).padStart(40, "x"));
export default (u) => u.send("a", { type: "t", l });`,
  );
  const sent = (name: string, args: unknown[]) => {
    if (name !== "send" || (args[1] as { l: string[] }).l.length !== 300) throw new Error(name);
  };
  for (let i = 0; i < 5; i++) assert((await vm.run(CMD, callHost(sent, mapError))).ok);
  const before = vm.memoryBytes;
  for (let i = 0; i < 1_500; i++) {
    const out = await vm.run(CMD, callHost(sent, mapError));
    assert(out.ok && !out.error, JSON.stringify(out));
  }
  assertEquals(vm.memoryBytes, before);
});

Deno.test("vm: a send's data cannot run code in the engine or call it while it is read", async () => {
  // A getter on an object's property is refused by QuickJS's writer without running; JSON made
  // in the sandbox then runs it there (its size bound, then JSON.stringify), never the engine.
  let out = await dataOf(`let runs = 0;
await u.send("a", { type: "t", get g() { runs++; return runs; } });
await u.send("b", { type: "t", runs });`);
  assert(out.ok && !out.error, JSON.stringify(out));
  const [first, second] = out.data as { g: number; runs: number }[];
  assertEquals(first.g, second.runs);
  // So is a getter on an array element: it runs in the sandbox only, where JSON is made.
  out = await dataOf(`const a = [1];
let runs = 0;
Object.defineProperty(a, 0, { get() { runs++; return 2; } });
await u.send("a", { type: "t", a });
await u.send("b", { type: "t", runs });`);
  assert(out.ok && !out.error, JSON.stringify(out));
  assertEquals(out.data[0], { type: "t", a: [2] });
  // An array whose length is huge but costs no memory (QuickJS's writer would loop over its
  // holes for seconds, and so would JSON.stringify) is refused at once by its length. These are
  // about size, not time: building the 20,000 entries alone takes about 50 ms of the 100, and
  // the sandbox's clock (the lesser of wall and process CPU time) counts a parallel test file's
  // thread too, so they get a time limit no loaded machine reaches.
  for (
    const make of [
      "const a = []; a.length = 1e9;",
      "const a = [1]; a[2 ** 31] = 1;",
      // Big strings and objects: refused before QuickJS writes anything; a long key is written
      // (it is in the sandbox's memory already), then refused by the result's length.
      'const a = ["x".repeat(1e5)];',
      'const a = { ["k".repeat(1e5)]: 1 };',
      "const a = Object.fromEntries(Array.from({ length: 20000 }, (_, i) => [i, i]));",
    ]
  ) {
    out = await dataOf(`${make} await u.send("a", { type: "t", nested: [{ a }] });`, [], {
      timeoutMs: 2_000,
      wallMs: 10_000,
    });
    assert(out.ok, JSON.stringify(out));
    assertMatch(out.error?.message ?? "", /data must be JSON of at most 16384 bytes/);
  }
  // One that never returns is stopped at the time limit like any loop; one that throws fails the
  // send with its error.
  out = await dataOf(`const a = []; Object.defineProperty(a, 0, { get() { for (;;) {} } });
await u.send("a", { type: "t", a });`);
  assert(!out.ok && out.reason === "time", JSON.stringify(out));
  out = await dataOf(
    `const a = []; Object.defineProperty(a, 0, { get() { throw new Error("elt"); } });
await u.send("a", { type: "t", a });`,
  );
  assertMatch(out.ok ? out.error?.message ?? "" : "", /Error: elt/);
  // A proxy is refused by the writer without running a trap; JSON then runs its traps in the
  // sandbox (the earlier test: a looping trap is stopped for time).
  out = await dataOf(`let traps = 0;
await u.send("a", new Proxy({ type: "t" }, { ownKeys(t) { traps++; return Reflect.ownKeys(t); } }));
await u.send("b", { type: "t", traps });`);
  assert(out.ok && !out.error, JSON.stringify(out));
  const [sent, counted] = out.data as Record<string, unknown>[];
  assertEquals(sent, { type: "t" });
  assert(Number(counted.traps) >= 1);
});

Deno.test("vm: the engine's answers arrive as JSON.parse would make them", async () => {
  const online = [
    { id: "1", name: "é\u00ff€\ud800", flags: ["a"], n: 2 ** 31, f: -0.5, s: { 12: "x" } },
    JSON.parse('{"__proto__": {"polluted": 1}, "id": "2"}'),
  ];
  const out = await dataOf(
    `const l = await u.online();
await u.send("a", { type: "t", l, own: Object.hasOwn(l[1], "__proto__"), polluted: ({}).polluted ?? null,
  proto: Object.getPrototypeOf(l[1]) === Object.prototype, keys: Object.keys(l[0].s) });`,
    online,
  );
  assert(out.ok && !out.error, JSON.stringify(out));
  assertEquals(
    JSON.stringify(out.data[0]),
    JSON.stringify({
      type: "t",
      l: online,
      own: true,
      polluted: null,
      proto: true,
      keys: ["12"],
    }),
  );
});

Deno.test("vm: text crosses whole both ways, short or long, ASCII or not", async () => {
  const vm = await vmOf(`export default (u) => u.send(u.cmd.args + "|" + u.cmd.args.length);`);
  const cases = [
    "",
    "hi",
    "x".repeat(255),
    "y".repeat(256),
    "z".repeat(257),
    "w".repeat(5000),
    "é",
    "a".repeat(255) + "é",
    "€ and \ud83d\ude00 and \ud800",
    "q".repeat(300) + "€",
    '"quoted" \\ back\nslash\ttab',
  ];
  for (const args of cases) {
    const sent: string[] = [];
    const out = await vm.run(
      { ...CMD, args },
      callHost((name, a) => {
        if (name === "send") sent.push(String(a[0]));
      }, mapError),
    );
    assert(out.ok && !out.error, JSON.stringify(out));
    // A lone surrogate is not UTF-8: its three bytes come back as U+FFFD each, as they always have.
    assertEquals(sent, [`${args.replace("\ud800", "\ufffd".repeat(3))}|${args.length}`]);
  }
});

Deno.test("vm: the command line reaches the script whole and frozen", async () => {
  const vm = await vmOf(`export default (u) => u.send(JSON.stringify(u.cmd) + " " +
  Object.isFrozen(u.cmd) + Object.isFrozen(u.cmd.switches) + " " + Object.keys(u.cmd).join(","));`);
  const lines = [
    CMD,
    { raw: "+t/a/b x = y", name: "+t", switches: ["a", "b"], args: "x = y", lhs: "x", rhs: "y" },
    { raw: "+t/é =", name: "+t", switches: ["é"], args: "=", lhs: "", rhs: "" },
    // Parts the prelude makes from the others when they match (raw, lhs), and when they do not.
    { raw: "+T hi", name: "+t", switches: [], args: "hi", lhs: "hi", rhs: null },
    { raw: "+t", name: "+t", switches: [], args: "", lhs: "", rhs: null },
    { raw: "+t  a ", name: "+t", switches: [], args: " a ", lhs: "a", rhs: null },
  ];
  for (const line of lines) {
    const sent: string[] = [];
    const out = await vm.run(
      line,
      callHost((name, a) => {
        if (name === "send") sent.push(String(a[0]));
      }, mapError),
    );
    assert(out.ok && !out.error, JSON.stringify(out));
    assertEquals(sent, [`${JSON.stringify(line)} truetrue raw,name,switches,args,lhs,rhs`]);
  }
});

Deno.test("vm: u.cmd is made when first read, and stays its own call's line", async () => {
  // The prelude makes u.cmd from the call's line only when the script reads it: read late (after
  // an await and a timer), it is still this call's; one kept from an earlier call still reads as
  // that call's line; two reads in a call are the same object.
  const vm = await vmOf(`let kept = null;
export default async (u) => {
  await u.target("me");
  const late = u.cmd;
  const early = kept;
  if (u.cmd.args === "first") kept = u.cmd;
  await new Promise((ok) => setTimeout(ok, 5));
  u.send([late.args, u.cmd === late, early ? early.args + "/" + early.raw : "-", Object.isFrozen(late)].join(" "));
  setTimeout(() => {}, 0);
};
export const help = "x";`);
  const sent: string[] = [];
  const ops: OpHandler = (name, a) => {
    if (name === "send") sent.push(String(a[0]));
    return name === "target" ? Promise.resolve({ name: "me" }) : undefined;
  };
  for (const args of ["first", "second", "third"]) {
    const out = await vm.run(
      { ...CMD, raw: `+t ${args}`, args, lhs: args },
      callHost(ops, mapError),
    );
    assert(out.ok && !out.error, JSON.stringify(out));
  }
  assertEquals(sent, [
    "first true - true",
    "second true first/+t first true",
    "third true first/+t first true",
  ]);
});
