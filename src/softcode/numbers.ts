/**
 * Numbers as MUX reads and writes them: integers from leading digits (`12abc` is 12), reals
 * only from a whole numeric text (`2]3` is 0), results printed in the shortest form that
 * reads back the same, within one unit in the last place of the exact answer (so
 * `add(0.1,0.2)` is `0.3`), with an exponent only past 18 digits or below 1e-5.
 */

function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/**
 * MUX's `mux_atol`: optional spaces and sign, then leading digits; 0 when there are none. A
 * number (NumArg: an integer, or a fraction printed without exponent) reads as its text would:
 * its integer part.
 */
export function toInt(s: string | number): number {
  if (typeof s === "number") return Math.trunc(s);
  let i = 0;
  const n = s.length;
  while (i < n && isSpace(s.charCodeAt(i))) i++;
  let neg = false;
  const c = s.charCodeAt(i);
  if (c === 0x2d || c === 0x2b) {
    neg = c === 0x2d;
    i++;
  }
  let v = 0;
  while (i < n && isDigit(s.charCodeAt(i))) {
    v = v * 10 + (s.charCodeAt(i) - 48);
    i++;
  }
  // C's long on a 64-bit host; beyond 2^53 precision is lost, as with any double.
  return neg ? -v : v;
}

/** `toInt` clamped to a 32-bit int, as MUX's `int` variables hold it. */
export function toInt32(s: string | number): number {
  const v = toInt(s);
  return v > 2147483647 ? 2147483647 : v < -2147483648 ? -2147483648 : v;
}

/** MUX's `mux_atoi64`: leading digits as a 64-bit integer, wrapping as C's does. */
export function toI64(s: string | number): bigint {
  const quick = toSafeInt(s);
  if (!Number.isNaN(quick)) return BigInt(quick);
  if (typeof s === "number") {
    return Number.isFinite(s) ? BigInt.asIntN(64, BigInt(Math.trunc(s))) : 0n;
  }
  const m = /^[ \t-\r]*([-+]?)(\d+)/.exec(s);
  if (!m) return 0n;
  const v = BigInt(m[2]);
  return BigInt.asIntN(64, m[1] === "-" ? -v : v);
}

/**
 * `toInt(s)` when it is exact (within ±(2^53 − 1), where every step of its reading was exact
 * too), else NaN: integer functions work on it as a number instead of a bigint.
 */
export function toSafeInt(s: string | number): number {
  const v = toInt(s);
  return v <= Number.MAX_SAFE_INTEGER && v >= -Number.MAX_SAFE_INTEGER ? v : NaN;
}

/** Most an operand of the integer functions' number path may be: 32-bit quotients are exact. */
export const INT31 = 2147483647;

/** `a` and `b` both within ±INT31 (NaN is not). */
export function bothInt31(a: number, b: number): boolean {
  return a <= INT31 && a >= -INT31 && b <= INT31 && b >= -INT31;
}

/** A 64-bit integer result as text, wrapped to 64 bits. */
export function i64(v: bigint): string {
  return BigInt.asIntN(64, v).toString();
}

/** MUX's `is_integer`: optional spaces, sign, digits, spaces, nothing else. */
export function isInteger(s: string | number): boolean {
  return integerDigits(s) >= 0;
}

/** Digits in an integer text (for MUX's fast integer paths), or -1 when not an integer. */
export function integerDigits(s: string | number): number {
  if (typeof s === "number") {
    if (!Number.isInteger(s)) return -1;
    // Counted against powers of ten (each exact below 10^22) instead of printing the number;
    // from 10^21 on JavaScript prints an exponent form, whose length is kept as it was.
    const a = s < 0 ? -s : s;
    if (a >= 1e21) return String(a).length;
    let d = 1;
    for (let p = 10; a >= p; p *= 10) d++;
    return d;
  }
  // The usual form (digits, perhaps a sign) read without a regular expression.
  const n = s.length;
  const c0 = s.charCodeAt(0);
  const from = c0 === 0x2d || c0 === 0x2b ? 1 : 0;
  let i = from;
  while (i < n && isDigit(s.charCodeAt(i))) i++;
  if (i === n && i > from) return n - from;
  // Digits then a printable non-space (`1.25`, a fraction's point): the expression below would
  // need spaces there, so no match, without its call (cold code on a paced line).
  if (i > from) {
    const c = s.charCodeAt(i);
    if (c > 0x20 && c < 0x7f) return -1;
  }
  const m = /^\s*[-+]?(\d+)\s*$/.exec(s);
  return m ? m[1].length : -1;
}

