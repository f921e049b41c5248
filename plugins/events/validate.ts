/**
 * Checks of what staff write (REST bodies, `+event/edit` values): an allow-list of fields, each
 * bounded, with a clear ValidationError (400) naming the problem. Nothing here writes.
 */
import { oneLine, optionalText, requiredText, s, ValidationError } from "../../src/plugins/mod.ts";
import { EVENT_STATUSES, type EventChanges, type EventStatus, type TimeSpan } from "./types.ts";

export const MAX_TITLE = 200;
export const MAX_DESCRIPTION = 10_000;
export const MAX_LOCATION = 200;
export const MAX_TAGS = 20;
export const MAX_TAG = 32;
export const MAX_ATTENDEES = 100_000;
/** Latest time accepted (the end of year 9999), so every time prints as a date. */
export const MAX_TIME = Date.UTC(9999, 11, 31, 23, 59);

/** What a create needs: the changes plus the required title and start. */
export interface NewEvent extends EventChanges {
  title: string;
  startTime: number;
}

const TIME_JSON = {
  type: "integer",
  minimum: 0,
  maximum: MAX_TIME,
  description: "ms since 1970",
};

/** The fields of an event a body may set, each checked as the commands check it. */
const FIELDS = {
  title: s.custom(
    { type: "string", minLength: 1, maxLength: MAX_TITLE },
    (v) => text(v, "title", MAX_TITLE, true),
  ),
  description: s.optional(s.custom(
    { type: "string", maxLength: MAX_DESCRIPTION },
    (v) => text(v, "description", MAX_DESCRIPTION, false),
  )),
  location: s.optional(s.custom(
    { type: "string", maxLength: MAX_LOCATION },
    (v) => text(v, "location", MAX_LOCATION, false),
  )),
  startTime: s.custom(TIME_JSON, (v) => time(v, "startTime")),
  endTime: s.optional(s.custom(
    { oneOf: [TIME_JSON, { type: "null" }], description: "after startTime; null: 3 hours" },
    (v) => v === null ? null : time(v, "endTime"),
  )),
  tags: s.optional(s.custom({
    description: "an array, or one string separated by commas",
    oneOf: [
      { type: "array", items: { type: "string", maxLength: MAX_TAG }, maxItems: MAX_TAGS },
      { type: "string" },
    ],
  }, tags)),
  maxAttendees: s.optional(s.custom(
    { type: "integer", minimum: 0, maximum: MAX_ATTENDEES, description: "0: unlimited" },
    maxAttendees,
  )),
};

/** The fields as the refusals list them. */
const LISTED = [
  "title",
  "description",
  "startTime",
  "endTime",
  "location",
  "tags",
  "maxAttendees",
] as const;

/** `POST /api/v1/events`: title and startTime required, no field outside the list. */
export const NEW_EVENT = s.object(FIELDS, {
  present: ["title", "startTime"],
  only: true,
  listed: LISTED,
});

/** `PATCH /api/v1/events/:id` and `+event/edit`: at least one field, each checked. */
export const EVENT_CHANGES = s.object({
  ...FIELDS,
  title: s.optional(FIELDS.title),
  startTime: s.optional(FIELDS.startTime),
  status: s.optional(s.custom({ enum: [...EVENT_STATUSES] }, status)),
}, { only: true, listed: [...LISTED, "status"] });

/** The fields `PATCH /api/v1/events/:id` (and `+event/edit`) accepts. */
export const EDIT_FIELDS = [...LISTED, "status"] as const;

/**
 * A text field: a string, trimmed, within `max` characters; `required` refuses empty. Every
 * field but the description is one line (line breaks become spaces), so lists stay lists.
 */
export function text(v: unknown, field: string, max: number, required: boolean): string {
  const opts = { oneLine: field !== "description" };
  return required ? requiredText(v, field, max, opts) : optionalText(v, field, max, opts);
}

/** A time in ms since the epoch (a whole number between 1970 and the end of 9999). */
export function time(v: unknown, field: string): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > MAX_TIME) {
    throw new ValidationError(
      `${field} must be a time in milliseconds since 1970 (a whole number)`,
    );
  }
  return v;
}

/** A query time: ms since 1970 in digits, checked as the bodies' times are. */
const queryTime = (name: string) =>
  s.custom({ type: "string", pattern: "^[0-9]+$", description: "ms since 1970" }, (v) => {
    const n = typeof v === "string" && /^\d{1,16}$/.test(v) ? Number(v) : NaN;
    return time(n, name);
  });

/** The `from` and `to` of an events listing (a calendar asks one month at a time). */
export const SPAN_PARAMS = {
  from: { schema: queryTime("from"), description: "only events starting at or after" },
  to: { schema: queryTime("to"), description: "only events starting before" },
};

/** The span a listing's query asked for; a `to` not after `from` is a 400. */
export function spanOf(q: { from?: number; to?: number }): TimeSpan {
  if (q.from !== undefined && q.to !== undefined && q.to <= q.from) {
    throw new ValidationError("to must be after from");
  }
  return { from: q.from, to: q.to };
}

/** Tags: an array of strings (or a comma-separated string), trimmed, de-duplicated, bounded. */
export function tags(v: unknown): string[] {
  const list = typeof v === "string" ? v.split(",") : v;
  if (!Array.isArray(list) || list.some((t) => typeof t !== "string")) {
    throw new ValidationError("tags must be an array of strings");
  }
  const out: string[] = [];
  for (const raw of list as string[]) {
    const t = oneLine(raw).trim();
    if (!t) continue;
    if ([...t].length > MAX_TAG) {
      throw new ValidationError(`a tag must be ${MAX_TAG} characters or fewer`);
    }
    if (!out.some((x) => x.toLowerCase() === t.toLowerCase())) out.push(t);
  }
  if (out.length > MAX_TAGS) throw new ValidationError(`at most ${MAX_TAGS} tags`);
  return out;
}

/** A whole number from 0 (unlimited) to MAX_ATTENDEES. */
export function maxAttendees(v: unknown): number {
  const n = typeof v === "string" && /^\d+$/.test(v.trim()) ? Number(v) : v;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || n > MAX_ATTENDEES) {
    throw new ValidationError(
      `maxAttendees must be a whole number from 0 (unlimited) to ${MAX_ATTENDEES}`,
    );
  }
  return n;
}

/** One of the event statuses. */
export function status(v: unknown): EventStatus {
  const s = typeof v === "string" ? v.trim().toLowerCase() : v;
  if (!EVENT_STATUSES.includes(s as EventStatus)) {
    throw new ValidationError(`status must be one of ${EVENT_STATUSES.join(", ")}`);
  }
  return s as EventStatus;
}

/** Refuses an end that is not after the start. */
export function checkSpan(start: number, end: number | null): void {
  if (end !== null && end <= start) throw new ValidationError("endTime must be after startTime");
}
