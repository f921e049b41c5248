/**
 * Test helper: the arithmetic functions that pass numbers between nested calls and keep constant
 * results (FunctionDef.num), each with a number of arguments to call it with, for the tests that
 * compare them with the printed-text path (num_pass_test.ts, fold_test.ts).
 */
export const ARITH_CALLS: readonly (readonly [string, number])[] = [
  ["add", 2],
  ["add", 3],
  ["sub", 2],
  ["mul", 2],
  ["idiv", 2],
  ["div", 2],
  ["floordiv", 2],
  ["fdiv", 2],
  ["mod", 2],
  ["remainder", 2],
  ["inc", 1],
  ["dec", 1],
  ["abs", 1],
  ["floor", 1],
  ["ceil", 1],
  ["trunc", 1],
  ["round", 2],
  ["power", 2],
  ["max", 2],
  ["min", 2],
  ["eq", 2],
  ["neq", 2],
  ["gt", 2],
  ["gte", 2],
  ["lt", 2],
  ["lte", 2],
];
