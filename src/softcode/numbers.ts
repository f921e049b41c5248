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

/** MUX's `mux_atol`: optional spaces and sign, then leading digits; 0 when there are none. */
export function toInt(s: string): number {
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
export function toInt32(s: string): number {
  const v = toInt(s);
  return v > 2147483647 ? 2147483647 : v < -2147483648 ? -2147483648 : v;
}

/** MUX's `is_integer`: optional spaces, sign, digits, spaces, nothing else. */
export function isInteger(s: string): boolean {
  return /^\s*[-+]?\d+\s*$/.test(s);
}

/** Digits in an integer text (for MUX's fast integer paths), or -1 when not an integer. */
export function integerDigits(s: string): number {
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

/** MUX's `mux_atof`: the value of a whole numeric text, else 0. */
export function toReal(s: string): number {
  const m = REAL.exec(s);
  if (!m) return 0;
  if (m[5]) {
    const w = m[5].toLowerCase();
    if (w === "inf") return m[1] === "-" ? -Infinity : Infinity;
    return NaN;
  }
  if (!m[2] && !m[3]) return 0;
  const text = `${m[1]}${m[2] || "0"}.${m[3] || "0"}${m[4] ? "e" + m[4] : ""}`;
  const v = Number(text);
  return Number.isNaN(v) ? 0 : v;
}

/** The unit in the last place of `x` (a finite, non-zero normal number). */
function ulp(x: number): number {
  const e = Math.floor(Math.log2(Math.abs(x)));
  // log2 may land one off at a power of two; the neighbour check corrects it.
  let u = Math.pow(2, e - 52);
  if (Math.abs(x) < Math.pow(2, e)) u /= 2;
  return Math.max(u, Number.MIN_VALUE);
}

/** Significant digits of the shortest text that reads back as `x`. */
function digitCount(x: number): number {
  const e = Math.abs(x).toExponential();
  const mant = e.slice(0, e.indexOf("e")).replace(".", "");
  return mant.length;
}

/**
 * MUX's NearestPretty: of `x` and its neighbours one ulp away, the one with the fewest
 * digits, so a sum that misses a short decimal by rounding prints as that decimal.
 */
export function nearestPretty(x: number): number {
  // Whole numbers below 2^53 are already their shortest form.
  if (!Number.isFinite(x) || x === 0 || (Number.isInteger(x) && Math.abs(x) < 2 ** 53)) return x;
  const u = ulp(x);
  let best = x;
  let digits = digitCount(x);
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

/** MUX's `fval`: a number as softcode prints it. */
export function formatNumber(x: number): string {
  if (Number.isNaN(x)) return "Ind";
  if (x === Infinity) return "+Inf";
  if (x === -Infinity) return "-Inf";
  if (Number.isInteger(x) && Math.abs(x) <= 9223372036854775807) {
    return Math.abs(x) < 1e21 ? (x === 0 ? "0" : x.toFixed(0)) : BigInt(x).toString();
  }
  return formatReal(x);
}

/** MUX's `mux_ftoa(x, false, 0)`: shortest digits, an exponent below 1e-5 or from 1e17. */
export function formatReal(x: number): string {
  if (x === 0) return "0";
  const { digits, point } = shortest(x);
  const sign = x < 0 ? "-" : "";
  if (point <= -6 || point >= 18) {
    const rest = digits.length > 1 ? "." + digits.slice(1) : "";
    return `${sign}${digits[0]}${rest}E${point - 1}`;
  }
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  if (digits.length <= point) return sign + digits + "0".repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** `x` rounded to `places` decimals (negative: to tens, hundreds...), as MUX's round() prints it. */
export function formatRounded(x: number, places: number): string {
  if (!Number.isFinite(x)) return formatNumber(x);
  const p = Math.max(-20, Math.min(50, places));
  if (p < 0) {
    const f = 10 ** -p;
    return formatNumber(Math.round(x / f) * f);
  }
  if (Math.abs(x) >= 1e21) return formatReal(x);
  let s = x.toFixed(Math.min(p, 100));
  // toFixed breaks exact ties away from zero; MUX (dtoa) breaks them to even.
  if (p < 99) {
    const exact = Math.abs(x).toFixed(Math.min(100, p + 30));
    const cut = exact.indexOf(".") + (p > 0 ? p + 1 : 0);
    const next = exact[p > 0 ? cut : exact.indexOf(".") + 1];
    if (next === "5" && /^0*$/.test(exact.slice((p > 0 ? cut : exact.indexOf(".") + 1) + 1))) {
      const kept = exact.slice(0, p > 0 ? cut : exact.indexOf("."));
      const last = Number(kept.replace(".", "").slice(-1));
      if (last % 2 === 0) s = (x < 0 ? "-" : "") + kept.replace(/\.$/, "");
    }
  }
  if (/^-0(\.0*)?$/.test(s)) s = s.slice(1);
  return s;
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
  if (s.charCodeAt(0) === 0x23) return s.charCodeAt(1) !== 0x2d;
  const m = REAL.exec(s);
  if (m && (m[5] || m[2] || m[3])) {
    if (m[5]) return false;
    return /[1-9]/.test((m[2] ?? "") + (m[3] ?? ""));
  }
  return /\S/.test(s);
}
