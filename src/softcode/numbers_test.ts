/** toReal()'s fast path for plain decimals reads what its full reader reads. */
import assert from "node:assert/strict";
import {
  formatNumber,
  formatPretty,
  integerDigits,
  nearestPretty,
  toReal,
  truthy,
} from "./numbers.ts";

Deno.test("toReal: plain decimals read as the full reader reads them", () => {
  const plain = [
    "0",
    "-0",
    "7",
    "007",
    "-12",
    "3.25",
    "-0.5",
    "007.50",
    "123456789012345678901",
    "1.000000000000000001",
    "9007199254740993",
  ];
  for (const s of plain) {
    // The same text in a form only the full reader takes (a space before it).
    assert.ok(Object.is(toReal(s), toReal(" " + s)), s);
  }
  assert.equal(toReal("1e3"), 1000);
  assert.equal(toReal(" 2 "), 2);
  assert.equal(toReal("abc"), 0);
});

/** nearestPretty as it was before its 15-digit shortcut: x and both neighbours compared. */
function prettyByNeighbours(x: number): number {
  if (!Number.isFinite(x) || x === 0 || (Number.isInteger(x) && Math.abs(x) < 2 ** 53)) return x;
  const count = (y: number) => {
    const e = Math.abs(y).toExponential();
    return e.slice(0, e.indexOf("e")).replace(".", "").length;
  };
  const e = Math.floor(Math.log2(Math.abs(x)));
  let u = Math.pow(2, e - 52);
  if (Math.abs(x) < Math.pow(2, e)) u /= 2;
  u = Math.max(u, Number.MIN_VALUE);
  let best = x, digits = count(x);
  for (const y of [x - u, x + u]) {
    const d = count(y);
    if (d < digits) {
      digits = d;
      best = y;
    }
  }
  return best;
}

Deno.test("nearestPretty: a number of at most 15 digits is its own shortest neighbour", () => {
  // A fixed sequence (no Math.random): quotients, sums of decimals, products, tiny and huge.
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const xs: number[] = [0.1 + 0.2, 1 / 3, 2 / 3, 0.3 - 0.1, 1e-7 * 3, 123.456 * 1000, 5e-324];
  for (let i = 0; i < 20_000; i++) {
    const a = Math.floor(next() * 1e6) - 5e5, b = Math.floor(next() * 1000) + 1;
    const k = Math.floor(next() * 40) - 20;
    xs.push(
      a / b,
      (a / 1000) + (b / 100),
      a * 0.01 * b,
      (a / b) * 10 ** k,
      Number((a / b).toPrecision(1 + (i % 15))),
    );
  }
  for (const x of xs) {
    assert.equal(nearestPretty(x), prettyByNeighbours(x), `x = ${x}`);
    assert.equal(formatPretty(x), formatNumber(prettyByNeighbours(x)), `x = ${x}`);
  }
  for (
    const x of [0, -0, NaN, Infinity, -Infinity, 2 ** 60, -(2 ** 63), 1e21, 2.9999999999999996]
  ) {
    assert.equal(formatPretty(x), formatNumber(prettyByNeighbours(x)), `x = ${x}`);
  }
});

Deno.test("truthy and integerDigits: the quick forms answer as the full readers", () => {
  const t = (s: string) => truthy(s);
  for (const s of ["0", "1", "9", " ", "\t", "a", "+", "-", ".", "#", "\u00a0", "\u3000", "é"]) {
    const full = s === "#"
      ? true
      : /^\s*[-+]?(\d*\.?\d*)\s*$/.test(s) && /\d/.test(s)
      ? /[1-9]/.test(s)
      : /\S/.test(s);
    assert.equal(t(s), full, JSON.stringify(s));
  }
  const digits = (s: string) => {
    const m = /^\s*[-+]?(\d+)\s*$/.exec(s);
    return m ? m[1].length : -1;
  };
  for (
    const s of ["", "0", "12", "-12", "+7", "-", "+", " 12", "12 ", "1a", "a1", "--1", "007", "1.5"]
  ) {
    assert.equal(integerDigits(s), digits(s), JSON.stringify(s));
  }
});
