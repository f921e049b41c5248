/**
 * Numbers passed between nested arithmetic calls (FunctionDef.num, src/softcode/eval.ts's
 * callNum): `add(mul(2,3),4)` gives what it gives when mul()'s result is printed and read again,
 * which `add([mul(2,3)],4)` forces (a bracket is evaluated to text), for every arithmetic
 * function as the outer call, inner results at every edge of what may pass as a number (-0,
 * 2^53, fractions near 1e-6, exponent forms, Inf, Ind, 17-digit fractions, errors) and random
 * nested trees.
 */
import assert from "node:assert/strict";
import { testSoftcode } from "../_test_world.ts";
import { ARITH_CALLS } from "./_arith_calls.ts";
import { builtinFunctions } from "./mod.ts";

/**
 * Thousands of evaluations run in one turn of the event loop, which shares one evaluation's
 * time: the time limits are lifted, so that load on the machine cannot cut one side short.
 */
const LIMITS = {
  functionInvocations: 1e6,
  evaluationMs: 1e9,
  actorMs: 1e9,
  gameMs: 1e9,
};

/** The arithmetic functions, and others that read numbers, with numbers of arguments. */
const OUTER: (readonly [string, number])[] = [
  ...ARITH_CALLS,
  ["strlen", 1],
  ["eq", 2],
  ["lt", 2],
  ["iadd", 2],
  ["add", 10],
];

/** Inner calls whose results lie at the edges of passing as a number. */
const INNER = [
  "mul(-1,0)",
  "sub(0,0)",
  "fdiv(1,3)",
  "fdiv(-2,3)",
  "fdiv(1,1000000)",
  "fdiv(1,1000001)",
  "fdiv(-1,10000000)",
  "fdiv(1,0)",
  "fdiv(0,0)",
  "power(2,53)",
  "sub(power(2,53),1)",
  "power(10,16)",
  "power(10,17)",
  "power(10,400)",
  "power(-8,0.5)",
  "mul(99999999999,99999999999)",
  "add(0.1,0.2)",
  "mul(1.1,1.1)",
  "fdiv(7,2)",
  "fdiv(-7,2)",
  "div(7,0)",
  "idiv(-7,2)",
  "floordiv(-7,2)",
  "mod(-7,2)",
  "remainder(-7,2)",
  "inc(9007199254740991)",
  "dec(-5)",
  "abs(-0.5)",
  "trunc(-0.5)",
  "floor(-0.5)",
  "ceil(-0.5)",
  "round(2.5,0)",
  "round(1.005,2)",
  "max(-0.25,-3)",
  "min(1e-7,2)",
  "add(999999999,1)",
  "add(1,2,3,4,5,6,7,8,9,10)",
  "add(a,1)",
  "power(2,0.5)",
  "fdiv(1e16,3)",
  "sub(1e17,0.5)",
  "power(2,63)",
  "mul(-1,power(2,63))",
  "mul(3,power(2,60))",
  "mul(7,power(2,58))",
  "power(2,64)",
  "mul(123456789,1000)",
];

/** Plain arguments beside the inner call. */
const PLAIN = ["0", "-1", "3", "0.5", "1e3", "", "x"];

Deno.test("an arithmetic call's number gives what its printed text gives, at every edge", () => {
  const { run } = testSoftcode(LIMITS);
  let n = 0;
  for (const [outer, arity] of OUTER) {
    for (const inner of INNER) {
      for (let at = 0; at < arity; at++) {
        for (const plain of PLAIN) {
          const args = Array.from({ length: arity }, (_, k) => k === at ? inner : plain);
          const quick = `${outer}(${args.join(",")})`;
          const text = `${outer}(${args.map((a, k) => k === at ? `[${a}]` : a).join(",")})`;
          assert.equal(run(`[${quick}]`), run(`[${text}]`), quick);
          n++;
        }
      }
    }
  }
  assert.ok(n > 10_000);
});

