/**
 * Durations and formatted times, as TinyMUX 2.12 writes them: timefmt() (strftime's codes after
 * `$`), etimefmt() (a duration's codes, with width and the x and z modifiers), and exptime(),
 * writetime(), singletime(), digittime(). A year is 365.2422 days (31,556,926 seconds) and a
 * month a twelfth of it, as in MUX.
 */
import { define } from "./define.ts";
import type { FunctionDef } from "../types.ts";
import { toInt } from "../numbers.ts";
import { dateAt, DAY_NAMES, MONTH_NAMES } from "./time.ts";
import { counted } from "../../text/plural.ts";

/** The units of a duration, largest first: seconds, short name, long name. */
const UNITS: readonly [number, string, string][] = [
  [31556926, "y", "year"],
  [2629743, "M", "month"],
  [604800, "w", "week"],
  [86400, "d", "day"],
  [3600, "h", "hour"],
  [60, "m", "minute"],
  [1, "s", "second"],
];

/**
 * Whole seconds of a duration argument: MUX reads a number's integer part as its 32-bit int
 * (99999999999 wraps as it does), and below 0 as 0.
 */
function seconds(arg: string): number {
  return Math.max(0, toInt(arg) | 0);
}

/**
 * etimefmt()'s seconds as MUX 2.12 reads them: whole seconds of a plain decimal (`-1.5` is -1,
 * `5.` is 5), and 0 for anything else (`+5`, `.5`, `1e3`, `5abc`).
 */
function durationSeconds(arg: string): number {
  const m = /^\s*(-?)(\d+)(?:\.(\d*))?\s*$/.exec(arg);
  if (!m) return 0;
  const [, sign, digits, frac = ""] = m;
  // Up to 11 digits the 100 ns ticks below fit in 64 bits: the whole seconds are the answer.
  if (digits.length <= 11) return Number(sign + digits) || 0;
  return hugeDurationSeconds(sign, digits, frac);
}

/**
 * MUX 2.12 reads a duration as 100 ns ticks in 64 bits: the seconds times 10,000,000 plus the
 * fraction's first seven digits, wrapping as C's 64-bit arithmetic does; a number of 57
 * characters or more (sign and whole digits) is the largest or smallest count instead. Recorded
 * in mux_cases_s53fix.txt (a 400-digit number once answered `Infinity NaN`).
 */
function hugeDurationSeconds(sign: string, digits: string, frac: string): number {
  if (sign.length + digits.length >= 57) return sign ? -922337203685 : 922337203685;
  const part = BigInt(digits) * 10_000_000n + BigInt((frac + "0000000").slice(0, 7));
  const ticks = BigInt.asIntN(64, sign ? -part : part);
  return Number(ticks / 10_000_000n);
}

/** A duration in each unit (years down to seconds), the larger taking what they can. */
function breakDown(secs: number): number[] {
  let left = secs;
  return UNITS.map(([size]) => {
    const n = Math.floor(left / size);
    left -= n * size;
    return n;
  });
}

/** exptime() and writetime(): each unit that is not zero, and the seconds always. */
function spelled(secs: number, long: boolean): string {
  const parts = breakDown(secs);
  const out: string[] = [];
  UNITS.forEach(([, short, name], i) => {
    const n = parts[i];
    if (n === 0 && short !== "s") return;
    out.push(long ? counted(n, name) : `${n}${short}`);
  });
  return out.join(" ");
}

/** The fields of a date (local time, or UTC). */
interface DateFields {
  y: number;
  mon: number;
  d: number;
  h: number;
  mi: number;
  s: number;
  wday: number;
  yday: number;
  /** Minutes east of UTC. */
  offset: number;
}

function fields(ms: number, utc: boolean): DateFields {
  const t = dateAt(ms);
  const y = utc ? t.getUTCFullYear() : t.getFullYear();
  const mon = utc ? t.getUTCMonth() : t.getMonth();
  const d = utc ? t.getUTCDate() : t.getDate();
  return {
    y,
    mon,
    d,
    h: utc ? t.getUTCHours() : t.getHours(),
    mi: utc ? t.getUTCMinutes() : t.getMinutes(),
    s: utc ? t.getUTCSeconds() : t.getSeconds(),
    wday: utc ? t.getUTCDay() : t.getDay(),
    yday: Math.round((Date.UTC(y, mon, d) - Date.UTC(y, 0, 1)) / 86400000),
    offset: utc ? 0 : -t.getTimezoneOffset(),
  };
}