/** MUX's `is_rational`: an integer or a decimal fraction (no exponent). */
export function isRational(s: string): boolean {
  return /^\s*[-+]?(\d+\.?\d*|\.\d+)\s*$/.test(s);
}

const REAL = /^\s*([-+]?)(?:(\d*)\.?(\d*)(?:[eE]([-+]?\d{1,4}))?|(inf|ind|nan))\s*$/i;

/** MUX's `is_real` (strict ParseFloat): a number, with exponent, or Inf/Ind/NaN. */
export function isReal(s: string): boolean {
  const m = REAL.exec(s);
  if (!m) return false;
  if (m[5]) return true;
  return (m[2] ?? "") !== "" || (m[3] ?? "") !== "";
}

/** Digits read as a whole number by toReal()'s loop: below 10^15 each step is exact. */
const EXACT_DIGITS = 15;

/** 10^0 to 10^15, each exact. */
const TENS = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/** MUX's `mux_atof`: the value of a whole numeric text (or the number itself), else 0. */
export function toReal(s: string | number): number {
  if (typeof s === "number") return s;
  // A plain decimal (`12`, `-3.25`), the form numbers are printed in, read without a regular
  // expression: a short integer's value is summed here, a fraction's is Number()'s.
  const n = s.length;
  const neg = s.charCodeAt(0) === 0x2d;
  let i = neg ? 1 : 0;
  const from = i;
  let v = 0;
  while (i < n) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) break;
    v = v * 10 + d;
    i++;
  }
  if (i > from) {
    if (i === n && i - from <= EXACT_DIGITS) return neg ? -v : v;
    if (i === n) return Number(s);
    if (s.charCodeAt(i) === 0x2e && i + 1 < n) {
      let j = i + 1;
      let w = v;
      while (j < n) {
        const d = s.charCodeAt(j) - 48;
        if (d < 0 || d > 9) break;
        w = w * 10 + d;
        j++;
      }
      if (j === n) {
        // Up to 15 digits in all the digits are a whole number read exactly and the power of ten
        // is exact, so their one division is the correctly rounded value, Number()'s, without
        // its call into V8's runtime (cold on a paced line: `1.5`, round()'s `3.1429`).
        const places = j - i - 1;
        if (j - from - 1 <= EXACT_DIGITS) return neg ? -(w / TENS[places]) : w / TENS[places];
        return Number(s);
      }
    }
  }
  const m = REAL.exec(s);
  if (!m) return 0;
  if (m[5]) {
    const w = m[5].toLowerCase();
    if (w === "inf") return m[1] === "-" ? -Infinity : Infinity;
    return NaN;
  }
  if (!m[2] && !m[3]) return 0;
  const text = `${m[1]}${m[2] || "0"}.${m[3] || "0"}${m[4] ? "e" + m[4] : ""}`;
  const r = Number(text);
  return Number.isNaN(r) ? 0 : r;
}

/** 2^-52: a power of two's scale to the unit in the last place of its binade. */
const ULP_SCALE = 2 ** -52;

/** The unit in the last place of `x` (finite, non-zero); 2^-1074 for a subnormal one. */
function ulp(x: number): number {
  // The power of two at or below |x|, found by doubling or halving (each step exact; at most
  // 1,075 of them): Math.log2 and Math.pow are the C library's, cold code on a paced line.
  const a = x < 0 ? -x : x;
  let p = 1;
  if (a >= 1) { while (p * 2 <= a) p *= 2; }
  else while (p > a) p /= 2;
  const u = p * ULP_SCALE;
  return u > Number.MIN_VALUE ? u : Number.MIN_VALUE;
}

/** Significant digits of the shortest text that reads back as `x`. */
function digitCount(x: number): number {
  return significantDigits(String(x));
}

