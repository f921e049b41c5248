/**
 * The shared small-integer path of the arithmetic functions and the numeric comparisons
 * (FunctionDef.small): when every argument is a plain small integer (the usual case: counters,
 * indexes, dice) one compact routine reads each to an int, switches on the operation and gives
 * the number; anything else (a fraction, a sign or space around the digits, an empty argument,
 * ten digits or more) goes to the function's own code, which keeps MUX's number rules. On its arguments the path gives what the
 * function's own code gives (small_int_test.ts compares them); it exists because a paced line
 * fetches every distinct piece of code it runs from memory (docs/bench.md, 2026-11-30), and a
 * line of several arithmetic functions then ran each one's own readers and helpers.
 */
import type { Evaluation } from "../eval.ts";
import type { Frame, FunctionDef, NumArg } from "../types.ts";

/** The operations (FunctionDef.small); 0 is none. */
export const SMALL_ADD = 1;
export const SMALL_SUB = 2;
export const SMALL_MUL = 3;
export const SMALL_IDIV = 4;
export const SMALL_FLOORDIV = 5;
export const SMALL_MOD = 6;
export const SMALL_REMAINDER = 7;
export const SMALL_INC = 8;
export const SMALL_DEC = 9;
export const SMALL_ABS = 10;
export const SMALL_MAX = 11;
export const SMALL_MIN = 12;
export const SMALL_EQ = 13;
export const SMALL_NEQ = 14;
export const SMALL_GT = 15;
export const SMALL_GTE = 16;
export const SMALL_LT = 17;
export const SMALL_LTE = 18;

/** Most a small integer may be: nine digits, as MUX's own integer fast paths take. */
export const SMALL_MOST = 999_999_999;

const DIVIDE_BY_ZERO = "#-1 DIVIDE BY ZERO";

/**
 * A plain small integer's value: a text of an optional `-` and one to nine digits and nothing
 * else, or a whole number within ±SMALL_MOST (a nested call's); NaN for anything else.
 */
export function smallInt(a: NumArg): number {
  if (typeof a === "number") {
    return (a | 0) === a && a <= SMALL_MOST && a >= -SMALL_MOST ? a : NaN;
  }
  const n = a.length;
  const neg = n > 1 && a.charCodeAt(0) === 0x2d;
  let i = neg ? 1 : 0;
  if (n === i || n - i > 9) return NaN;
  let v = 0;
  for (; i < n; i++) {
    const d = a.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return NaN;
    v = v * 10 + d;
  }
  return neg ? 0 - v : v;
}

/**
 * The operation on small-integer arguments: a number, or a text (division by zero's error);
 * undefined when an argument is not a small integer or the answer would leave the integers a
 * double holds exactly (the function's own code answers then).
 */
export function smallResult(op: number, args: NumArg[]): number | string | undefined {
  const count = args.length;
  if (count === 0) return undefined;
  let acc = smallInt(args[0]);
  if (acc !== acc) return undefined;
  if (count === 1) {
    switch (op) {
      case SMALL_INC:
        return acc + 1;
      case SMALL_DEC:
        return acc - 1;
      case SMALL_ABS:
        return acc < 0 ? -acc : acc + 0;
      case SMALL_ADD:
      case SMALL_MUL:
      case SMALL_MAX:
      case SMALL_MIN:
        return acc + 0;
    }
    return undefined;
  }
  for (let i = 1; i < count; i++) {
    const b = smallInt(args[i]);
    if (b !== b) return undefined;
    switch (op) {
      case SMALL_ADD:
        acc += b;
        break;
      case SMALL_MUL:
        acc *= b;
        break;
      case SMALL_MAX:
        if (b > acc) acc = b;
        break;
      case SMALL_MIN:
        if (b < acc) acc = b;
        break;
      // The two-argument operations (their counts are checked before the call).
      case SMALL_SUB:
        return acc - b + 0;
      case SMALL_IDIV:
        return b === 0 ? DIVIDE_BY_ZERO : Math.trunc(acc / b) + 0;
      case SMALL_FLOORDIV:
        return b === 0 ? DIVIDE_BY_ZERO : Math.floor(acc / b) + 0;
      case SMALL_MOD: {
        // The divisor's sign; by zero, as by one (MUX's).
        const d = b === 0 ? 1 : b;
        const r = acc % d;
        return r !== 0 && (r < 0) !== (d < 0) ? r + d : r + 0;
      }
      case SMALL_REMAINDER:
        return (acc % (b === 0 ? 1 : b)) + 0;
      // The comparisons: the texts 1 or 0, as their own code gives them.
      case SMALL_EQ:
        return acc === b ? "1" : "0";
      case SMALL_NEQ:
        return acc !== b ? "1" : "0";
      case SMALL_GT:
        return acc > b ? "1" : "0";
      case SMALL_GTE:
        return acc >= b ? "1" : "0";
      case SMALL_LT:
        return acc < b ? "1" : "0";
      case SMALL_LTE:
        return acc <= b ? "1" : "0";
      default:
        return undefined;
    }
  }
  // A product past 2^53 is rounded: its own code prints it as MUX does. (With no factor 0 every
  // partial product is at most the last, so one within 2^53 was exact all along.)
  if (acc > Number.MAX_SAFE_INTEGER || acc < -Number.MAX_SAFE_INTEGER || acc !== acc) {
    return undefined;
  }
  return acc + 0;
}

/** The `num` of every function on the path: the shared routine, else the function's own code. */
export function smallFirst(
  ev: Evaluation,
  frame: Frame,
  args: NumArg[],
  fn: FunctionDef<Evaluation>,
): number | string {
  const r = smallResult(fn.small!, args);
  return r !== undefined ? r : fn.full!(ev, frame, args, fn);
}
