/** Trigonometry, unit conversion, distances and vectors, with MUX's number printing. */
import { define } from "./define.ts";
import type { FunctionDef } from "../types.ts";
import { formatNumber, toReal } from "../numbers.ts";
import { sepOf, splitList } from "../list.ts";

/** Radians in one degree and one gradian, and the reverse (MUX's constants). */
const DEG_TO_RAD = 0.017453292519943295;
const GRAD_TO_RAD = 0.015707963267948967;
const RAD_TO_DEG = 57.29577951308232;
const RAD_TO_GRAD = 63.66197723675813;

/** An angle in the unit its first letter names (`d`egrees, `g`radians, else radians) in radians. */
function toRadians(v: number, unit: string | undefined): number {
  switch (unit?.[0]) {
    case "d":
    case "D":
      return v * DEG_TO_RAD;
    case "g":
    case "G":
      return v * GRAD_TO_RAD;
  }
  return v;
}

/** Radians in the unit its first letter names. */
function fromRadians(v: number, unit: string | undefined): number {
  switch (unit?.[0]) {
    case "d":
    case "D":
      return v * RAD_TO_DEG;
    case "g":
    case "G":
      return v * RAD_TO_GRAD;
  }
  return v;
}

/** A function of an angle: sin(), cos(), tan(). */
function ofAngle(name: string, f: (x: number) => number): FunctionDef {
  return define(
    name,
    1,
    2,
    (_ev, _fr, args) => formatNumber(f(toRadians(toReal(args[0]), args[1]))),
  );
}

/** An inverse function giving an angle: asin(), acos(), atan(). */
function toAngle(name: string, f: (x: number) => number): FunctionDef {
  return define(
    name,
    1,
    2,
    (_ev, _fr, args) => formatNumber(fromRadians(f(toReal(args[0])), args[1])),
  );
}

/** Input and output separators of a vector function (output defaults to input). */
function vectorSeps(args: string[], inAt: number, outAt: number) {
  const sep = sepOf(args[inAt]);
  if (typeof sep !== "string") return sep.error;
  if (args[outAt] === undefined) return { sep, osep: sep };
  const osep = sepOf(args[outAt], { allowNull: true });
  if (typeof osep !== "string") return osep.error;
  return { sep, osep };
}

const SAME = "#-1 VECTORS MUST BE SAME DIMENSIONS";

type VectorOp = "add" | "sub" | "mul" | "dot" | "cross";

/** vadd(), vsub(), vmul(), vdot(), vcross(): two vectors, or a vector and a scalar. */
function vectors(op: VectorOp, args: string[]): string {
  const s = vectorSeps(args, 2, 3);
  if (typeof s === "string") return s;
  if (args[0] === "" || args[1] === "") return "";
  const a = splitList(args[0], s.sep).map(toReal);
  const b = splitList(args[1], s.sep).map(toReal);
  const scalarOk = op === "add" || op === "sub" || op === "mul";
  if (a.length !== b.length && !(scalarOk && (a.length === 1 || b.length === 1))) return SAME;
  if (op === "dot") {
    let sum = 0;
    for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
    return formatNumber(sum);
  }
  if (op === "cross") {
    if (a.length !== 3) return "#-1 VECTORS MUST BE DIMENSION OF 3";
    return [
      a[1] * b[2] - a[2] * b[1],
      a[2] * b[0] - a[0] * b[2],
      a[0] * b[1] - a[1] * b[0],
    ].map(formatNumber).join(s.osep);
  }
  const n = Math.max(a.length, b.length);
  const out: string[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const x = a.length === 1 ? a[0] : a[i];
    const y = b.length === 1 ? b[0] : b[i];
    out[i] = formatNumber(op === "add" ? x + y : op === "sub" ? x - y : x * y);
  }
  return out.join(s.osep);
}

/** The sum of squares of a vector's items. */
function squares(v: number[]): number {
  let sum = 0;
  for (const x of v) sum += x * x;
  return sum;
}

/** The trigonometric and vector family. */
export const geometryFunctions: FunctionDef[] = [
  ofAngle("sin", Math.sin),
  ofAngle("cos", Math.cos),
  ofAngle("tan", Math.tan),
  toAngle("asin", Math.asin),
  toAngle("acos", Math.acos),
  toAngle("atan", Math.atan),
  define(
    "atan2",
    2,
    3,
    (_ev, _f, args) =>
      formatNumber(fromRadians(Math.atan2(toReal(args[0]), toReal(args[1])), args[2])),
  ),
  define(
    "ctu",
    3,
    3,
    (_ev, _f, args) => formatNumber(fromRadians(toRadians(toReal(args[0]), args[1]), args[2])),
  ),
  define("dist2d", 4, 4, (_ev, _f, args) => {
    const dx = toReal(args[0]) - toReal(args[2]), dy = toReal(args[1]) - toReal(args[3]);
    return formatNumber(Math.sqrt(dx * dx + dy * dy));
  }),
  define("dist3d", 6, 6, (_ev, _f, args) => {
    const dx = toReal(args[0]) - toReal(args[3]);
    const dy = toReal(args[1]) - toReal(args[4]);
    const dz = toReal(args[2]) - toReal(args[5]);
    return formatNumber(Math.sqrt(dx * dx + dy * dy + dz * dz));
  }),
  define("vadd", 2, 4, (_ev, _f, args) => vectors("add", args)),
  define("vsub", 2, 4, (_ev, _f, args) => vectors("sub", args)),
  define("vmul", 2, 4, (_ev, _f, args) => vectors("mul", args)),
  define("vdot", 2, 4, (_ev, _f, args) => vectors("dot", args)),
  define("vcross", 2, 4, (_ev, _f, args) => vectors("cross", args)),
  define("vmag", 1, 2, (_ev, _f, args) => {
    const sep = sepOf(args[1]);
    if (typeof sep !== "string") return sep.error;
    if (args[0] === "") return "";
    const sum = squares(splitList(args[0], sep).map(toReal));
    return sum > 0 ? formatNumber(Math.sqrt(sum)) : "0";
  }),
  define("vunit", 1, 2, (_ev, _f, args) => {
    const sep = sepOf(args[1]);
    if (typeof sep !== "string") return sep.error;
    if (args[0] === "") return "";
    const v = splitList(args[0], sep).map(toReal);
    const sum = squares(v);
    if (!(sum > 0)) return "#-1 CANNOT MAKE UNIT VECTOR FROM ZERO-LENGTH VECTOR";
    const mag = Math.sqrt(sum);
    return v.map((x) => formatNumber(x / mag)).join(sep);
  }),
  define("vdim", 0, 2, (_ev, _f, args) => {
    if (!args.length) return "0";
    const sep = sepOf(args[1]);
    if (typeof sep !== "string") return sep.error;
    return String(splitList(args[0], sep).length);
  }),
];
