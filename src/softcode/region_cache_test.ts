/**
 * The `[...]` parts of typed lines kept parsed (src/softcode/region_cache.ts): a line parsed
 * with parts from the cache is the program compile.ts gives the whole line, on generated texts
 * around repeated parts; a part whose parse looks past its `]` is not kept; a change of the
 * function table forgets the parts.
 */
import assert from "node:assert/strict";
import { type CompileOptions, compileRegion, type EvalNode, K_EVAL } from "./compile.ts";
import { parseText } from "./parse.ts";
import { RegionCache } from "./region_cache.ts";
import { builtinFunctions } from "./functions/mod.ts";
import { define } from "./functions/define.ts";
import { EV, EVAL_ARG } from "./types.ts";
import { TOP_FLAGS } from "./eval.ts";
import { testSoftcode } from "./_test_world.ts";

const opts: CompileOptions = { functions: builtinFunctions(), maxDepth: 100, namedRegisters: true };

/** Parses a line with the cache and checks it against compile.ts's parse of the whole line. */
function check(line: string, flags: number, cache: RegionCache): void {
  assert.deepStrictEqual(
    parseText(line, flags, opts, cache),
    compileRegion(line, 0, line.length, flags, opts, 0),
    `flags ${flags}: ${JSON.stringify(line)}`,
  );
}

