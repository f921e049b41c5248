/**
 * Dates in the game's time zone (`plugins.events.timezone`): `YYYY-MM-DD` or
 * `YYYY-MM-DD HH:MM` read as wall time there, and times shown back in the same form with the
 * zone named. Built on Intl alone, so any IANA zone the runtime knows works, with its
 * daylight-saving rules.
 */

/** The zone used when none is configured, or the configured one is unknown. */
export const DEFAULT_ZONE = "UTC";

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{1,2}):(\d{2}))?$/;

/** True when the runtime knows `zone` as an IANA time zone. */
export function validZone(zone: unknown): zone is string {
  if (typeof zone !== "string" || zone.trim() === "") return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Wall-clock parts of an instant in `zone`. */
function wallParts(ms: number, zone: string) {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    weekday: "short",
    timeZoneName: "short",
  }).formatToParts(new Date(ms));
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "";
  return {
    year: Number(get("year")),
    month: Number(get("month")),
    day: Number(get("day")),
    hour: Number(get("hour")),
    minute: Number(get("minute")),
    second: Number(get("second")),
    weekday: get("weekday"),
    zoneName: get("timeZoneName"),
  };
}

/** How far `zone`'s wall clock is ahead of UTC at the instant `ms`. */
function offsetAt(ms: number, zone: string): number {
  const w = wallParts(ms, zone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** A word for a day, then an optional `HH:MM`. */
const RELATIVE_RE = /^([a-z]+)(?:[ T](\d{1,2}):(\d{2}))?$/i;

/** Weekdays in `Date.getUTCDay` order. */
const DAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];

/** The weekday a word names (its full name or first three letters), or -1. */
function weekdayOf(word: string): number {
  return DAYS.findIndex((d) => d === word || d.slice(0, 3) === word);
}

/**
 * The instant a date names in `zone` (midnight when no time is given), or null when the text is
 * not a date or names no real day (`2026-13-40`). A date is `YYYY-MM-DD`, or `today`, `tomorrow`
 * or a weekday (`friday`, `fri`: the soonest such day whose time is still ahead of `now`, today
 * included), each with an optional ` HH:MM`. A wall time skipped by a daylight-saving jump reads
 * as the instant just after it.
 */
export function parseDate(text: string, zone: string, now = Date.now()): number | null {
  const t = String(text ?? "").trim();
  const m = DATE_RE.exec(t);
  if (m) {
    const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (month < 1 || month > 12 || day < 1) return null;
    if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
    return wallToInstant(year, month, day, m[4], m[5], zone);
  }
  const r = RELATIVE_RE.exec(t);
  if (!r) return null;
  const word = r[1].toLowerCase();
  const today = wallParts(now, zone);
  const at = (ahead: number) => {
    // Date.UTC rolls the day over into the next month or year.
    const d = new Date(Date.UTC(today.year, today.month - 1, today.day + ahead));
    return wallToInstant(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), r[2], r[3], zone);
  };
  if (word === "today") return at(0);
  if (word === "tomorrow") return at(1);
  const weekday = weekdayOf(word);
  if (weekday === -1) return null;
  const ahead = (weekday - weekdayOf(today.weekday.toLowerCase()) + 7) % 7;
  const first = at(ahead);
  return first === null || ahead > 0 || first > now ? first : at(7);
}

/** The instant of a wall date and optional `HH`/`MM` in `zone`, or null for a bad time. */
function wallToInstant(
  year: number,
  month: number,
  day: number,
  hh: string | undefined,
  mm: string | undefined,
  zone: string,
): number | null {
  const hour = hh === undefined ? 0 : Number(hh);
  const minute = mm === undefined ? 0 : Number(mm);
  if (hour > 23 || minute > 59) return null;
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  // Two rounds settle the offset, also across a daylight-saving change.
  let ms = wall - offsetAt(wall, zone);
  ms = wall - offsetAt(ms, zone);
  return ms;
}

/** `2026-03-14 20:00 EDT`: an instant as wall time in `zone`, the zone named. */
export function formatTime(ms: number, zone: string): string {
  const w = wallParts(ms, zone);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${w.weekday} ${w.year}-${p(w.month)}-${p(w.day)} ${p(w.hour)}:${p(w.minute)} ${
    w.zoneName || zone
  }`;
}
