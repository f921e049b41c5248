/** Arithmetic, comparison and logic, with MUX's number rules (src/softcode/numbers.ts). */
import { define, defineNum, plainResults, readsOnly } from "./define.ts";
import type { FunctionDef, NumArg } from "../types.ts";
import {
  bool,
  bothInt31,
  formatNumber,
  formatPretty,
  formatRounded,
  i64,
  integerDigits,
  isInteger,
  isRational,
  isReal,
  nearestPretty,
  roundedNumber,
  toI64,
  toInt,
  toInt32,
  toReal,
  toSafeInt,
  truthy,
} from "../numbers.ts";
import { randomInt } from "./random.ts";
import {
  SMALL_ABS,
  SMALL_ADD,
  SMALL_DEC,
  SMALL_EQ,
  SMALL_FLOORDIV,
  SMALL_GT,
  SMALL_GTE,
  SMALL_IDIV,
  SMALL_INC,
  SMALL_LT,
  SMALL_LTE,
  SMALL_MAX,
  SMALL_MIN,
  SMALL_MOD,
  SMALL_MUL,
  SMALL_NEQ,
  SMALL_REMAINDER,
  SMALL_SUB,
} from "./small_int.ts";
import { sepOf, splitList, splitTokens } from "../list.ts";
import { stripMarkup } from "../markup.ts";
import { EVAL_ARG } from "../types.ts";

const MAX = 100;

/** Sums with compensation (MUX's AddDoubles; formatPretty then takes the prettiest neighbour). */
function addDoubles(values: number[]): number {
  // The callers' own arrays, sorted in place by falling magnitude (stably; a few values, the
  // usual case, by insertion, without a comparison function's calls).
  const v = values.length > 16 ? values.sort((a, b) => Math.abs(b) - Math.abs(a)) : values;
  if (v.length <= 16) {
    for (let i = 1; i < v.length; i++) {
      const x = v[i], mag = Math.abs(x);
      let j = i - 1;
      for (; j >= 0 && Math.abs(v[j]) < mag; j--) v[j + 1] = v[j];
      v[j + 1] = x;
    }
  }
  if (!v.length) return 0;
  let sum = v[0];
  let err = 0;
  for (let i = 1; i < v.length; i++) {
    const addend = err + v[i];
    const addendErr = v[i] - (addend - err);
    const sum1 = sum + addend;
    const sum1Err = addend - (sum1 - sum);
    const next = sum1 + (addendErr + sum1Err);
    err = (addendErr + sum1Err) - (next - sum1);
    sum = next;
  }
  return sum;
}

/** True when every argument is an integer of at most 9 digits (MUX's fast path). */
function smallInts(args: NumArg[]): boolean {
  for (let i = 0; i < args.length; i++) if (!smallInt(args[i])) return false;
  return true;
}

const toBig = toI64;

/** True when the text is an integer of at most 9 digits (MUX's fast path). */
function smallInt(a: NumArg): boolean {
  const d = integerDigits(a);
  return d >= 0 && d <= 9;
}

function compare(args: NumArg[], op: (a: number, b: number) => boolean): string {
  if (smallInt(args[0]) && smallInt(args[1])) return bool(op(toInt(args[0]), toInt(args[1])));
  return bool(op(toReal(args[0]), toReal(args[1])));
}

/** An integer plus `by` (inc(), dec()), wrapped to 64 bits as MUX's are. */
function step(text: NumArg, by: number): number | string {
  const v = toSafeInt(text);
  const r = v + by;
  if (r <= Number.MAX_SAFE_INTEGER && r >= -Number.MAX_SAFE_INTEGER) return r;
  return i64(toBig(text) + BigInt(by));
}

