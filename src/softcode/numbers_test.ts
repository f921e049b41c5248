/** toReal()'s fast path for plain decimals reads what its full reader reads. */
import assert from "node:assert/strict";
import {
  formatNumber,
  formatPretty,
  formatReal,
  formatRounded,
  integerDigits,
  nearestPretty,
  roundedExact,
  roundedNumber,
  roundedQuick,
  toI64,
  toReal,
  toSafeInt,
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
  // Generated: integers of 1 to 20 digits (the loop sums up to 15), fractions, signs, odd ends.
  let seed = 7;
  const digit = () => String((seed = (seed * 1103515245 + 12345) % 2147483648) % 10);
  for (let i = 0; i < 3000; i++) {
    let s = i % 3 === 0 ? "-" : "";
    for (let k = 0; k <= i % 20; k++) s += digit();
    if (i % 4 === 1) s += ".";
    if (i % 4 >= 1) { for (let k = 0; k < i % 7; k++) s += digit(); }
    if (i % 11 === 0) s += "x";
    const full = i % 11 === 0 ? 0 : toReal(" " + s);
    assert.ok(Object.is(toReal(s), full), s);
  }
  // Fractions of 1 to 19 digits in all, the point anywhere: as Number() reads them (a quotient
  // read past 15 digits in all is not exact: 0.1234567890123456 would read one ulp off).
  for (let i = 0; i < 40_000; i++) {
    const total = 2 + (i % 18), point = 1 + ((i >> 4) % (total - 1));
    let s = i % 5 === 0 ? "-" : "";
    for (let k = 0; k < total; k++) s += (k === point ? "." : "") + digit();
    assert.ok(Object.is(toReal(s), Number(s)), s);
  }
  assert.equal(toReal("1e3"), 1000);
  assert.equal(toReal(" 2 "), 2);
  assert.equal(toReal("abc"), 0);
});

/** nearestPretty as it was before its 15-digit shortcut: x and both neighbours compared. */
function prettyByNeighbours(x: number): number {
  // Below 2^52 a whole number's neighbours are fractions, longer than it; from 2^52 they are whole
  // (MUX then prints 4503599627370501 as 4503599627370500: testdata/mux212_s49arith.json).
  if (!Number.isFinite(x) || x === 0 || (Number.isInteger(x) && Math.abs(x) < 2 ** 52)) return x;
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
  // Powers of two and their neighbours, from the least normal to the largest (the unit's search;
  // among subnormals the 15-digit shortcut is not the neighbours' answer: 1.5e-323 keeps its two
  // digits where its neighbour 1e-323 has one).
  for (let k = -1020; k <= 1023; k++) {
    const p = 2 ** k;
    xs.push(p, -p, p * (1 + 2 ** -52), p * (1 - 2 ** -53), p * 1.5, p / 3, p * 0.7);
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
  // Every text of up to four characters over an alphabet of digits, signs, a point, ASCII and
  // Unicode spaces, control and other characters (the quick refusal of `1.5` and the like).
  const alphabet = ["0", "7", "-", "+", ".", " ", "\t", "\u00a0", "\u3000", "\x7f", "\x1f", "a"];
  let texts = [""];
  for (let len = 1; len <= 4; len++) {
    texts = texts.flatMap((t) => t.length === len - 1 ? alphabet.map((c) => t + c) : []);
    for (const s of texts) assert.equal(integerDigits(s), digits(s), JSON.stringify(s));
  }
  // A number (an arithmetic call's result passed on) as its own text's length when whole.
  const byText = (x: number) => Number.isInteger(x) ? String(x < 0 ? -x : x).length : -1;
  const nums = [0, -0, 0.5, -1.5, NaN, Infinity, -Infinity, 2 ** 53, 2 ** 53 + 2, 2 ** 63, 1e300];
  for (let k = 0; k <= 22; k++) {
    const p = 10 ** k;
    nums.push(p, p - 1, p + 1, -p, -(p - 1), p * 2, p * 9.5);
  }
  for (const x of [...nums, ...doubles(20_000), ...doubles(20_000).map(Math.trunc)]) {
    assert.equal(integerDigits(x), byText(x), String(x));
  }
});

/** A fixed stream of doubles of every size: quotients, decimals, products, tiny and huge. */
function doubles(count: number): number[] {
  let seed = 4242;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const xs: number[] = [0.1 + 0.2, 22 / 7, 1e-6, 9.999999e-7, 1e17, 99999999999999980, 5e-324];
  for (let i = 0; i < count; i++) {
    const a = Math.floor(next() * 1e6) - 5e5, b = Math.floor(next() * 1000) + 1;
    const k = Math.floor(next() * 50) - 25;
    xs.push(a / b, (a / b) * 10 ** k, Number((a / b).toPrecision(1 + (i % 17))) * 10 ** (k >> 2));
    xs.push(a / 2 ** (i % 12), Math.round(a * next()) * 2 ** (k + 10));
  }
  return xs;
}

