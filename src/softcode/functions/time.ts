/** Time functions: the clock, MUX's ctime form, seconds, and converting between them. */
import { define } from "./define.ts";
import type { FunctionDef } from "../types.ts";
import { toInt } from "../numbers.ts";

/** Weekdays and months, as timefmt() and ctime spell them. */
export const DAY_NAMES = [
  "Sunday",
  "Monday",
  "Tuesday",
  "Wednesday",
  "Thursday",
  "Friday",
  "Saturday",
];
export const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** Most milliseconds from 1970 a date can be (either way): later times are read as this. */
const MAX_DATE_MS = 8.64e15;

/** A date for a time in ms, held within the range a date can have. */
export function dateAt(ms: number): Date {
  return new Date(Math.max(-MAX_DATE_MS, Math.min(MAX_DATE_MS, Number.isFinite(ms) ? ms : 0)));
}

/** Formats a time as MUX's ctime: `Sun Jan 01 12:00:00 2026`. */
export function ctimeText(ms: number, utc = false): string {
  const d = dateAt(ms);
  const get = utc
    ? {
      day: d.getUTCDay(),
      mon: d.getUTCMonth(),
      date: d.getUTCDate(),
      h: d.getUTCHours(),
      m: d.getUTCMinutes(),
      s: d.getUTCSeconds(),
      y: d.getUTCFullYear(),
    }
    : {
      day: d.getDay(),
      mon: d.getMonth(),
      date: d.getDate(),
      h: d.getHours(),
      m: d.getMinutes(),
      s: d.getSeconds(),
      y: d.getFullYear(),
    };
  const two = (n: number) => String(n).padStart(2, "0");
  return `${DAY_NAMES[get.day].slice(0, 3)} ${MONTH_NAMES[get.mon].slice(0, 3)} ${two(get.date)} ${
    two(get.h)
  }:${two(get.m)}:${two(get.s)} ${get.y}`;
}

const MONTHS = MONTH_NAMES.map((m) => m.slice(0, 3).toLowerCase());

/** MUX's convtime: a ctime-style text to seconds, or null. */
export function parseCtime(s: string, utc = false): number | null {
  const m =
    /^\s*(?:[A-Za-z]{3}\s+)?([A-Za-z]{3})\s+(\d{1,2})\s+(\d{1,2}):(\d{2}):(\d{2})\s+(\d{4})\s*$/
      .exec(s);
  if (!m) return null;
  const mon = MONTHS.indexOf(m[1].toLowerCase());
  if (mon < 0) return null;
  const [date, h, mi, sec, y] = [m[2], m[3], m[4], m[5], m[6]].map(Number);
  if (date < 1 || date > 31 || h > 23 || mi > 59 || sec > 59) return null;
  // A day past its month's end (Feb 29 2005, Apr 31) is no date, as in MUX 2.12.
  if (date > new Date(Date.UTC(y, mon + 1, 0)).getUTCDate()) return null;
  const ms = utc
    ? Date.UTC(y, mon, date, h, mi, sec)
    : new Date(y, mon, date, h, mi, sec).getTime();
  return Math.floor(ms / 1000);
}

/** The time family. */
export const timeFunctions: FunctionDef[] = [
  define("starttime", 0, 0, {
    family: "time",
    args: "starttime()",
    summary: "When the game started, in time()'s form.",
    example: { think: "starttime()", gives: "Thu Jan 01 11:00:00 2026", varies: true },
  }, (ev) => ctimeText(ev.ports.game.firstStartedAt)),
  define(
    "time",
    0,
    2,
    {
      family: "time",
      args: "time([utc])",
      summary: "The time now: Thu Jan 01 12:00:00 2026 (local time, or UTC).",
      example: { think: "time(utc)", gives: "Thu Jan 01 12:00:00 2026", varies: true },
    },
    (ev, _f, args) => ctimeText(ev.ports.now(), (args[0] ?? "").toLowerCase() === "utc"),
  ),
  define("secs", 0, 2, {
    family: "time",
    args: "secs()",
    summary: "The time now in seconds since 1970 (UTC).",
    example: { think: "secs()", gives: "1767268800", varies: true },
  }, (ev) => String(Math.floor(ev.ports.now() / 1000))),
  define("convsecs", 1, 3, {
    family: "time",
    args: "convsecs(<seconds>[, utc])",
    summary: "Seconds since 1970 as time() shows a time (local time, or UTC).",
    example: { think: "convsecs(0,utc)", gives: "Thu Jan 01 00:00:00 1970" },
  }, (_ev, _f, args) => {
    const s = toInt(args[0]);
    return ctimeText(s * 1000, (args[1] ?? "").toLowerCase() === "utc");
  }),
  define("convtime", 1, 3, {
    family: "time",
    args: "convtime(<time>[, utc])",
    summary: "A time in time()'s form as seconds since 1970 (#-1 INVALID DATE when it is not one).",
    example: { think: "convtime(Thu Jan 01 00:01:40 1970,utc)", gives: "100" },
  }, (_ev, _f, args) => {
    const v = parseCtime(args[0], (args[1] ?? "").toLowerCase() === "utc");
    return v === null ? "#-1 INVALID DATE" : String(v);
  }),
];