/**
 * MUX's NearestPretty: of `x` and its neighbours one ulp away, the one with the fewest
 * digits, so a sum that misses a short decimal by rounding prints as that decimal.
 */
export function nearestPretty(x: number): number {
  // Whole numbers below 2^52 are already their shortest form (their neighbours are fractions);
  // from 2^52 the neighbours are whole too, and one may be shorter (4503599627370501 prints as
  // 4503599627370500 in MUX).
  if (!Number.isFinite(x) || x === 0 || (Number.isInteger(x) && Math.abs(x) < 2 ** 52)) return x;
  let digits = digitCount(x);
  // Decimals of 15 significant digits lie further apart than two ulps (10^15 < 2^53), so a
  // neighbour of a number that needs no more than 15 cannot need fewer.
  if (digits <= 15) return x;
  const u = ulp(x);
  let best = x;
  for (const y of [x - u, x + u]) {
    const d = digitCount(y);
    if (d < digits) {
      digits = d;
      best = y;
    }
  }
  return best;
}

/** Digits and decimal point position of the shortest round-trip form of |x| (x ≠ 0). */
function shortest(x: number): { digits: string; point: number } {
  const e = Math.abs(x).toExponential();
  const at = e.indexOf("e");
  const digits = e.slice(0, at).replace(".", "");
  return { digits, point: Number(e.slice(at + 1)) + 1 };
}

/** 2^63: the first whole double past a 64-bit integer. */
const TWO_63 = 9223372036854775808;

/** MUX's `fval`: a number as softcode prints it. */
export function formatNumber(x: number): string {
  if (Number.isNaN(x)) return "Ind";
  if (x === Infinity) return "+Inf";
  if (x === -Infinity) return "-Inf";
  if (Number.isInteger(x) && Math.abs(x) <= TWO_63) {
    // MUX converts a whole number to a C long: 2^63 itself passes its range test (the
    // bound rounds up to 2^63 as a double) and wraps to the lowest long.
    if (x === TWO_63) return "-9223372036854775808";
    // Up to 2^53 a whole number's own text is its exact digits (and -0's is "0"); beyond,
    // toFixed() gives them exactly up to 1e21.
    const a = Math.abs(x);
    if (a <= Number.MAX_SAFE_INTEGER) return String(x);
    return a < 1e21 ? x.toFixed(0) : BigInt(x).toString();
  }
  return subnormal(x) ? "0" : formatReal(x);
}

/** The least positive normal double (2^-1022, C's DBL_MIN). */
const MIN_NORMAL = 2 ** -1022;

/**
 * True for a subnormal number, which MUX's fval prints as 0: it sorts them with zero by their
 * IEEE class (`fdiv(1,1e308)` and `power(10,-308)` are 0 there).
 */
function subnormal(x: number): boolean {
  return x !== 0 && x > -MIN_NORMAL && x < MIN_NORMAL;
}

/**
 * Where JavaScript's text for a number and MUX's agree: both give the shortest digits that read
 * back the same, without an exponent from 1e-6 (MUX: a decimal point at most 5 places out)
 * to 1e17 (JavaScript's own bounds are 1e-7 and 1e21).
 */
function plainRange(x: number): boolean {
  const a = x < 0 ? -x : x;
  return a >= 1e-6 && a < 1e17;
}

/** Significant digits in a number's JavaScript text (from its first to its last non-zero). */
function significantDigits(text: string): number {
  let count = 0, zeros = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x65) break; // e
    if (c >= 0x31 && c <= 0x39) {
      count += zeros + 1;
      zeros = 0;
    } else if (c === 0x30 && count > 0) zeros++;
  }
  return count;
}

/**
 * `formatNumber(nearestPretty(x))`, reading x's shortest digits once: a number of 15 digits or
 * fewer is printed from them (nearestPretty would give it back as it is).
 */
export function formatPretty(x: number): string {
  if (!Number.isFinite(x) || x === 0 || Number.isInteger(x)) return formatNumber(nearestPretty(x));
  if (plainRange(x)) {
    const text = String(x);
    if (significantDigits(text) <= 15) return text;
    return formatNumber(nearestPretty(x));
  }
  if (subnormal(x)) return "0";
  const s = shortest(x);
  if (s.digits.length <= 15) return layout(x < 0, s.digits, s.point, -1);
  return formatNumber(nearestPretty(x));
}