/** The arithmetic family, before its leaf functions are marked. */
const mathDefs: FunctionDef[] = plainResults([
  defineNum("add", 1, MAX, {
    family: "arithmetic",
    args: "add(<number>, <number>[, <number>...])",
    summary: "The sum of the numbers.",
    example: { think: "add(1,2,3.5)", gives: "6.5" },
  }, (_ev, _f, args) => {
    if (args.length <= 9 && smallInts(args)) {
      let sum = 0;
      for (const a of args) sum += toInt(a);
      return sum;
    }
    const values: number[] = [];
    for (let i = 0; i < args.length; i++) values.push(toReal(args[i]));
    return nearestPretty(addDoubles(values));
  }, { small: SMALL_ADD }),
  defineNum("sub", 2, 2, {
    family: "arithmetic",
    args: "sub(<number>, <number>)",
    summary: "The first number minus the second.",
    example: { think: "sub(10,2.5)", gives: "7.5" },
  }, (_ev, _f, args) => {
    if (smallInts(args)) return toInt(args[0]) - toInt(args[1]);
    return nearestPretty(addDoubles([toReal(args[0]), -toReal(args[1])]));
  }, { small: SMALL_SUB }),
  defineNum("mul", 1, MAX, {
    family: "arithmetic",
    args: "mul(<number>, <number>[, <number>...])",
    summary: "The product of the numbers.",
    example: { think: "mul(2,3,4)", gives: "24" },
  }, (_ev, _f, args) => {
    let prod = 1;
    for (const a of args) prod *= toReal(a);
    return nearestPretty(prod);
  }, { small: SMALL_MUL }),
  defineNum("idiv", 2, 2, {
    family: "arithmetic",
    args: "idiv(<integer>, <integer>)",
    summary: "Integer division, rounded toward zero.",
    example: { think: "idiv(-7,2)", gives: "-3" },
  }, (_ev, _f, args) => {
    const a = toSafeInt(args[0]), b = toSafeInt(args[1]);
    if (bothInt31(a, b)) return b === 0 ? "#-1 DIVIDE BY ZERO" : Math.trunc(a / b);
    const bot = toBig(args[1]);
    if (bot === 0n) return "#-1 DIVIDE BY ZERO";
    return i64(toBig(args[0]) / bot);
  }, { small: SMALL_IDIV }),
  defineNum("floordiv", 2, 2, {
    family: "arithmetic",
    args: "floordiv(<integer>, <integer>)",
    summary: "Integer division, rounded down.",
    example: { think: "floordiv(-7,2)", gives: "-4" },
  }, (_ev, _f, args) => {
    const a = toSafeInt(args[0]), b = toSafeInt(args[1]);
    if (bothInt31(a, b)) return b === 0 ? "#-1 DIVIDE BY ZERO" : Math.floor(a / b);
    const bot = toBig(args[1]);
    if (bot === 0n) return "#-1 DIVIDE BY ZERO";
    const top = toBig(args[0]);
    let q = top / bot;
    if ((top % bot !== 0n) && ((top < 0n) !== (bot < 0n))) q -= 1n;
    return i64(q);
  }, { small: SMALL_FLOORDIV }),
  defineNum("fdiv", 2, 2, {
    family: "arithmetic",
    args: "fdiv(<number>, <number>)",
    summary: "Division, with the fraction.",
    example: { think: "fdiv(7,2)", gives: "3.5" },
  }, (_ev, _f, args) => {
    const bot = toReal(args[1]);
    const top = toReal(args[0]);
    if (bot === 0) return top > 0 ? "+Inf" : top < 0 ? "-Inf" : "Ind";
    return top / bot;
  }),
  defineNum("mod", 2, 2, {
    family: "arithmetic",
    args: "mod(<integer>, <integer>)",
    summary: "The remainder of floordiv(): it takes the divisor's sign.",
    example: { think: "mod(-7,2)", gives: "1" },
  }, (_ev, _f, args) => {
    const a = toSafeInt(args[0]), b = toSafeInt(args[1]);
    if (bothInt31(a, b)) {
      const d = b === 0 ? 1 : b;
      const r = a % d;
      return r !== 0 && (r < 0) !== (d < 0) ? r + d : r;
    }
    let bot = toBig(args[1]);
    if (bot === 0n) bot = 1n;
    const top = toBig(args[0]);
    let r = top % bot;
    if (r !== 0n && (r < 0n) !== (bot < 0n)) r += bot;
    return i64(r);
  }, { small: SMALL_MOD }),
  defineNum("remainder", 2, 2, {
    family: "arithmetic",
    args: "remainder(<integer>, <integer>)",
    summary: "The remainder of idiv(): it takes the dividend's sign.",
    example: { think: "remainder(-7,2)", gives: "-1" },
  }, (_ev, _f, args) => {
    const a = toSafeInt(args[0]), b = toSafeInt(args[1]);
    if (bothInt31(a, b)) return a % (b === 0 ? 1 : b);
    let bot = toBig(args[1]);
    if (bot === 0n) bot = 1n;
    return i64(toBig(args[0]) % bot);
  }, { small: SMALL_REMAINDER }),
  defineNum(
    "inc",
    0,
    1,
    {
      family: "arithmetic",
      args: "inc([<integer>])",
      summary: "The number plus one.",
      example: { think: "inc(41)", gives: "42" },
    },
    (_ev, _f, args) => args.length ? step(args[0], 1) : 1,
    { small: SMALL_INC },
  ),
  defineNum(
    "dec",
    0,
    1,
    {
      family: "arithmetic",
      args: "dec([<integer>])",
      summary: "The number minus one.",
      example: { think: "dec(43)", gives: "42" },
    },
    (_ev, _f, args) => args.length ? step(args[0], -1) : -1,
    { small: SMALL_DEC },
  ),
  define("iadd", 0, MAX, {
    family: "arithmetic",
    args: "iadd([<integer>...])",
    summary: "The sum of the numbers as integers.",
    example: { think: "iadd(1,2,3)", gives: "6" },
  }, (_ev, _f, args) => {
    let sum = 0n;
    for (const a of args) sum += toBig(a);
    return i64(sum);
  }),
  define("isub", 2, 2, {
    family: "arithmetic",
    args: "isub(<integer>, <integer>)",
    summary: "The first integer minus the second.",
    example: { think: "isub(10,3)", gives: "7" },
  }, (_ev, _f, args) => i64(toBig(args[0]) - toBig(args[1]))),
  define("imul", 1, MAX, {
    family: "arithmetic",
    args: "imul(<integer>, <integer>[, <integer>...])",
    summary: "The product of the numbers as integers.",
    example: { think: "imul(6,7)", gives: "42" },
  }, (_ev, _f, args) => {
    let prod = 1n;
    for (const a of args) prod = BigInt.asIntN(64, prod * toBig(a));
    return i64(prod);
  }),
  define("iabs", 1, 1, {
    family: "arithmetic",
    args: "iabs(<integer>)",
    summary: "The integer without its sign.",
    example: { think: "iabs(-5)", gives: "5" },
  }, (_ev, _f, args) => {
    const v = toBig(args[0]);
    return i64(v < 0n ? -v : v);
  }),
  define("isign", 1, 1, {
    family: "arithmetic",
    args: "isign(<integer>)",
    summary: "-1, 0 or 1 as the integer is negative, zero or positive.",
    example: { think: "isign(-5)", gives: "-1" },
  }, (_ev, _f, args) => {
    const v = toBig(args[0]);
    return v < 0n ? "-1" : bool(v > 0n);
  }),
  define("fmod", 2, 2, {
    family: "arithmetic",
    args: "fmod(<number>, <number>)",
    summary: "The remainder of dividing numbers with fractions (it takes the dividend's sign).",
    example: { think: "fmod(7.5,2)", gives: "1.5" },
  }, (_ev, _f, args) => formatNumber(toReal(args[0]) % toReal(args[1]))),
  define("bound", 2, 3, {
    family: "arithmetic",
    args: "bound(<number>, <lower>[, <upper>])",
    summary: "The number brought within the bounds.",
    example: { think: "bound(15,0,10)", gives: "10" },
  }, (_ev, _f, args) => {
    // PennMUSH's and later MUX's (2.12 has none): clamp to [min, max].
    let v = toReal(args[0]);
    const lo = toReal(args[1]);
    if (v < lo) v = lo;
    if (args.length > 2) {
      const hi = toReal(args[2]);
      if (v > hi) v = hi;
    }
    return formatNumber(v);
  }),
  defineNum("abs", 1, 1, {
    family: "arithmetic",
    args: "abs(<number>)",
    summary: "The number without its sign.",
    example: { think: "abs(-2.5)", gives: "2.5" },
  }, (_ev, _f, args) => {
    const n = toReal(args[0]);
    return n === 0 ? 0 : Math.abs(n);
  }, { small: SMALL_ABS }),
  define("sign", 1, 1, {
    family: "arithmetic",
    args: "sign(<number>)",
    summary: "-1, 0 or 1 as the number is negative, zero or positive.",
    example: { think: "sign(-3)", gives: "-1" },
  }, (_ev, _f, args) => {
    const n = toReal(args[0]);
    return n < 0 ? "-1" : bool(n > 0);
  }),
  defineNum("floor", 1, 1, {
    family: "arithmetic",
    args: "floor(<number>)",
    summary: "The greatest integer not above the number.",
    example: { think: "floor(-2.5)", gives: "-3" },
  }, (_ev, _f, args) => Math.floor(toReal(args[0]))),
  defineNum("ceil", 1, 1, {
    family: "arithmetic",
    args: "ceil(<number>)",
    summary: "The least integer not below the number.",
    example: { think: "ceil(2.1)", gives: "3" },
  }, (_ev, _f, args) => Math.ceil(toReal(args[0]))),
  defineNum("trunc", 1, 1, {
    family: "arithmetic",
    args: "trunc(<number>)",
    summary: "The number's integer part (rounded toward zero).",
    example: { think: "trunc(-2.7)", gives: "-2" },
  }, (_ev, _f, args) => Math.trunc(toReal(args[0]))),
  defineNum("round", 2, 2, {
    family: "arithmetic",
    args: "round(<number>, <places>)",
    summary: "The number rounded to that many decimal places.",
    example: { think: "round(3.14159,2)", gives: "3.14" },
  }, (_ev, _f, args) => {
    const r = toReal(args[0]);
    const places = toInt(args[1]);
    return roundedNumber(r, places) ?? formatRounded(r === 0 ? 0 : r, places);
  }),
  defineNum("power", 2, 2, {
    family: "arithmetic",
    args: "power(<base>, <exponent>)",
    summary: "The base raised to the exponent.",
    example: { think: "power(2,10)", gives: "1024" },
  }, (_ev, _f, args) => {
    return Math.pow(toReal(args[0]), toReal(args[1]));
  }),
  define("sqrt", 1, 1, {
    family: "arithmetic",
    args: "sqrt(<number>)",
    summary: "The square root.",
    example: { think: "sqrt(2.25)", gives: "1.5" },
  }, (_ev, _f, args) => {
    const v = toReal(args[0]);
    if (v < 0) return "Ind";
    return v === 0 ? "0" : formatNumber(Math.sqrt(v));
  }),
  define("ln", 1, 1, {
    family: "arithmetic",
    args: "ln(<number>)",
    summary: "The natural logarithm.",
    example: { think: "ln(1)", gives: "0" },
  }, (_ev, _f, args) => {
    const v = toReal(args[0]);
    if (v < 0) return "Ind";
    if (v === 0) return "-Inf";
    return formatNumber(Math.log(v));
  }),
  define("log", 1, 2, {
    family: "arithmetic",
    args: "log(<number>[, <base>])",
    summary: "The logarithm, base 10 unless another base is given.",
    example: { think: "log(1000)", gives: "3" },
  }, (_ev, _f, args) => {
    const v = toReal(args[0]);
    if (args.length < 2) return formatNumber(Math.log10(v));
    const b = args[1];
    const d = integerDigits(b);
    if (d >= 0 && d <= 2 && toInt(b) === 10) return formatNumber(Math.log10(v));
    if (d >= 0 && d <= 2 && toInt(b) === 2) return formatNumber(Math.log2(v));
    if (b === "e") return formatNumber(Math.log(v));
    const base = toReal(b);
    if (!(base > 1)) return "#-1 BASE OUT OF RANGE";
    return formatNumber(Math.log(v) / Math.log(base));
  }),
  define("exp", 1, 1, {
    family: "arithmetic",
    args: "exp(<number>)",
    summary: "e raised to the number.",
    example: { think: "exp(0)", gives: "1" },
  }, (_ev, _f, args) => formatNumber(Math.exp(toReal(args[0])))),
  define("pi", 0, 0, {
    family: "arithmetic",
    args: "pi()",
    summary: "The number pi.",
    example: { think: "pi()", gives: "3.141592653589793" },
  }, () => formatNumber(Math.PI)),
  define("e", 0, 0, {
    family: "arithmetic",
    args: "e()",
    summary: "The number e.",
    example: { think: "e()", gives: "2.718281828459045" },
  }, () => formatNumber(Math.E)),
  defineNum("max", 1, MAX, {
    family: "logic",
    args: "max(<number>[, <number>...])",
    summary: "The greatest of the numbers.",
    example: { think: "max(3,-1,7.5)", gives: "7.5" },
  }, (_ev, _f, args) => {
    let m = toReal(args[0]);
    for (let i = 1; i < args.length; i++) {
      const v = toReal(args[i]);
      if (v > m) m = v;
    }
    return m;
  }, { small: SMALL_MAX }),
  defineNum("min", 1, MAX, {
    family: "logic",
    args: "min(<number>[, <number>...])",
    summary: "The least of the numbers.",
    example: { think: "min(3,-1,7.5)", gives: "-1" },
  }, (_ev, _f, args) => {
    let m = toReal(args[0]);
    for (let i = 1; i < args.length; i++) {
      const v = toReal(args[i]);
      if (v < m) m = v;
    }
    return m;
  }, { small: SMALL_MIN }),
  define("ladd", 0, 2, {
    family: "arithmetic",
    args: "ladd(<list>[, <delimiter>])",
    summary: "The sum of a list of numbers.",
    example: { think: "ladd(1 2 3.5)", gives: "6.5" },
  }, (_ev, _f, args) => {
    if (!args.length) return "0";
    const sep = sepOf(args[1]);
    if (typeof sep !== "string") return sep.error;
    return formatPretty(addDoubles(splitList(args[0], sep).map(toReal)));
  }),
  define("lmax", 0, 2, {
    family: "logic",
    args: "lmax(<list>[, <delimiter>])",
    summary: "The greatest number of a list.",
    example: { think: "lmax(3 9 4)", gives: "9" },
  }, (_ev, _f, args) => listExtreme(args, (a, b) => a > b)),
  define("lmin", 0, 2, {
    family: "logic",
    args: "lmin(<list>[, <delimiter>])",
    summary: "The least number of a list.",
    example: { think: "lmin(3 9 4)", gives: "3" },
  }, (_ev, _f, args) => listExtreme(args, (a, b) => a < b)),
  define("band", 1, MAX, {
    family: "arithmetic",
    args: "band(<integer>, <integer>[, <integer>...])",
    summary: "Bitwise and.",
    example: { think: "band(12,10)", gives: "8" },
  }, (_ev, _f, args) => bitwise(args, -1n, (a, b) => a & b)),
  define("bor", 1, MAX, {
    family: "arithmetic",
    args: "bor(<integer>, <integer>[, <integer>...])",
    summary: "Bitwise or.",
    example: { think: "bor(12,10)", gives: "14" },
  }, (_ev, _f, args) => bitwise(args, 0n, (a, b) => a | b)),
  define("bxor", 1, MAX, {
    family: "arithmetic",
    args: "bxor(<integer>, <integer>[, <integer>...])",
    summary: "Bitwise exclusive or.",
    example: { think: "bxor(12,10)", gives: "6" },
  }, (_ev, _f, args) => bitwise(args, 0n, (a, b) => a ^ b)),
  define("bnand", 2, 2, {
    family: "arithmetic",
    args: "bnand(<integer>, <integer>)",
    summary: "The first integer with the second's bits cleared.",
    example: { think: "bnand(15,5)", gives: "10" },
  }, (_ev, _f, args) => {
    if (!isInteger(args[0]) || !isInteger(args[1])) return "#-1 ARGUMENTS MUST BE INTEGERS";
    return i64(toBig(args[0]) & ~toBig(args[1]));
  }),
  define("shl", 2, 2, {
    family: "arithmetic",
    args: "shl(<integer>, <count>)",
    summary: "The integer shifted left by count bits.",
    example: { think: "shl(1,4)", gives: "16" },
  }, (_ev, _f, args) => shift(args, true)),
  define("shr", 2, 2, {
    family: "arithmetic",
    args: "shr(<integer>, <count>)",
    summary: "The integer shifted right by count bits.",
    example: { think: "shr(16,2)", gives: "4" },
  }, (_ev, _f, args) => shift(args, false)),
  defineNum("eq", 2, 2, {
    family: "logic",
    args: "eq(<number>, <number>)",
    summary: "1 when the numbers are equal, else 0.",
    example: { think: "eq(2,2.0)", gives: "1" },
  }, (_ev, _f, args) => {
    if (smallInts(args)) return bool(toInt(args[0]) === toInt(args[1]));
    return bool(args[0] === args[1] || toReal(args[0]) === toReal(args[1]));
  }, { small: SMALL_EQ }),
  defineNum("neq", 2, 2, {
    family: "logic",
    args: "neq(<number>, <number>)",
    summary: "1 when the numbers differ, else 0.",
    example: { think: "neq(1,2)", gives: "1" },
  }, (_ev, _f, args) => {
    if (smallInts(args)) return bool(toInt(args[0]) !== toInt(args[1]));
    return bool(args[0] !== args[1] && toReal(args[0]) !== toReal(args[1]));
  }, { small: SMALL_NEQ }),
  defineNum(
    "gt",
    2,
    2,
    {
      family: "logic",
      args: "gt(<number>, <number>)",
      summary: "1 when the first number is greater than the second.",
      example: { think: "gt(3,2)", gives: "1" },
    },
    (_ev, _f, args) => compare(args, (a, b) => a > b),
    { small: SMALL_GT },
  ),
  defineNum(
    "gte",
    2,
    2,
    {
      family: "logic",
      args: "gte(<number>, <number>)",
      summary: "1 when the first number is greater than or equal to the second.",
      example: { think: "gte(2,2)", gives: "1" },
    },
    (_ev, _f, args) => compare(args, (a, b) => a >= b),
    { small: SMALL_GTE },
  ),
  defineNum(
    "lt",
    2,
    2,
    {
      family: "logic",
      args: "lt(<number>, <number>)",
      summary: "1 when the first number is less than the second.",
      example: { think: "lt(3,2)", gives: "0" },
    },
    (_ev, _f, args) => compare(args, (a, b) => a < b),
    { small: SMALL_LT },
  ),
  defineNum(
    "lte",
    2,
    2,
    {
      family: "logic",
      args: "lte(<number>, <number>)",
      summary: "1 when the first number is less than or equal to the second.",
      example: { think: "lte(2,3)", gives: "1" },
    },
    (_ev, _f, args) => compare(args, (a, b) => a <= b),
    { small: SMALL_LTE },
  ),
  define("isnum", 1, 1, {
    family: "logic",
    args: "isnum(<text>)",
    summary: "1 when the text is a number.",
    example: { think: "isnum(-1.5)", gives: "1" },
  }, (_ev, _f, args) => bool(isReal(args[0]))),
  define("isint", 1, 1, {
    family: "logic",
    args: "isint(<text>)",
    summary: "1 when the text is an integer.",
    example: { think: "isint(2.5)", gives: "0" },
  }, (_ev, _f, args) => bool(isInteger(args[0]))),
  define("israt", 1, 1, {
    family: "logic",
    args: "israt(<text>)",
    summary: "1 when the text is a rational number (an integer or a decimal).",
    example: { think: "israt(2.5)", gives: "1" },
  }, (_ev, _f, args) => bool(isRational(args[0]))),
  define("not", 1, 1, {
    family: "logic",
    args: "not(<value>)",
    summary: "1 when the value is false (empty, 0, or a #-1 error), else 0.",
    example: { think: "not(0)", gives: "1" },
  }, (_ev, _f, args) => bool(!truthy(args[0]))),
  define(
    "t",
    0,
    1,
    {
      family: "logic",
      args: "t(<value>)",
      summary: "1 when the value is true, else 0.",
      example: { think: "t(abc)", gives: "1" },
    },
    (_ev, _f, args) => bool(args.length > 0 && args[0] !== "" && truthy(args[0])),
    {
      // As MUX 2.12: its one argument takes the commas (t(0,0) is 1).
      parse: 1,
    },
  ),
  define("and", 0, MAX, {
    family: "logic",
    args: "and(<number>[, <number>...])",
    summary: "1 when every number is non-zero.",
    example: { think: "and(1,2,0)", gives: "0" },
  }, (_ev, _f, args) => {
    // A loop, not every() with an arrow: the arrow was a new closure each call (a +who row
    // makes three and() calls and two or()).
    for (let i = 0; i < args.length; i++) if (toInt(args[i]) === 0) return "0";
    return "1";
  }),
  define("or", 0, MAX, {
    family: "logic",
    args: "or(<number>[, <number>...])",
    summary: "1 when any number is non-zero.",
    example: { think: "or(0,3)", gives: "1" },
  }, (_ev, _f, args) => {
    for (let i = 0; i < args.length; i++) if (toInt(args[i]) !== 0) return "1";
    return "0";
  }),
  define("xor", 0, MAX, {
    family: "logic",
    args: "xor(<number>[, <number>...])",
    summary: "1 when an odd number of them are non-zero.",
    example: { think: "xor(1,1)", gives: "0" },
  }, (_ev, _f, args) => {
    let v = false;
    for (const a of args) v = v !== (toInt(a) !== 0);
    return bool(v);
  }),
  define("land", 0, 2, {
    family: "logic",
    args: "land(<list>[, <delimiter>])",
    summary: "1 when every item of the list is true.",
    example: { think: "land(1 1 0)", gives: "0" },
  }, (_ev, _f, args) => listBool(args, true)),
  define("lor", 0, 2, {
    family: "logic",
    args: "lor(<list>[, <delimiter>])",
    summary: "1 when any item of the list is true.",
    example: { think: "lor(0 0 1)", gives: "1" },
  }, (_ev, _f, args) => listBool(args, false)),
  define("alphamax", 1, MAX, {
    family: "logic",
    args: "alphamax(<word>[, <word>...])",
    summary: "The word that sorts last.",
    example: { think: "alphamax(pear,apple,plum)", gives: "plum" },
  }, (_ev, _f, args) => alphaPick(args, 1)),
  define("alphamin", 1, MAX, {
    family: "logic",
    args: "alphamin(<word>[, <word>...])",
    summary: "The word that sorts first.",
    example: { think: "alphamin(pear,apple,plum)", gives: "apple" },
  }, (_ev, _f, args) => alphaPick(args, -1)),
  define("andbool", 0, MAX, {
    family: "logic",
    args: "andbool(<value>[, <value>...])",
    summary: "1 when every value is true by t()'s rule.",
    example: { think: "andbool(abc,1)", gives: "1" },
  }, (_ev, _f, args) => bool(args.every(truthy))),
  define("orbool", 0, MAX, {
    family: "logic",
    args: "orbool(<value>[, <value>...])",
    summary: "1 when any value is true by t()'s rule.",
    example: { think: "orbool(#-1,0)", gives: "0" },
  }, (_ev, _f, args) => bool(args.some(truthy))),
  define("cand", 0, MAX, {
    family: "logic",
    args: "cand(<number>[, <number>...])",
    summary: "and(), evaluating its arguments only until one is 0.",
    example: { think: "cand(1,0,1)", gives: "0" },
  }, (ev, f, args) => {
    for (const a of args) {
      if (ev.halted) break;
      if (toInt(ev.eval(f, a, EVAL_ARG)) === 0) return "0";
    }
    return "1";
  }, { lazy: true }),
  define("cor", 0, MAX, {
    family: "logic",
    args: "cor(<number>[, <number>...])",
    summary: "or(), evaluating its arguments only until one is non-zero.",
    example: { think: "cor(0,1)", gives: "1" },
  }, (ev, f, args) => {
    for (const a of args) {
      if (ev.halted) break;
      if (toInt(ev.eval(f, a, EVAL_ARG)) !== 0) return "1";
    }
    return "0";
  }, { lazy: true }),
  define("candbool", 0, MAX, {
    family: "logic",
    args: "candbool(<value>[, <value>...])",
    summary: "andbool(), evaluating its arguments only until one is false.",
    example: { think: "candbool(yes,)", gives: "0" },
  }, (ev, f, args) => {
    for (const a of args) if (!truthy(ev.eval(f, a, EVAL_ARG))) return "0";
    return "1";
  }, { lazy: true }),
  define("corbool", 0, MAX, {
    family: "logic",
    args: "corbool(<value>[, <value>...])",
    summary: "orbool(), evaluating its arguments only until one is true.",
    example: { think: "corbool(,yes)", gives: "1" },
  }, (ev, f, args) => {
    for (const a of args) if (truthy(ev.eval(f, a, EVAL_ARG))) return "1";
    return "0";
  }, { lazy: true }),
  define("rand", 1, 2, {
    family: "random",
    args: "rand(<count>) or rand(<low>, <high>)",
    summary: "A random integer from 0 to count-1, or from low to high.",
    example: { think: "rand(10)", gives: "7", varies: true },
  }, (_ev, _f, args) => {
    if (args.length === 1) {
      if (!isInteger(args[0])) return "#-1 ARGUMENT MUST BE INTEGER";
      const n = toInt32(args[0]);
      return n < 1 ? "0" : String(randomInt(0, n - 1));
    }
    if (!isInteger(args[0]) || !isInteger(args[1])) return "#-1 ARGUMENT MUST BE INTEGER";
    const lo = toInt32(args[0]), hi = toInt32(args[1]);
    if (lo > hi || hi - lo > 2147483647) return "#-1 OUT OF RANGE";
    return String(randomInt(lo, hi));
  }),
  define("die", 2, 3, {
    family: "random",
    args: "die(<count>, <sides>[, <show>])",
    summary: "The total of count dice of that many sides; with show 1, each roll instead.",
    example: { think: "die(3,6)", gives: "11", varies: true },
  }, (_ev, _f, args) => {
    const n = toInt32(args[0]), sides = toInt32(args[1]);
    if (n === 0 || sides <= 0) return "0";
    // MUX's bound: fewer dice than an LBUF holds characters.
    if (n < 1 || n >= 8000) return "#-1 OUT OF RANGE";
    if (args[2] !== undefined && toInt(args[2]) !== 0) {
      let out = "";
      for (let i = 0; i < n; i++) out += (i ? " " : "") + randomInt(1, sides);
      return out;
    }
    let total = 0;
    for (let i = 0; i < n; i++) total += randomInt(1, sides);
    return String(total);
  }),
  // Numbers and truth values, but for the two that give back one of their arguments.
], (name) => name !== "ALPHAMAX" && name !== "ALPHAMIN");