/** A small deterministic random stream. */
function stream(seed: number): () => number {
  return () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

const PIECES = [
  "a",
  " ",
  "  ",
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  ",",
  "%",
  "\\",
  "%0",
  "%q0",
  "%q<ab>",
  "%q<",
  "%x<",
  "%=<a>",
  ">",
  "<",
  "%qa",
  "%q",
  "%i0",
  "%xr",
  "%#",
  "add(",
  "add(1,2)",
  "mul(2,3)",
  "u(",
  "iter(",
  "switch(",
  "%0(",
  "[add(1,2)]",
  "[%0(1)]",
  "s(",
  "nosuch(",
  "1",
  "x y",
];

Deno.test("a line with kept parts is the whole line's program, on generated texts", () => {
  const rnd = stream(11);
  const pick = (n: number) => {
    let s = "";
    for (let k = 0; k < n; k++) s += PIECES[Math.floor(rnd() * PIECES.length)];
    return s;
  };
  for (const flags of [TOP_FLAGS, EVAL_ARG, EV.EVAL | EV.FCHECK | EV.NO_COMPRESS]) {
    const cache = new RegionCache(50);
    for (let t = 0; t < 3000; t++) {
      const part = pick(1 + Math.floor(rnd() * 6));
      // The same part between other texts, three times (kept from the second).
      for (let k = 0; k < 3; k++) {
        const around = k === 1 ? pick(Math.floor(rnd() * 4)) : `m${t}x${k} `;
        check(`${around}[${part}]${k === 2 ? pick(2) : ""}`, flags, cache);
      }
    }
    assert.ok(cache.size > 0);
  }
});

Deno.test("a repeated part is parsed once and shared; a part that looks past its ] is not kept", () => {
  const cache = new RegionCache(50);
  const partOf = (line: string) =>
    (parseText(line, TOP_FLAGS, opts, cache).nodes.find((n) => n.k === K_EVAL) as EvalNode).p;
  const first = partOf("a1 [add(1,mul(2,3))]");
  const second = partOf("a2 [add(1,mul(2,3))]");
  assert.notEqual(first, second);
  assert.equal(partOf("a3 [add(1,mul(2,3))]"), second);
  assert.equal(cache.size, 1);
  // `%q<` with no `>` in the part reads on into the line: never kept.
  for (const line of ["x [%q<a]", "x [%q<a]", "y [%q<a] >", "z [%q<a]"]) {
    check(line, TOP_FLAGS, cache);
  }
  // A name found at run time (`%0(`) is parsed from the whole line when it runs: never kept.
  for (const k of [1, 2, 3]) check(`w${k} [%0(1,2)]`, TOP_FLAGS, cache);
  assert.equal(cache.size, 1);
});

Deno.test("typed lines evaluate alike with their parts kept, and a new function is seen", () => {
  const { sc, wiz, functions } = testSoftcode();
  const line = (k: number) => `t${k} [add(mul(3,4),fdiv(1,4))] [nosuch(1)] [strlen(%0)]`;
  for (let k = 0; k < 4; k++) {
    const req = { executor: wiz, args: ["abc"] };
    assert.equal(
      sc.evaluate(line(k), { ...req, typed: true }),
      sc.evaluate(line(k), req),
    );
  }
  // Kept from its second line on.
  for (const k of [8, 9]) {
    assert.equal(
      sc.evaluate(`t${k} [nosuch(1)]`, { executor: wiz, typed: true }),
      `t${k} #-1 FUNCTION (NOSUCH) NOT FOUND`,
    );
  }
  functions.add(define("nosuch", 1, 1, {
    family: "control",
    args: "nosuch(<x>)",
    summary: "A test.",
    example: { think: "nosuch(1)", gives: "yes1" },
  }, (_ev, _f, args) => "yes" + args[0]));
  assert.equal(sc.evaluate("t10 [nosuch(1)]", { executor: wiz, typed: true }), "t10 yes1");
});

Deno.test("a line of text and then the part kept last is run as the parse of the whole line", () => {
  // Thousands of evaluations: no time budget in the way.
  const { sc, wiz } = testSoftcode({ actorMs: 1e9, gameMs: 1e9, evaluationMs: 1e9 });
  const rnd = stream(29);
  const pick = (n: number) => {
    let s = "";
    for (let k = 0; k < n; k++) s += PIECES[Math.floor(rnd() * PIECES.length)];
    return s;
  };
  // Heads the quick path must take (plain text), and ones it must not (the parse reads them).
  const HEADS = [
    "m1 ",
    "abc",
    "é x ",
    "a\tb ",
    "",
    " a",
    "a  b",
    "%b",
    "a(",
    "a)",
    "x,y ",
    "}",
    "]",
  ];
  const PARTS = [
    "add(1,2)",
    "strlen(%0)",
    "null([setq(0,3)][add(%q0,4)])",
    "ansi(r,x)",
    "nosuch(1)",
    "%1(1)",
    "mul(1.5,%0)",
    "abc",
    "%q0",
    "iter(1 2,##)",
  ];
  let taken = 0, parsed = 0;
  for (const flags of [TOP_FLAGS, EV.EVAL | EV.FCHECK | EV.NO_COMPRESS, TOP_FLAGS | EV.NOFCHECK]) {
    for (let t = 0; t < 1500; t++) {
      const part = rnd() < 0.5
        ? PARTS[Math.floor(rnd() * PARTS.length)]
        : pick(1 + Math.floor(rnd() * 5));
      for (let k = 0; k < 4; k++) {
        const head = k < 2 ? `m${t}x${k} ` : HEADS[Math.floor(rnd() * HEADS.length)] + pick(k - 2);
        const line = `${head}[${part}]${k === 3 && rnd() < 0.5 ? pick(1) : ""}`;
        const req = { executor: wiz, args: ["abc", "add"], flags };
        if (sc.keptLine(line, flags) === null) parsed++;
        else taken++;
        assert.equal(
          sc.evaluate(line, { ...req, typed: true }),
          sc.evaluate(line, req),
          `flags ${flags}: ${JSON.stringify(line)}`,
        );
      }
    }
  }
  // Both ways were taken often (a part is kept from its second line on).
  assert.ok(taken > 1500 && parsed > 3000, `taken ${taken}, parsed ${parsed}`);
});

Deno.test("the quick path takes only plain text before the part kept last, and nothing after", () => {
  const { sc, wiz } = testSoftcode();
  const req = { executor: wiz, typed: true };
  sc.evaluate("a [add(1,2)]", req);
  sc.evaluate("b [add(1,2)]", req);
  for (const line of ["c [add(1,2)]", "[add(1,2)]", "é\tx [add(1,2)]"]) {
    assert.notEqual(sc.keptLine(line, TOP_FLAGS), null, line);
  }
  for (
    const line of [
      " c [add(1,2)]",
      "c  d [add(1,2)]",
      "%b [add(1,2)]",
      "\\x [add(1,2)]",
      "c( [add(1,2)]",
      "c [add(1,2)] ",
      "c [add(1,2)]x",
      "c [add(1,2)][add(1,2)]",
      "c [add(1,3)]",
      "c [add(1,2)",
      "c {[add(1,2)]}",
    ]
  ) assert.equal(sc.keptLine(line, TOP_FLAGS), null, line);
  assert.equal(sc.keptLine("c [add(1,2)]", TOP_FLAGS | EV.NOFCHECK), null);
  assert.equal(sc.evaluate("c [add(1,2)]", req), "c 3");
});