/** formatReal as it was: toExponential's digits laid out as MUX's mux_ftoa does. */
function realByExponential(x: number): string {
  if (x === 0) return "0";
  const e = Math.abs(x).toExponential();
  const at = e.indexOf("e");
  const digits = e.slice(0, at).replace(".", ""), point = Number(e.slice(at + 1)) + 1;
  const sign = x < 0 ? "-" : "";
  if (point <= -6 || point >= 18) {
    return `${sign}${digits[0]}${digits.length > 1 ? "." + digits.slice(1) : ""}E${point - 1}`;
  }
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  if (digits.length <= point) return sign + digits + "0".repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

Deno.test("formatReal and formatNumber: JavaScript's own text where it is MUX's", () => {
  for (const x of doubles(20_000)) {
    if (!Number.isInteger(x)) assert.equal(formatReal(x), realByExponential(x), `x = ${x}`);
    else if (Math.abs(x) < 2 ** 63) {
      const exact = Math.abs(x) < 1e21 ? x.toFixed(0) : BigInt(x).toString();
      assert.equal(formatNumber(x), exact === "-0" ? "0" : exact, `x = ${x}`);
    }
  }
});

Deno.test("round(): the toFixed() path gives what the exact rounding gives", () => {
  let quick = 0;
  const xs = [0.125, 2.5, -2.5, 0.5, 1.005, 22 / 7, 0.1, -0.00001, 1e-5, 123.456, ...doubles(6000)];
  for (const x of xs) {
    for (const p of [-3, -1, 0, 1, 2, 3, 4, 6, 9, 12, 15, 20]) {
      const q = roundedQuick(x, p);
      if (q === null) continue;
      quick++;
      assert.equal(q, roundedExact(x, p), `round(${x}, ${p})`);
    }
  }
  // Near halves and whole numbers after scaling, where the product's rounding could mislead.
  let seed = 99;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < 30_000; i++) {
    const p = i % 12, k = Math.floor(next() * 10 ** (1 + (i % 9)));
    const nudge = [0, 1e-3, -1e-3, 2 ** -11, -(2 ** -11), 1e-9, -1e-9][i % 7];
    const x = (i % 2 ? -1 : 1) * (k + 0.5 + nudge) / 10 ** p;
    const fixed = x.toFixed(p), zero = p > 0 ? "0." + "0".repeat(p) : "0";
    const q = roundedQuick(x, p);
    if (q !== null) assert.equal(q, /[1-9]/.test(fixed) ? fixed : zero, `round(${x}, ${p})`);
  }
  // Most of them took the quick path (the test would prove nothing otherwise).
  assert.ok(quick > xs.length * 3, `${quick}`);
  assert.equal(roundedQuick(0.125, 2), null);
  assert.equal(roundedExact(0.125, 2), "0.12");
});

Deno.test("round(): a result given as a number prints as the rounded text", () => {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const xs = [0.125, 2.5, -2.5, 1.005, 22 / 7, 0.1, -0.00001, 1e-5, 1.23e-5, 123.456, 3.1, 0.5];
  for (let i = 0; i < 4000; i++) {
    const k = Math.floor(next() * 30) - 15;
    xs.push((next() - 0.5) * 10 ** k, Math.round(next() * 1e6) / 10 ** (i % 12));
  }
  let numbers = 0;
  for (const x of [...xs, ...doubles(3000)]) {
    for (const p of [-3, -1, 0, 1, 2, 3, 4, 6, 9, 12, 15, 16, 20]) {
      const v = roundedNumber(x, p);
      if (v === null) continue;
      numbers++;
      assert.equal(formatNumber(v), formatRounded(x, p), `round(${x}, ${p})`);
    }
  }
  assert.ok(numbers > 40_000, `${numbers}`);
});

Deno.test("toI64 and toSafeInt: the number path reads what the bigint reader reads", () => {
  const texts = ["0", "-0", "12abc", " 7", "\t-8", "+5", "-", "", "x1", "9007199254740991"];
  texts.push("9007199254740993", "-99999999999999999999", "18446744073709551617", "007");
  for (const s of texts) {
    const m = /^[ \t-\r]*([-+]?)(\d+)/.exec(s);
    const full = m ? BigInt.asIntN(64, (m[1] === "-" ? -1n : 1n) * BigInt(m[2])) : 0n;
    assert.equal(toI64(s), full, JSON.stringify(s));
    const safe = toSafeInt(s);
    if (!Number.isNaN(safe)) assert.equal(BigInt(safe), full, JSON.stringify(s));
  }
  assert.ok(Number.isNaN(toSafeInt("9007199254740993")));
});