/**
 * The truth functions that read only their arguments: leaf functions (FunctionDef.reads), so a
 * call hands them its node's kept array. A +who row of SGP's makes three and(), two or() and
 * four not() calls; each made an array.
 */
const LOGIC_LEAVES = [
  "not",
  "t",
  "and",
  "or",
  "xor",
  "isnum",
  "isint",
  "israt",
  "land",
  "lor",
  "andbool",
  "orbool",
];

/** The arithmetic family. */
export const mathFunctions: FunctionDef[] = readsOnly(mathDefs, LOGIC_LEAVES, "args");

function listExtreme(args: string[], better: (a: number, b: number) => boolean): string {
  if (!args.length) return "0";
  const sep = sepOf(args[1]);
  if (typeof sep !== "string") return sep.error;
  let m = 0;
  splitList(args[0], sep).forEach((w, i) => {
    const v = toReal(w);
    if (i === 0 || better(v, m)) m = v;
  });
  return formatNumber(m);
}

function bitwise(args: string[], start: bigint, op: (a: bigint, b: bigint) => bigint): string {
  let v = start;
  for (const a of args) {
    if (!isInteger(a)) return "#-1 ARGUMENTS MUST BE INTEGERS";
    v = op(v, toBig(a));
  }
  return BigInt.asIntN(64, v).toString();
}

