/** Trigonometry, unit conversion, distances and vectors, with MUX's number printing. */
import { define } from "./define.ts";
import type { FunctionDef, FunctionHelp } from "../types.ts";
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
function ofAngle(name: string, help: FunctionHelp, f: (x: number) => number): FunctionDef {
  return define(
    name,
    1,
    2,
    help,
    (_ev, _fr, args) => formatNumber(f(toRadians(toReal(args[0]), args[1]))),
  );
}

/** An inverse function giving an angle: asin(), acos(), atan(). */
function toAngle(name: string, help: FunctionHelp, f: (x: number) => number): FunctionDef {
  return define(
    name,
    1,
    2,
    help,
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
  ofAngle("sin", {
    family: "arithmetic",
    args: "sin(<angle>[, <unit>])",
    summary:
      "The sine of the angle: in radians, or in degrees (d) or gradians (g) when unit says so.",
    example: { think: "sin(90,d)", gives: "1" },
  }, Math.sin),
  ofAngle("cos", {
    family: "arithmetic",
    args: "cos(<angle>[, <unit>])",
    summary: "The cosine of the angle (radians, or d or g).",
    example: { think: "cos(0)", gives: "1" },
  }, Math.cos),
  ofAngle("tan", {
    family: "arithmetic",
    args: "tan(<angle>[, <unit>])",
    summary: "The tangent of the angle (radians, or d or g).",
    example: { think: "tan(0)", gives: "0" },
  }, Math.tan),
  toAngle("asin", {
    family: "arithmetic",
    args: "asin(<number>[, <unit>])",
    summary: "The angle whose sine is the number (radians, or d or g).",
    example: { think: "asin(1,d)", gives: "90" },
  }, Math.asin),
  toAngle("acos", {
    family: "arithmetic",
    args: "acos(<number>[, <unit>])",
    summary: "The angle whose cosine is the number (radians, or d or g).",
    example: { think: "acos(1)", gives: "0" },
  }, Math.acos),
  toAngle("atan", {
    family: "arithmetic",
    args: "atan(<number>[, <unit>])",
    summary: "The angle whose tangent is the number (radians, or d or g).",
    example: { think: "atan(1,d)", gives: "45" },
  }, Math.atan),
  define(
    "atan2",
    2,
    3,
    {
      family: "arithmetic",
      args: "atan2(<y>, <x>[, <unit>])",
      summary: "The angle of the point (x, y) from the x axis (radians, or d or g).",
      example: { think: "atan2(1,1,d)", gives: "45" },
    },
    (_ev, _f, args) =>
      formatNumber(fromRadians(Math.atan2(toReal(args[0]), toReal(args[1])), args[2])),
  ),
  define(
    "ctu",
    3,
    3,
    {
      family: "arithmetic",
      args: "ctu(<angle>, <from>, <to>)",
      summary: "The angle converted between units: r (radians), d (degrees), g (gradians).",
      example: { think: "ctu(180,d,r)", gives: "3.141592653589793" },
    },
    (_ev, _f, args) => formatNumber(fromRadians(toRadians(toReal(args[0]), args[1]), args[2])),
  ),
  define("dist2d", 4, 4, {
    family: "arithmetic",
    args: "dist2d(<x1>, <y1>, <x2>, <y2>)",
    summary: "The distance between two points.",
    example: { think: "dist2d(0,0,3,4)", gives: "5" },
  }, (_ev, _f, args) => {
    const dx = toReal(args[0]) - toReal(args[2]), dy = toReal(args[1]) - toReal(args[3]);
    return formatNumber(Math.sqrt(dx * dx + dy * dy));
  }),
  define("dist3d", 6, 6, {
    family: "arithmetic",
    args: "dist3d(<x1>, <y1>, <z1>, <x2>, <y2>, <z2>)",
    summary: "The distance between two points in space.",
    example: { think: "dist3d(0,0,0,1,2,2)", gives: "3" },
  }, (_ev, _f, args) => {
    const dx = toReal(args[0]) - toReal(args[3]);
    const dy = toReal(args[1]) - toReal(args[4]);
    const dz = toReal(args[2]) - toReal(args[5]);
    return formatNumber(Math.sqrt(dx * dx + dy * dy + dz * dz));
  }),
  define("vadd", 2, 4, {
    family: "arithmetic",
    args: "vadd(<vector>, <vector>[, <delimiter>[, <output separator>]])",
    summary: "The sum of two vectors (lists of numbers).",
    example: { think: "vadd(1 2 3,1 1 1)", gives: "2 3 4" },
  }, (_ev, _f, args) => vectors("add", args)),
  define("vsub", 2, 4, {
    family: "arithmetic",
    args: "vsub(<vector>, <vector>[, <delimiter>[, <output separator>]])",
    summary: "The first vector minus the second.",
    example: { think: "vsub(1 2 3,1 1 1)", gives: "0 1 2" },
  }, (_ev, _f, args) => vectors("sub", args)),
  define("vmul", 2, 4, {
    family: "arithmetic",
    args: "vmul(<vector>, <vector or number>[, <delimiter>[, <output separator>]])",
    summary: "Each element multiplied by the number, or by the other vector's element.",
    example: { think: "vmul(1 2 3,2)", gives: "2 4 6" },
  }, (_ev, _f, args) => vectors("mul", args)),
  define("vdot", 2, 4, {
    family: "arithmetic",
    args: "vdot(<vector>, <vector>[, <delimiter>[, <output separator>]])",
    summary: "The dot product of two vectors.",
    example: { think: "vdot(1 2 3,4 5 6)", gives: "32" },
  }, (_ev, _f, args) => vectors("dot", args)),
  define("vcross", 2, 4, {
    family: "arithmetic",
    args: "vcross(<vector>, <vector>[, <delimiter>[, <output separator>]])",
    summary: "The cross product of two 3-element vectors.",
    example: { think: "vcross(1 0 0,0 1 0)", gives: "0 0 1" },
  }, (_ev, _f, args) => vectors("cross", args)),
  define("vmag", 1, 2, {
    family: "arithmetic",
    args: "vmag(<vector>[, <delimiter>])",
    summary: "The length of the vector.",
    example: { think: "vmag(3 4)", gives: "5" },
  }, (_ev, _f, args) => {
    const sep = sepOf(args[1]);
    if (typeof sep !== "string") return sep.error;
    if (args[0] === "") return "";
    const sum = squares(splitList(args[0], sep).map(toReal));
    return sum > 0 ? formatNumber(Math.sqrt(sum)) : "0";
  }),
  define("vunit", 1, 2, {
    family: "arithmetic",
    args: "vunit(<vector>[, <delimiter>])",
    summary: "The vector scaled to length 1.",
    example: { think: "vunit(3 4)", gives: "0.6 0.8" },
  }, (_ev, _f, args) => {
    const sep = sepOf(args[1]);
    if (typeof sep !== "string") return sep.error;
    if (args[0] === "") return "";
    const v = splitList(args[0], sep).map(toReal);
    const sum = squares(v);
    if (!(sum > 0)) return "#-1 CANNOT MAKE UNIT VECTOR FROM ZERO-LENGTH VECTOR";
    const mag = Math.sqrt(sum);
    return v.map((x) => formatNumber(x / mag)).join(sep);
  }),
  define("vdim", 0, 2, {
    family: "arithmetic",
    args: "vdim(<vector>[, <delimiter>])",
    summary: "The number of elements of the vector.",
    example: { think: "vdim(1 2 3)", gives: "3" },
  }, (_ev, _f, args) => {
    if (!args.length) return "0";
    const sep = sepOf(args[1]);
    if (typeof sep !== "string") return sep.error;
    return String(splitList(args[0], sep).length);
  }),
];