/** ISO 8601's week number and its year. */
function isoWeek(f: DateFields): { week: number; year: number } {
  const wday = (f.wday + 6) % 7; // Monday 0
  const thursday = f.yday - wday + 3;
  if (thursday < 0) {
    const prev = f.y - 1;
    const len = (Date.UTC(f.y, 0, 1) - Date.UTC(prev, 0, 1)) / 86400000;
    return { week: Math.floor((thursday + len) / 7) + 1, year: prev };
  }
  const len = (Date.UTC(f.y + 1, 0, 1) - Date.UTC(f.y, 0, 1)) / 86400000;
  if (thursday >= len) return { week: 1, year: f.y + 1 };
  return { week: Math.floor(thursday / 7) + 1, year: f.y };
}

const pad = (n: number, w = 2, c = "0") => String(n).padStart(w, c);

/** One timefmt() code's text, or null for a code MUX does not know. */
function timeCode(code: string, f: DateFields, secs: number, plain: boolean): string | null {
  // `$#d`: without leading zeros (MUX passes `#` to its strftime).
  const z = (n: number, w = 2) => plain ? String(n) : pad(n, w);
  const h12 = f.h % 12 || 12;
  switch (code) {
    case "a":
      return DAY_NAMES[f.wday].slice(0, 3);
    case "A":
      return DAY_NAMES[f.wday];
    case "b":
    case "h":
      return MONTH_NAMES[f.mon].slice(0, 3);
    case "B":
      return MONTH_NAMES[f.mon];
    case "c":
      return `${DAY_NAMES[f.wday].slice(0, 3)} ${MONTH_NAMES[f.mon].slice(0, 3)} ${z(f.d)} ${
        z(f.h)
      }:${pad(f.mi)}:${pad(f.s)} ${f.y}`;
    case "C":
      return z(Math.floor(f.y / 100));
    case "d":
      return z(f.d);
    case "D":
    case "x":
      return `${pad(f.mon + 1)}/${pad(f.d)}/${pad(f.y % 100)}`;
    case "e":
      return plain ? String(f.d) : pad(f.d, 2, " ");
    case "F":
      return `${f.y}-${pad(f.mon + 1)}-${pad(f.d)}`;
    case "g":
      return z(isoWeek(f).year % 100);
    case "G":
      return String(isoWeek(f).year);
    case "H":
      return z(f.h);
    case "I":
      return z(h12);
    case "j":
      return z(f.yday + 1, 3);
    case "k":
      return plain ? String(f.h) : pad(f.h, 2, " ");
    case "l":
      return plain ? String(h12) : pad(h12, 2, " ");
    case "m":
      return z(f.mon + 1);
    case "M":
      return z(f.mi);
    case "n":
      return "\r\n";
    case "p":
      return f.h < 12 ? "AM" : "PM";
    case "P":
      return f.h < 12 ? "am" : "pm";
    case "r":
      return `${pad(h12)}:${pad(f.mi)}:${pad(f.s)} ${f.h < 12 ? "AM" : "PM"}`;
    case "R":
      return `${pad(f.h)}:${pad(f.mi)}`;
    case "s":
      return String(secs);
    case "S":
      return z(f.s);
    case "t":
      return "\t";
    case "T":
    case "X":
      return `${pad(f.h)}:${pad(f.mi)}:${pad(f.s)}`;
    case "u":
      return String(f.wday || 7);
    case "U":
      return z(Math.floor((f.yday + 7 - f.wday) / 7));
    case "V":
      return z(isoWeek(f).week);
    case "w":
      return String(f.wday);
    case "W":
      return z(Math.floor((f.yday + 7 - ((f.wday + 6) % 7)) / 7));
    case "y":
      return z(f.y % 100);
    case "Y":
      return String(f.y);
    case "z": {
      const o = Math.abs(f.offset);
      return `${f.offset < 0 ? "-" : "+"}${pad(Math.floor(o / 60))}${pad(o % 60)}`;
    }
    case "Z":
      // MUX's zone name is empty where the system names none; UTC here when asked for.
      return f.offset === 0 && plain ? "" : "";
    case "$":
      return "$";
  }
  return null;
}

/** timefmt(): the format with each `$` code replaced; unknown codes stay as written. */
export function timefmt(format: string, secs: number, utc: boolean): string {
  const f = fields(secs * 1000, utc);
  return format.replace(/\$(#?)([A-Za-z$])?/g, (all, hash: string, code?: string) => {
    if (code === undefined) return all;
    return timeCode(code, f, secs, hash === "#") ?? all;
  });
}