Deno.test("random nested arithmetic gives what it gives with every result printed", () => {
  const { run } = testSoftcode(LIMITS);
  let seed = 5;
  const rnd = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const fns = OUTER.filter(([f]) => !["strlen", "eq", "lt", "iadd"].includes(f));
  const leaves = [
    "0",
    "-0",
    "1",
    "-3",
    "7",
    "0.5",
    "-2.5",
    "1e-7",
    "123456789",
    "9007199254740993",
  ];
  /** A tree as its quick text and as its text with every inner call in brackets. */
  const tree = (depth: number): [string, string] => {
    if (depth === 0 || rnd() < 0.25) {
      const leaf = leaves[Math.floor(rnd() * leaves.length)];
      return [leaf, leaf];
    }
    const [f, arity] = fns[Math.floor(rnd() * fns.length)];
    const kids = Array.from({ length: Math.min(arity, 3) }, () => tree(depth - 1));
    return [
      `${f}(${kids.map((k) => k[0]).join(",")})`,
      `${f}(${
        kids.map((k) => k[1] === k[0] && !k[0].includes("(") ? k[1] : `[${k[1]}]`).join(",")
      })`,
    ];
  };
  for (let t = 0; t < 3000; t++) {
    const [quick, text] = tree(4);
    assert.equal(run(`[${quick}]`), run(`[${text}]`), quick);
  }
});

Deno.test("an arithmetic call's kept arguments: each function's code leaves its evaluation unused", () => {
  // callNum hands up to three arguments over in the array the parsed call keeps: no call of
  // the same node may start while the function reads them, so its code evaluates nothing.
  const table = builtinFunctions();
  let nums = 0;
  for (const name of table.names()) {
    const fn = table.get(name)!;
    if (fn.num === undefined) continue;
    nums++;
    // On the small-integer path `num` is the shared routine, which hands the evaluation only to
    // the function's own code (`full`): that code is the one to read.
    const src = (fn.full ?? fn.num).toString();
    // `(_ev, _f, args) => ...`: the first parameter's name, and that it appears nowhere else.
    const first = /^\(\s*([A-Za-z_$][\w$]*)/.exec(src)?.[1] ?? "";
    assert.ok(first.startsWith("_"), `${name}: ${src.slice(0, 40)}`);
    assert.equal(src.split(new RegExp(`\\b${first.replace("$", "\\$")}\\b`)).length, 2, name);
  }
  assert.ok(nums >= ARITH_CALLS.length - 2, `${nums} arithmetic functions`);
});

Deno.test("an arithmetic call of the same node inside an argument, through u(), leaves the outer call's arguments whole", () => {
  const t = testSoftcode(LIMITS);
  // Each runs its own parsed call again at every level once the attribute is kept parsed; an
  // argument after the recursive one, or before it, must be the outer level's.
  t.world.set(t.wiz, "S2", "ifelse(%0,sub(%0,u(me/S2,dec(%0))),0)");
  t.world.set(t.wiz, "S2B", "ifelse(%0,sub(u(me/S2B,dec(%0)),%0),0)");
  t.world.set(t.wiz, "M3", "ifelse(%0,mul(%0,u(me/M3,dec(%0)),1),1)");
  t.world.set(t.wiz, "A3", "ifelse(%0,add(u(me/A3,dec(%0)),%0,%0),0)");
  t.world.set(t.wiz, "I1", "ifelse(%0,inc(u(me/I1,dec(%0))),0)");
  t.world.set(t.wiz, "A5", "ifelse(%0,add(%0,1,u(me/A5,dec(%0)),%0,1),0)");
  for (let i = 0; i < 3; i++) {
    // S2(k) = k - S2(k-1): 1 1 2 2 3; S2B(k) = S2B(k-1) - k.
    assert.equal(
      t.run("[u(me/S2,1)] [u(me/S2,2)] [u(me/S2,3)] [u(me/S2,4)] [u(me/S2,5)]"),
      "1 1 2 2 3",
    );
    assert.equal(t.run("u(me/S2B,4)"), "-10");
    assert.equal(t.run("u(me/M3,5)"), "120");
    assert.equal(t.run("u(me/A3,4)"), "20");
    assert.equal(t.run("u(me/I1,6)"), "6");
    assert.equal(t.run("u(me/A5,3)"), "18");
  }
});