/** MUX's `mux_ftoa(x, false, 0)`: shortest digits, an exponent below 1e-5 or from 1e17. */
export function formatReal(x: number): string {
  if (x === 0) return "0";
  if (plainRange(x)) return String(x);
  const { digits, point } = shortest(x);
  return layout(x < 0, digits, point, -1);
}

/**
 * Digits laid out as MUX's mux_ftoa does: an exponent when the point is far out, else plain,
 * padded with zeros to `places` decimals when `places` is not negative (round()).
 */
function layout(negative: boolean, digits: string, point: number, places: number): string {
  const sign = negative ? "-" : "";
  const n = digits.length;
  if (point <= -6 || point >= 18) {
    const rest = n > 1 ? "." + digits.slice(1) : "";
    return `${sign}${digits[0]}${rest}E${point - 1}`;
  }
  if (point <= 0) {
    const pad = places - (n - point);
    return `${sign}0.${"0".repeat(-point)}${digits}${pad > 0 ? "0".repeat(pad) : ""}`;
  }
  if (n <= point) {
    const whole = sign + digits + "0".repeat(point - n);
    return places > 0 ? whole + "." + "0".repeat(places) : whole;
  }
  const pad = places - (n - point);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}${pad > 0 ? "0".repeat(pad) : ""}`;
}

/** Most and fewest decimals round() takes (MUX's mux_ftoa clamps to these). */
const ROUND_MAX = 50;
const ROUND_MIN = -20;

/** 2^0 to 2^(ROUND_MAX + 1), each exact. */
const TWOS = Array.from({ length: ROUND_MAX + 2 }, (_, i) => 2 ** i);

/**
 * `x` rounded to `places` decimals (negative: to tens, hundreds...), as MUX's round() prints it
 * (dtoa's mode 5): the shortest form that reads back as `x` when it has no more decimals than
 * asked, else `x`'s exact binary value rounded, ties to the even digit; padded with zeros to
 * `places` decimals.
 */
export function formatRounded(x: number, places: number): string {
  return roundedQuick(x, places) ?? roundedExact(x, places);
}

/** `places` within the range MUX's mux_ftoa takes. */
function clampPlaces(places: number): number {
  return Math.max(ROUND_MIN, Math.min(ROUND_MAX, places));
}

/** round()'s zero: no sign, padded to the places asked. */
function roundedZero(p: number): string {
  return p > 0 ? "0." + "0".repeat(p) : "0";
}

/**
 * formatRounded() by JavaScript's toFixed(), which rounds x's exact value too, ties away from
 * zero: where no tie can be (x has more binary places than p + 1 decimals could end in a 5) and
 * the answer has at most 15 digits (so x's shortest digits, padded, are the nearest when they
 * are short enough), it is MUX's text. Null elsewhere.
 */
export function roundedQuick(x: number, places: number): string | null {
  const p = clampPlaces(places);
  const a = x < 0 ? -x : x;
  // The powers from tables (exact) where they reach: `**` is a call into the C library's pow(),
  // cold on a paced line.
  if (p < 0 || !(a >= 1e-5 && a < (p <= 15 ? TENS[15 - p] : 10 ** (15 - p)))) return null;
  if (Number.isInteger(a * TWOS[p + 1])) return null; // p is at most ROUND_MAX
  const scaled = p <= 15 ? roundedScaled(x < 0, a * TENS[p], p) : null;
  if (scaled !== null) return scaled;
  const fixed = x.toFixed(p);
  return significantDigits(fixed) === 0 ? roundedZero(p) : fixed;
}

/**
 * toFixed()'s text from |x| × 10^p (`y`, one rounded product; below 2^52, where every half is a
 * double): rounding is monotonic, so the exact value lies on y's side of every half unless y is
 * a half itself (then null: toFixed() reads the exact value), and y's nearest whole number is
 * the exact value's. It spares a paced line toFixed()'s call into V8's runtime and its
 * fixed-point digits code.
 */
function roundedScaled(negative: boolean, y: number, p: number): string | null {
  const whole = scaledWhole(y);
  if (whole !== whole) return null;
  if (whole === 0) return roundedZero(p);
  const sign = negative ? "-" : "";
  if (p === 0) return sign + whole;
  const digits = String(whole).padStart(p + 1, "0");
  const point = digits.length - p;
  return sign + digits.slice(0, point) + "." + digits.slice(point);
}

/** y's nearest whole number (see roundedScaled), or NaN where the product cannot tell it. */
function scaledWhole(y: number): number {
  if (!(y < 4503599627370496)) return NaN;
  const k = Math.floor(y);
  const frac = y - k;
  if (frac === 0.5) return NaN;
  return frac > 0.5 ? k + 1 : k;
}

/**
 * round()'s answer as a number whose formatNumber() text is formatRounded()'s, or null: an
 * arithmetic caller then reads the number, not the text printed and read back (the chain on a
 * register's `add(...,round(...),...)`). Taken where roundedQuick() takes its product (p ≤ 15,
 * under 15 digits, no tie) and the text has no zeros padded at its end and no exponent in
 * formatNumber()'s form (from 1e-6): its digits over 10^p, one correctly rounded division, give
 * the double nearest that decimal of at most 15 digits, whose shortest digits are the decimal's.
 */
export function roundedNumber(x: number, places: number): number | null {
  const p = clampPlaces(places);
  const a = x < 0 ? -x : x;
  if (p < 0 || p > 15 || !(a >= 1e-5 && a < TENS[15 - p])) return null;
  if (Number.isInteger(a * TWOS[p + 1])) return null;
  const whole = scaledWhole(a * TENS[p]);
  if (!(whole > 0) || (p > 0 && whole % 10 === 0)) return null;
  // At least 1e-5 less half of 10^-p, or 10^-p when p ≤ 5: above 1e-6, printed without exponent.
  const v = whole / TENS[p];
  return x < 0 ? -v : v;
}

/** formatRounded() from x's shortest digits, else its exact binary value rounded. */
export function roundedExact(x: number, places: number): string {
  if (!Number.isFinite(x)) return formatNumber(x);
  const p = clampPlaces(places);
  const zero = roundedZero(p);
  if (x === 0) return zero;
  const short = shortest(x);
  if (short.point + p >= short.digits.length) return layout(x < 0, short.digits, short.point, p);
  // |x| × 10^p as an exact fraction num / den, then rounded to a whole number.
  const [mant, exp] = binaryParts(Math.abs(x));
  let num = mant, den = 1n;
  if (exp >= 0) num <<= BigInt(exp);
  else den <<= BigInt(-exp);
  if (p >= 0) num *= 10n ** BigInt(p);
  else den *= 10n ** BigInt(-p);
  let q = num / den;
  const twice = (num - q * den) * 2n;
  if (twice > den || (twice === den && (q & 1n) === 1n)) q++;
  if (q === 0n) return zero;
  // q's digits with the decimal point p places from the right.
  let digits = q.toString();
  const point = digits.length - p;
  digits = digits.replace(/0+$/, "");
  return layout(x < 0, digits, point, p);
}

/** A finite, non-zero double as mantissa × 2^exponent, exactly. */
function binaryParts(x: number): [bigint, number] {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0), lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (biased === 0) return [mant, -1074];
  mant |= 1n << 52n;
  return [mant, biased - 1075];
}

/** A boolean as MUX prints it. */
export function bool(b: boolean): string {
  return b ? "1" : "0";
}

/**
 * MUX's truth (`t()`, `and()`, `ifelse()`...): `#-...` is false and any other `#...` true; a
 * number is true unless zero (Inf and NaN are false); blank text is false, other text true.
 */
export function truthy(s: string): boolean {
  const c = s.charCodeAt(0);
  if (c === 0x23) return s.charCodeAt(1) !== 0x2d;
  // One character (most often 0 or 1): a digit is true unless 0, a space false, the rest true.
  if (s.length === 1 && c < 0x80) return isDigit(c) ? c !== 0x30 : !isSpace(c);
  const m = REAL.exec(s);
  if (m && (m[5] || m[2] || m[3])) {
    if (m[5]) return false;
    return /[1-9]/.test((m[2] ?? "") + (m[3] ?? ""));
  }
  return /\S/.test(s);
}
