/** The events plugin's records and the payloads of its events on `eventHooks`. */
import type { EventList } from "../../src/plugins/mod.ts";

/** Event statuses (SPEC "Event status"). */
export const EVENT_STATUSES = ["upcoming", "active", "completed", "cancelled"] as const;
export type EventStatus = typeof EVENT_STATUSES[number];

/** RSVP statuses (SPEC "RSVP"); the command word for `declined` is `decline`. */
export const RSVP_STATUSES = ["attending", "maybe", "declined"] as const;
export type RsvpStatus = typeof RSVP_STATUSES[number];

/** An event as stored. */
export interface EventRecord {
  id: string;
  number: number;
  title: string;
  description: string;
  /** ms since the epoch. */
  startTime: number;
  /** ms since the epoch; null when none was given (the event then ends 3 hours after start). */
  endTime: number | null;
  location: string;
  tags: string[];
  /** 0 = unlimited. */
  maxAttendees: number;
  status: EventStatus;
  createdBy: string;
  createdByName: string;
  createdAt: number;
  updatedAt: number;
  /** Bumped by each change of status or times; the scheduler's timers are made for one. */
  rev: number;
}

/** Fields staff may set (REST PATCH, `+event/edit`). */
export interface EventChanges {
  title?: string;
  description?: string;
  location?: string;
  startTime?: number;
  endTime?: number | null;
  tags?: string[];
  maxAttendees?: number;
  status?: EventStatus;
}

/** One player's RSVP. */
export interface Rsvp {
  playerId: string;
  name: string;
  status: RsvpStatus;
  /** When it was given (ms). */
  time: number;
}

/** An event's RSVP counts. */
export interface RsvpCounts {
  attending: number;
  maybe: number;
  declined: number;
}

/** Events starting in a span: `from` included, `to` excluded (ms since 1970; either open). */
export interface TimeSpan {
  from?: number;
  to?: number;
}

/** The bus the calendar's events travel on (SPEC "Events": `eventHooks`). */
export const CALENDAR_BUS = "eventHooks";

/** The payloads of the calendar events, exactly the fields SPEC names. */
export interface CalendarEvents {
  "event:created": { eventId: string; name: string; startTime: number; createdBy: string };
  "event:updated": { eventId: string; changes: EventChanges };
  "event:deleted": { eventId: string };
  "event:started": { eventId: string; name: string };
  "event:ended": { eventId: string; name: string };
  /** `status` is `none` when the player withdrew their RSVP. */
  "event:rsvp": { eventId: string; playerId: string; status: RsvpStatus | "none" };
  "event:cancelled": { eventId: string; name: string };
}

/** When each calendar event fires. */
export const CALENDAR_EVENTS: EventList<CalendarEvents> = {
  "event:created": "an event is created",
  "event:updated": "an event's fields change",
  "event:deleted": "an event is deleted",
  "event:started": "an event reaches its start time",
  "event:ended": "an event reaches its end (start + 3 h without one)",
  "event:rsvp": "a player answers or withdraws an RSVP",
  "event:cancelled": "an event is cancelled",
};

/** How long an event without an end time lasts. */
export const DEFAULT_LENGTH_MS = 3 * 60 * 60 * 1000;

/** When an event ends: its end time, or 3 hours after its start. */
export function endOf(ev: Pick<EventRecord, "startTime" | "endTime">): number {
  return ev.endTime ?? ev.startTime + DEFAULT_LENGTH_MS;
}