/** etimefmt(): a duration's codes (`$[width][x][z]<s|m|h|d>`, upper case zero-padded). */
export function etimefmt(format: string, secs: number): string {
  // Days are the largest unit here: no years, months or weeks.
  const value: Record<string, number> = {
    // As MUX 2.12's 64-bit arithmetic: a negative duration's units are negative (C division).
    s: secs % 60,
    m: Math.trunc(secs / 60) % 60,
    h: Math.trunc(secs / 3600) % 24,
    d: Math.trunc(secs / 86400),
  };
  return format.replace(
    /\$(\d*)([xXzZ]*)([smhdSMHDn$])?/g,
    (all, width: string, mods: string, code?: string) => {
      if (code === undefined) return all === "$" ? "$" : all;
      if (code === "n") return width || mods ? all : "\r\n";
      if (code === "$") return width || mods ? all : "$";
      const n = value[code.toLowerCase()];
      const lower = mods.toLowerCase();
      if (lower.includes("z") && n === 0) return "";
      const w = width ? Math.min(Number(width), 100) : 0;
      const text = code === code.toUpperCase() ? String(n).padStart(w, "0") : String(n).padStart(w);
      return lower.includes("x") ? text + code.toLowerCase() : text;
    },
  );
}

/** The time family's durations and formats. */
export const durationFunctions: FunctionDef[] = [
  define("timefmt", 1, 3, {
    family: "time",
    args: "timefmt(<format>[, <seconds>[, utc]])",
    summary:
      "A time (now, or seconds since 1970) written by the format's $ codes: $Y $m $d $H $M $S, $a $A $b $B, $j $U $p ...",
    example: { think: "timefmt($A $d $B $Y $H:$M,0,utc)", gives: "Thursday 01 January 1970 00:00" },
    more: "The codes are strftime's, after a $: $a $A weekday, $b $B month, $c date and time, " +
      "$C century, $d day, $D $x m/d/y, $e day space-padded, $F y-m-d, $g $G ISO year, $H $I " +
      "hour (24, 12), $j day of the year, $k $l hour space-padded, $m month, $M minute, $n new " +
      "line, $p $P AM/PM, $r $R $T $X times, $s seconds, $S second, $t tab, $u $w weekday " +
      "number, $U $V $W week, $y $Y year, $z zone offset, $$ a $. $# before a code drops " +
      "leading zeros. Local time, or UTC with a third argument utc.",
  }, (ev, _f, args) => {
    const secs = args.length > 1 ? toInt(args[1]) : Math.floor(ev.ports.now() / 1000);
    return timefmt(args[0], secs, (args[2] ?? "").trim().toLowerCase() === "utc");
  }),
  define("etimefmt", 2, 2, {
    family: "time",
    args: "etimefmt(<format>, <seconds>)",
    summary:
      "A duration written by the format's codes: $s $m $h $d (upper case zero-padded), a width after the $, x for a unit, z for blank when zero.",
    example: { think: "etimefmt($2H:$2M:$2S,3661)", gives: "01:01:01" },
  }, (_ev, _f, args) => etimefmt(args[0], durationSeconds(args[1]))),
  define("exptime", 1, 1, {
    family: "time",
    args: "exptime(<seconds>)",
    summary:
      "A duration in short units: years (y), months (M), weeks, days, hours, minutes, seconds.",
    example: { think: "exptime(123456)", gives: "1d 10h 17m 36s" },
  }, (_ev, _f, args) => spelled(seconds(args[0]), false)),
  define("writetime", 1, 1, {
    family: "time",
    args: "writetime(<seconds>)",
    summary: "A duration in words: years, months, weeks, days, hours, minutes, seconds.",
    example: { think: "writetime(12345)", gives: "3 hours 25 minutes 45 seconds" },
  }, (_ev, _f, args) => spelled(seconds(args[0]), true)),
  define("singletime", 1, 1, {
    family: "time",
    args: "singletime(<seconds>)",
    summary: "A duration in its largest whole unit: 45s, 3h, 1d, 2w, 1M, 3y.",
    example: { think: "singletime(12345)", gives: "3h" },
  }, (_ev, _f, args) => {
    const secs = seconds(args[0]);
    for (const [size, short] of UNITS) {
      if (secs >= size) return `${Math.floor(secs / size)}${short}`;
    }
    return "0s";
  }),
  define("digittime", 1, 1, {
    family: "time",
    args: "digittime(<seconds>)",
    summary: "A duration as hours and minutes (hh:mm), days before them when there are any.",
    example: { think: "digittime(123456)", gives: "1d 10:17" },
  }, (_ev, _f, args) => {
    const secs = seconds(args[0]);
    const days = Math.floor(secs / 86400);
    const hm = `${pad(Math.floor((secs % 86400) / 3600))}:${pad(Math.floor((secs % 3600) / 60))}`;
    return days ? `${days}d ${hm}` : hm;
  }),
  define("startsecs", 0, 0, {
    family: "time",
    args: "startsecs()",
    summary: "When the game started, in seconds since 1970.",
    example: { think: "startsecs()", gives: "1767265200", varies: true },
  }, (ev) => String(Math.floor(ev.ports.game.firstStartedAt / 1000))),
];