function shift(args: string[], left: boolean): string {
  if (!isInteger(args[0]) || !isInteger(args[1])) return "#-1 ARGUMENTS MUST BE INTEGERS";
  const b = toInt(args[1]);
  if (b < 0) return "#-1 SECOND ARGUMENT MUST BE A POSITIVE NUMBER";
  const a = toBig(args[0]);
  // A 64-bit shift on the machines MUX runs on uses the count's low six bits.
  const s = BigInt(b % 64);
  return BigInt.asIntN(64, left ? a << s : a >> s).toString();
}

/** land() and lor(): each item's integer value, all true (`all`) or any true. */
function listBool(args: string[], all: boolean): string {
  if (!args.length) return bool(all);
  const sep = sepOf(args[1]);
  if (typeof sep !== "string") return sep.error;
  for (const w of splitTokens(args[0], sep)) {
    if ((toInt(w) !== 0) !== all) return bool(!all);
  }
  return bool(all);
}

/** alphamax() and alphamin(): the argument that sorts last (1) or first (-1), by code point. */
function alphaPick(args: string[], dir: 1 | -1): string {
  let best = args[0];
  let bestPlain = stripMarkup(best);
  for (let i = 1; i < args.length; i++) {
    const p = stripMarkup(args[i]);
    if ((dir > 0 && p > bestPlain) || (dir < 0 && p < bestPlain)) {
      best = args[i];
      bestPlain = p;
    }
  }
  return best;
}
