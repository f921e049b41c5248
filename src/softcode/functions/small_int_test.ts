/**
 * The shared small-integer path (small_int.ts): it takes exactly the arguments its rule names,
 * and on them every function on it answers as the function's own code does. What MUX answers at
 * the path's edges is in testdata/mux_cases_s49arith.txt (differential_test.ts).
 */
import assert from "node:assert/strict";
import { builtinFunctions } from "./mod.ts";
import { SMALL_MOST, smallInt } from "./small_int.ts";
import { formatNumber } from "../numbers.ts";
import type { Evaluation } from "../eval.ts";
import type { Frame, FunctionDef, NumArg } from "../types.ts";

/** The rule as written: `-`, then one to nine digits, nothing else; or a whole number in range. */
function byRule(a: NumArg): number {
  if (typeof a === "number") {
    return Number.isInteger(a) && Math.abs(a) <= SMALL_MOST ? a + 0 : NaN;
  }
  return /^-?[0-9]{1,9}$/.test(a) ? Number(a) + 0 : NaN;
}

/** A fixed sequence (no Math.random). */
function lcg(seed: number): () => number {
  return () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
}

Deno.test("smallInt takes a plain small integer and nothing else", () => {
  const texts = [
    "",
    "-",
    "+",
    "0",
    "-0",
    "+0",
    "7",
    "-7",
    "+7",
    " 7",
    "7 ",
    "\t7",
    "007",
    "-007",
    "999999999",
    "-999999999",
    "1000000000",
    "-1000000000",
    "0999999999",
    "9007199254740992",
    "9007199254740993",
    "1e3",
    "1E3",
    "0x10",
    "0b1",
    "1.0",
    "1.",
    ".5",
    "--1",
    "-+1",
    "1-",
    "1a",
    "a1",
    "١٢",
    "1\u0000",
    "Inf",
    "NaN",
  ];
  // And every text of up to four characters from a small alphabet, and longer random ones.
  const alphabet = ["", "-", "+", " ", "0", "1", "9", ".", "e", "x", "a", "\t", "/", ":"];
  for (const a of alphabet) {
    for (const b of alphabet) {
      for (const c of alphabet) for (const d of alphabet) texts.push(a + b + c + d);
    }
  }
  const next = lcg(4711);
  for (let i = 0; i < 20_000; i++) {
    let s = "";
    const n = Math.floor(next() * 13);
    for (let j = 0; j < n; j++) s += alphabet[Math.floor(next() * alphabet.length)];
    texts.push(s);
  }
  for (const s of texts) {
    const got = smallInt(s), want = byRule(s);
    assert.ok(Object.is(got + 0, want) || (got !== got && want !== want), JSON.stringify(s));
  }
  const numbers = [
    0,
    -0,
    1,
    -1,
    0.5,
    -0.5,
    1e-300,
    SMALL_MOST,
    -SMALL_MOST,
    SMALL_MOST + 1,
    -SMALL_MOST - 1,
    2 ** 31,
    -(2 ** 31),
    2 ** 32 + 5,
    2 ** 53,
    2 ** 53 + 2,
    1e21,
    NaN,
    Infinity,
    -Infinity,
  ];
  for (const x of numbers) {
    const got = smallInt(x), want = byRule(x);
    assert.ok(Object.is(got + 0, want) || (got !== got && want !== want), String(x));
  }
});

/** The functions on the path and their counts of arguments to try. */
const ON_PATH: Record<string, readonly number[]> = {
  ADD: [1, 2, 3, 9, 10, 40],
  SUB: [2],
  MUL: [1, 2, 3, 10, 40],
  IDIV: [2],
  FLOORDIV: [2],
  MOD: [2],
  REMAINDER: [2],
  INC: [0, 1],
  DEC: [0, 1],
  ABS: [1],
  MAX: [1, 2, 3, 12],
  MIN: [1, 2, 3, 12],
  EQ: [2],
  NEQ: [2],
  GT: [2],
  GTE: [2],
  LT: [2],
  LTE: [2],
};

Deno.test("the small-integer path: which functions are on it", () => {
  const table = builtinFunctions();
  const on = table.names().filter((n) => (table.get(n)!.small ?? 0) > 0);
  // DIV is IDIV's alias, MODULO and MODULUS MOD's (MUX's alias.conf).
  assert.deepEqual(on, [...Object.keys(ON_PATH), "DIV", "MODULO", "MODULUS"].sort());
  for (const name of on) assert.ok(table.get(name)!.full, name);
});

/** One argument: mostly small integers (texts and numbers), sometimes another form. */
function argument(next: () => number): NumArg {
  const r = next();
  const int = () => {
    const size = [1, 9, 99, 999, 1e4, 1e6, SMALL_MOST, SMALL_MOST + 1, 2 ** 31, 2 ** 53][
      Math.floor(next() * 10)
    ];
    return Math.floor(next() * (2 * size + 1)) - size;
  };
  if (r < 0.45) return String(int());
  if (r < 0.7) return int();
  const forms = [
    "-0",
    "0",
    "+3",
    " 3",
    "3 ",
    "",
    "-",
    "1e3",
    "0x10",
    "2.5",
    "-7.25",
    "abc",
    "9007199254740993",
    "-9223372036854775808",
    "1000000000",
    "0999999999",
    "007",
  ];
  if (r < 0.9) return forms[Math.floor(next() * forms.length)];
  return (int() + 0.5) / 4;
}

/** A result as the evaluator uses it: its text, and the number it passes on (eval.ts, passable). */
function seen(r: number | string): string {
  return typeof r === "string" ? r : `${formatNumber(r)} ${r + 0}`;
}

Deno.test("the small-integer path answers as each function's own code", () => {
  const table = builtinFunctions();
  const next = lcg(2026);
  const ev = undefined as unknown as Evaluation, frame = undefined as unknown as Frame;
  let taken = 0, tried = 0;
  for (const [name, counts] of Object.entries(ON_PATH)) {
    const fn = table.get(name)! as FunctionDef<Evaluation>;
    for (const count of counts) {
      for (let i = 0; i < 3_000; i++) {
        const args: NumArg[] = [];
        // Half the time all small integers, so the path is taken often.
        const plain = next() < 0.5;
        for (let j = 0; j < count; j++) {
          args.push(plain ? String(Math.floor(next() * 2001) - 1000) : argument(next));
        }
        if (plain && next() < 0.3 && count > 0) args[0] = next() < 0.5 ? SMALL_MOST : -SMALL_MOST;
        const want = seen(fn.full!(ev, frame, args.slice(), fn));
        const got = seen(fn.num!(ev, frame, args.slice(), fn));
        assert.equal(got, want, `${name}(${args.map(String).join(",")})`);
        tried++;
        if (args.every((a) => smallInt(a) === smallInt(a))) taken++;
      }
    }
  }
  // The path was taken in a good share of the cases, and left in the others.
  assert.ok(taken > tried / 3 && taken < tried, `${taken} of ${tried}`);
});
