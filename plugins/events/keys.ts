/**
 * The events plugin's keys, relative to its KV space (`ctx.kv` adds `["plugin", "events"]`).
 * Indexes hold the event id, never a copy; each list is served from one of them.
 */

/** Which listing an index serves. */
export type IndexName =
  /** Every event (staff). */
  | "all"
  /** Every event but cancelled ones (players). */
  | "visible"
  /** Upcoming and active events (`+event/list`). */
  | "open";

export const eventKeys = {
  /** An event by id. */
  event: (id: string) => ["event", id],
  /** Event number → id. */
  byNumber: (n: number) => ["by_number", n],
  /** A listing entry: ordered by start time, then id. */
  index: (name: IndexName, start: number, id: string) => ["idx", name, start, id],
  /** Prefix of one listing. */
  indexOf: (name: IndexName) => ["idx", name],
  /** One player's RSVP to an event. */
  rsvp: (eventId: string, playerId: string) => ["rsvp", eventId, playerId],
  /** Prefix of an event's RSVPs. */
  rsvpsOf: (eventId: string) => ["rsvp", eventId],
  /** A player's RSVP, indexed by player (so a removed player's RSVPs can be found). */
  byPlayer: (playerId: string, eventId: string) => ["rsvp_by_player", playerId, eventId],
  /** Prefix of one player's RSVPs. */
  byPlayerOf: (playerId: string) => ["rsvp_by_player", playerId],
  /** An event's RSVP counts by status (kept with each RSVP in the same commit). */
  counts: (eventId: string) => ["counts", eventId],
  /** The timer ids scheduled for an event, and the event revision they were made for. */
  timers: (eventId: string) => ["timers", eventId],
  /** Counter that numbers events. */
  counter: "event",
};
