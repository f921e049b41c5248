/**
 * Arithmetic results kept on a parsed call (src/softcode/eval.ts, callNum and `#takeFold`): an
 * arithmetic call whose arguments are all literal, or such calls, keeps its result at its first
 * run, and a program kept parsed gives it from then on. What it gives must be what running it
 * gives: the same text as the printed-text path (`add([mul(2,3)],4)`), a result that changes
 * with anything that is not constant, and the limits' errors where running would give them.
 */
import assert from "node:assert/strict";
import { testSoftcode } from "../_test_world.ts";
import { type CallNode, K_CALL } from "../compile.ts";
import { TOP_FLAGS } from "../eval.ts";
import { ARITH_CALLS } from "./_arith_calls.ts";

/** Thousands of evaluations in one turn of the event loop: the time limits are lifted. */
const LIMITS = { functionInvocations: 1e6, evaluationMs: 1e9, actorMs: 1e9, gameMs: 1e9 };

const FNS = ARITH_CALLS;

const LEAVES = ["0", "-0", "1", "-3", "7", "0.5", "-2.5", "1e-7", "123456789", "9007199254740993"];

/** A random stream (the same every run). */
function stream(seed: number): () => number {
  return () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/**
 * A random tree as its text and as its text with every inner call in brackets (evaluated to
 * text, so nothing passes as a number or is kept); `vars` leaves (`%0`...) among the constants.
 */
function tree(rnd: () => number, depth: number, vars: string[]): [string, string] {
  if (depth === 0 || rnd() < 0.25) {
    const pool = vars.length && rnd() < 0.3 ? vars : LEAVES;
    const leaf = pool[Math.floor(rnd() * pool.length)];
    return [leaf, leaf];
  }
  const [f, arity] = FNS[Math.floor(rnd() * FNS.length)];
  const kids = Array.from({ length: Math.min(arity, 3) }, () => tree(rnd, depth - 1, vars));
  return [
    `${f}(${kids.map((k) => k[0]).join(",")})`,
    `${f}(${kids.map((k) => k[0].includes("(") ? `[${k[1]}]` : k[1]).join(",")})`,
  ];
}

Deno.test("a kept arithmetic result is what running the call gives", () => {
  const { sc, wiz } = testSoftcode(LIMITS);
  const rnd = stream(7);
  const req = { executor: wiz };
  for (let t = 0; t < 2000; t++) {
    const [quick, text] = tree(rnd, 4, []);
    const want = sc.evaluate(`[${text}]`, req);
    // Parsed and dropped, parsed and kept (its first run keeps the results), then kept.
    for (let k = 0; k < 4; k++) assert.equal(sc.evaluate(`[${quick}]`, req), want, quick);
    // A typed line's part is kept parsed from its second time on (region_cache.ts).
    for (let k = 0; k < 3; k++) {
      const typed = sc.evaluate(`line${k} [${quick}]`, { ...req, typed: true });
      assert.equal(typed, `line${k} ${want}`, quick);
    }
  }
});

Deno.test("a call with an argument that is not constant keeps nothing: it follows %0", () => {
  const { sc, wiz } = testSoftcode(LIMITS);
  const rnd = stream(11);
  const values = ["0", "5", "-2.5", "1e-7", "x", "9007199254740993", ""];
  for (let t = 0; t < 600; t++) {
    const [quick, text] = tree(rnd, 4, ["%0", "%1"]);
    for (let k = 0; k < 6; k++) {
      const args = [values[Math.floor(rnd() * values.length)], values[k % values.length]];
      const req = { executor: wiz, args };
      // The printed path in a text seen once (parsed anew, nothing kept from an earlier run).
      const want = sc.evaluate(`${t}.${k}:[${text}]`, req);
      assert.equal(`${t}.${k}:` + sc.evaluate(`[${quick}]`, req), want, quick);
    }
  }
});

Deno.test("a kept result is taken from the program kept parsed", () => {
  const { sc, wiz } = testSoftcode(LIMITS);
  const text = "[add(mul(3,sub(100,div(999,7))),fdiv(power(2,10),3),round(fdiv(22,7),4))]";
  for (let k = 0; k < 3; k++) {
    assert.equal(sc.evaluate(text, { executor: wiz }), "218.4762333333333");
  }
  // A text that is one `[...]` is kept as the part inside (compile.ts's unwrapped).
  const call = sc.compile(text, TOP_FLAGS).nodes[0] as CallNode;
  assert.equal(call.k, K_CALL);
  // add, mul, sub, div, fdiv, power, round, fdiv; printed where it is used, it is kept as its text.
  assert.deepEqual([call.fold, call.folds], ["218.4762333333333", 8]);
  const inner = (call.args[0] as { nodes: CallNode[] }).nodes[0];
  // An argument passed on to add() keeps its number.
  assert.deepEqual([inner.fold, inner.folds], [3 * (100 - 142), 3]);
});

Deno.test("kept results count their calls against the invocation limit, as running them does", () => {
  /** An engine whose F is `body`, under an invocation limit that can be changed. */
  const engine = (body: string) => {
    const limit = { ...LIMITS };
    // Read at each evaluation (a new section each time, as a reloaded configuration's).
    const t = testSoftcode(() => ({ ...limit }));
    const obj = t.world.add("Calc", "thing", { owner: t.wiz });
    t.world.set(obj, "F", body);
    return { ...t, obj, limit };
  };
  let cut = 0;
  for (let l = 1; l <= 18; l++) {
    // F three times in one line: its one parsed program, each time four calls and u()'s own.
    const line = (obj: string) => `[u(#${obj}/F)].[u(#${obj}/F)].[u(#${obj}/F)]`;
    // The printed path: every inner result is text, so nothing is kept that counts more.
    const printed = engine("[add(1,[mul(2,[sub(9,[inc(3)])])])]");
    printed.limit.functionInvocations = l;
    const want = printed.sc.evaluate(line(printed.obj), { executor: printed.wiz });
    // Kept first without a limit, then run under it.
    const kept = engine("[add(1,mul(2,sub(9,inc(3))))]");
    for (let k = 0; k < 3; k++) kept.sc.evaluate(line(kept.obj), { executor: kept.wiz });
    kept.limit.functionInvocations = l;
    assert.equal(kept.sc.evaluate(line(kept.obj), { executor: kept.wiz }), want, `${l}`);
    if (want.includes("INVOCATION LIMIT")) cut++;
  }
  assert.ok(cut >= 12 && cut < 18, "the limit was reached, and not everywhere");
});

Deno.test("kept results meet the recursion limit where running them would", () => {
  const body = "[add(1,mul(2,sub(9,inc(3))))]";
  /** An engine whose U0 reaches `body` through five more u() calls. */
  const chain = (depth: number) => {
    const t = testSoftcode({ ...LIMITS, recursionDepth: depth });
    const obj = t.world.add("Chain", "thing", { owner: t.wiz });
    for (let i = 0; i < 5; i++) t.world.set(obj, `U${i}`, `[u(#${obj}/U${i + 1})]`);
    t.world.set(obj, "U5", body);
    return { ...t, obj };
  };
  let cut = 0;
  for (let depth = 1; depth <= 9; depth++) {
    // Reached once, in an engine that never ran it: nothing kept.
    const fresh = chain(depth);
    const want = fresh.sc.evaluate(`[u(#${fresh.obj}/U0)]`, { executor: fresh.wiz });
    // Run near the top first (its results kept), then at the chain's depth.
    const { sc, wiz, obj } = chain(depth);
    for (let k = 0; k < 3; k++) sc.evaluate(`[u(#${obj}/U5)]`, { executor: wiz });
    assert.equal(sc.evaluate(`[u(#${obj}/U0)]`, { executor: wiz }), want, `${depth}`);
    if (want.includes("RECURSION LIMIT")) cut++;
  }
  assert.ok(cut >= 5 && cut < 9, "the limit was reached, and not everywhere");
});
