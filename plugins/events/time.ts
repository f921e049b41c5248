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

/**
 * The instant a `YYYY-MM-DD` or `YYYY-MM-DD HH:MM` date names in `zone` (midnight when no time
 * is given), or null when the text is not such a date or names no real day (`2026-13-40`).
 * A wall time skipped by a daylight-saving jump reads as the instant just after it.
 */
export function parseDate(text: string, zone: string): number | null {
  const m = DATE_RE.exec(String(text ?? "").trim());
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const hour = m[4] === undefined ? 0 : Number(m[4]);
  const minute = m[5] === undefined ? 0 : Number(m[5]);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59) return null;
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
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
