/**
 * Events and RSVPs in the plugin's KV space. Each write is one atomic operation that checks
 * what it read: an event with its number and listing entries; an RSVP with the event and the
 * counts (so two players racing for the last seat cannot both get it).
 */
import {
  ConflictError,
  NotFoundError,
  type Page,
  type PluginAtomic,
  type PluginKv,
  ValidationError,
} from "../../src/plugins/mod.ts";
import { eventKeys, type IndexName } from "./keys.ts";
import type {
  EventChanges,
  EventRecord,
  EventStatus,
  Rsvp,
  RsvpCounts,
  RsvpStatus,
  TimeSpan,
} from "./types.ts";

/** Attempts before a write that keeps losing races gives up with a 409. */
const TRIES = 10;
/** Most RSVPs shown with one event. */
export const MAX_RSVPS_SHOWN = 1000;

const ZERO: RsvpCounts = { attending: 0, maybe: 0, declined: 0 };

/** The listings an event appears in, by status. */
function listingsOf(status: EventStatus): IndexName[] {
  const out: IndexName[] = ["all"];
  if (status !== "cancelled") out.push("visible");
  if (status === "upcoming" || status === "active") out.push("open");
  return out;
}

/** Persistent events and RSVPs. */
export class EventStore {
  constructor(private readonly kv: PluginKv) {}

  /** Creates an event numbered by the plugin's counter; `make` builds it from its number. */
  async create(make: (n: number, id: string) => EventRecord): Promise<EventRecord> {
    let ev: EventRecord | null = null;
    await this.kv.next(eventKeys.counter, (n, op) => {
      ev = make(n, crypto.randomUUID());
      op.check({ key: this.kv.key(...eventKeys.event(ev.id)), versionstamp: null })
        .check({ key: this.kv.key(...eventKeys.byNumber(n)), versionstamp: null })
        .set(this.kv.key(...eventKeys.event(ev.id)), ev)
        .set(this.kv.key(...eventKeys.byNumber(n)), ev.id)
        .set(this.kv.key(...eventKeys.counts(ev.id)), ZERO);
      this.indexMutations(op, null, ev);
    });
    return ev!;
  }

  /** One event, or null. */
  get(id: string): Promise<EventRecord | null> {
    return this.kv.get<EventRecord>(eventKeys.event(id));
  }

  /** One event with its versionstamp. */
  entry(id: string): Promise<Deno.KvEntryMaybe<EventRecord>> {
    return this.kv.getEntry<EventRecord>(eventKeys.event(id));
  }

  /** The id of event number `n`, or null. */
  idOf(n: number): Promise<string | null> {
    return this.kv.get<string>(eventKeys.byNumber(n));
  }

  /**
   * Changes an event: `change` gets the current record and returns the next one (or throws to
   * refuse); listing entries follow its status and start. Returns both versions.
   */
  async update(
    id: string,
    change: (ev: EventRecord) => EventRecord,
  ): Promise<{ before: EventRecord; after: EventRecord }> {
    for (let i = 0; i < TRIES; i++) {
      const entry = await this.entry(id);
      if (!entry.value) throw new NotFoundError("No such event.");
      const after = change(structuredClone(entry.value));
      const op = this.kv.atomic().check(entry).set(this.kv.key(...eventKeys.event(id)), after);
      this.indexMutations(op, entry.value, after);
      if ((await op.commit()).ok) return { before: entry.value, after };
    }
    throw new ConflictError("The event kept changing; try again.");
  }

  /**
   * Adds to `op` the writes that move an event to `status` (the scheduler's moves: the
   * revision stays, so the event's other timers stay valid).
   */
  moveMutations(
    op: PluginAtomic,
    entry: Deno.KvEntry<EventRecord>,
    status: EventStatus,
    now: number,
  ): EventRecord {
    const after = { ...entry.value, status, updatedAt: now };
    op.check(entry).set(this.kv.key(...eventKeys.event(after.id)), after);
    this.indexMutations(op, entry.value, after);
    return after;
  }

  /** Deletes an event, its number and listings, then its RSVPs; returns it (null: none). */
  async delete(id: string): Promise<EventRecord | null> {
    for (let i = 0; i < TRIES; i++) {
      const entry = await this.entry(id);
      if (!entry.value) return null;
      const ev = entry.value;
      const op = this.kv.atomic().check(entry)
        .delete(this.kv.key(...eventKeys.event(id)))
        .delete(this.kv.key(...eventKeys.byNumber(ev.number)))
        .delete(this.kv.key(...eventKeys.counts(id)));
      this.indexMutations(op, ev, null);
      if ((await op.commit()).ok) {
        // The event is gone for everyone from here; its RSVPs go in batches after it.
        await this.#deleteRsvps(id);
        return ev;
      }
    }
    throw new ConflictError("The event kept changing; try again.");
  }

  /** One page of a listing (soonest first). */
  async list(index: IndexName, page: Page, span: TimeSpan = {}): Promise<EventRecord[]> {
    if (span.from === undefined && span.to === undefined) {
      return this.kv.slicePage<EventRecord>(eventKeys.indexOf(index), page, {
        record: (id) => eventKeys.event(id as string),
      });
    }
    // The index is ordered by start time, so a span is one range of it; the page is counted
    // inside the span (limit at most 200 and the offset skipped: both bounded by the paging).
    const prefix = eventKeys.indexOf(index);
    const start = span.from === undefined ? prefix : [...prefix, span.from];
    const end = span.to === undefined ? [...prefix, Number.MAX_VALUE] : [...prefix, span.to];
    const ids: string[] = [];
    const it = this.kv.range<string>(start, end, { limit: page.offset + page.limit });
    let i = 0;
    for await (const e of it) if (i++ >= page.offset) ids.push(e.value);
    return (await this.kv.getMany<EventRecord>(ids.map((id) => eventKeys.event(id))))
      .filter((v): v is EventRecord => v !== null && typeof v === "object");
  }

  /** Every id in a listing, in batches (for the start-up check of the open events). */
  async *ids(index: IndexName): AsyncGenerator<string> {
    for await (const e of this.kv.list<string>(eventKeys.indexOf(index))) yield e.value;
  }

  /** RSVP counts of each event, in order. */
  async counts(ids: string[]): Promise<RsvpCounts[]> {
    const got = await this.kv.getMany<RsvpCounts>(ids.map((id) => eventKeys.counts(id)));
    return got.map((c) => c ?? ZERO);
  }

  /** One player's RSVPs to each event (null where none), in order. */
  mine(ids: string[], playerId: string): Promise<(Rsvp | null)[]> {
    return this.kv.getMany<Rsvp>(ids.map((id) => eventKeys.rsvp(id, playerId)));
  }

  /** An event's RSVPs (at most MAX_RSVPS_SHOWN), in player id order. */
  rsvps(eventId: string): Promise<Rsvp[]> {
    return this.kv.values<Rsvp>(eventKeys.rsvpsOf(eventId), MAX_RSVPS_SHOWN);
  }

  /** Ids of the players attending an event. */
  async attending(eventId: string): Promise<string[]> {
    const out: string[] = [];
    for await (const e of this.kv.list<Rsvp>(eventKeys.rsvpsOf(eventId))) {
      if (e.value.status === "attending") out.push(e.value.playerId);
    }
    return out;
  }

  /**
   * Sets a player's RSVP (replacing an earlier one). Refused: no such event (404), a completed
   * or cancelled one (400), `attending` when the event is full (409). Returns the RSVP and
   * the event.
   */
  async rsvp(
    eventId: string,
    player: { id: string; name: string },
    status: RsvpStatus,
    now: number,
  ): Promise<{ rsvp: Rsvp; event: EventRecord }> {
    for (let i = 0; i < TRIES; i++) {
      const [ev, old, counts] = await this.#rsvpState(eventId, player.id);
      refuseClosed(ev.value);
      const was = old.value?.status;
      const max = ev.value.maxAttendees;
      if (status === "attending" && was !== "attending" && max > 0) {
        if (counts.value!.attending >= max) {
          throw new ConflictError(`That event is full (${max} attending).`);
        }
      }
      const rsvp: Rsvp = { playerId: player.id, name: player.name, status, time: now };
      const next = adjust(adjust(counts.value!, was, -1), status, 1);
      const ok = await this.kv.atomic().check(ev, old, counts)
        .set(this.kv.key(...eventKeys.rsvp(eventId, player.id)), rsvp)
        .set(this.kv.key(...eventKeys.byPlayer(player.id, eventId)), eventId)
        .set(this.kv.key(...eventKeys.counts(eventId)), next)
        .commit();
      if (ok.ok) return { rsvp, event: ev.value };
    }
    throw new ConflictError("Too many RSVPs at once; try again.");
  }

  /** Withdraws a player's RSVP; the same refusals as `rsvp`, and 404 when there is none. */
  async unrsvp(eventId: string, playerId: string): Promise<{ rsvp: Rsvp; event: EventRecord }> {
    for (let i = 0; i < TRIES; i++) {
      const [ev, old, counts] = await this.#rsvpState(eventId, playerId);
      refuseClosed(ev.value);
      if (!old.value) throw new NotFoundError("You have not RSVPed to that event.");
      const ok = await this.kv.atomic().check(ev, old, counts)
        .delete(this.kv.key(...eventKeys.rsvp(eventId, playerId)))
        .delete(this.kv.key(...eventKeys.byPlayer(playerId, eventId)))
        .set(this.kv.key(...eventKeys.counts(eventId)), adjust(counts.value!, old.value.status, -1))
        .commit();
      if (ok.ok) return { rsvp: old.value, event: ev.value };
    }
    throw new ConflictError("Too many RSVPs at once; try again.");
  }

  /**
   * Removes every RSVP of a player who is gone (whatever the events' status), keeping the
   * counts right; returns the ids of the events they had RSVPed to.
   */
  async forgetPlayer(playerId: string): Promise<string[]> {
    const events: string[] = [];
    for await (const e of this.kv.list<string>(eventKeys.byPlayerOf(playerId))) {
      const eventId = e.value;
      for (let i = 0; i < TRIES; i++) {
        const [old, counts] = await Promise.all([
          this.kv.getEntry<Rsvp>(eventKeys.rsvp(eventId, playerId)),
          this.kv.getEntry<RsvpCounts>(eventKeys.counts(eventId)),
        ]);
        const op = this.kv.atomic().check(old, counts).delete(e.key)
          .delete(this.kv.key(...eventKeys.rsvp(eventId, playerId)));
        if (counts.value && old.value) {
          op.set(
            this.kv.key(...eventKeys.counts(eventId)),
            adjust(counts.value, old.value.status, -1),
          );
        }
        if ((await op.commit()).ok) {
          if (old.value) events.push(eventId);
          break;
        }
      }
    }
    return events;
  }

  /** Deletes an event's RSVPs and their player index entries, in atomic batches. */
  async #deleteRsvps(eventId: string): Promise<void> {
    let batch: Rsvp[] = [];
    const flush = async () => {
      const op = this.kv.atomic();
      for (const r of batch) {
        op.delete(this.kv.key(...eventKeys.rsvp(eventId, r.playerId)))
          .delete(this.kv.key(...eventKeys.byPlayer(r.playerId, eventId)));
      }
      await op.commit();
      batch = [];
    };
    for await (const e of this.kv.list<Rsvp>(eventKeys.rsvpsOf(eventId))) {
      batch.push(e.value);
      if (batch.length === 200) await flush();
    }
    if (batch.length) await flush();
  }

  /** The timers stored for an event (ids and the revision they were made for), or null. */
  timers(eventId: string): Promise<StoredTimers | null> {
    return this.kv.get<StoredTimers>(eventKeys.timers(eventId));
  }

  /** Each event with the timers recorded for it (null where missing), in order, read in batches. */
  async withTimers(
    ids: string[],
  ): Promise<{ event: EventRecord | null; timers: StoredTimers | null }[]> {
    const got = await this.kv.getMany<unknown>(
      ids.flatMap((id) => [eventKeys.event(id), eventKeys.timers(id)]),
    );
    return ids.map((_, i) => ({
      event: got[2 * i] as EventRecord | null,
      timers: got[2 * i + 1] as StoredTimers | null,
    }));
  }

  /** Records the timers made for an event (null: forget them). */
  async setTimers(eventId: string, timers: StoredTimers | null): Promise<void> {
    if (timers) await this.kv.set(eventKeys.timers(eventId), timers);
    else await this.kv.delete(eventKeys.timers(eventId));
  }

  async #rsvpState(eventId: string, playerId: string) {
    const [ev, old, counts] = await Promise.all([
      this.entry(eventId),
      this.kv.getEntry<Rsvp>(eventKeys.rsvp(eventId, playerId)),
      this.kv.getEntry<RsvpCounts>(eventKeys.counts(eventId)),
    ]);
    if (!ev.value) throw new NotFoundError("No such event.");
    const withCounts = counts.value ? counts : { ...counts, value: { ...ZERO } };
    return [ev as Deno.KvEntry<EventRecord>, old, withCounts] as const;
  }

  /** Listing entries of `before` removed and those of `after` added (either may be null). */
  private indexMutations(
    op: PluginAtomic,
    before: EventRecord | null,
    after: EventRecord | null,
  ): void {
    if (before) {
      for (const name of listingsOf(before.status)) {
        op.delete(this.kv.key(...eventKeys.index(name, before.startTime, before.id)));
      }
    }
    if (after) {
      for (const name of listingsOf(after.status)) {
        op.set(this.kv.key(...eventKeys.index(name, after.startTime, after.id)), after.id);
      }
    }
  }
}

/** The timers scheduled for one event. */
export interface StoredTimers {
  rev: number;
  ids: string[];
}

/** RSVPs are closed on completed and cancelled events (400). */
function refuseClosed(ev: EventRecord): void {
  if (ev.status === "completed") {
    throw new ValidationError("That event is over; RSVPs are closed.");
  }
  if (ev.status === "cancelled") {
    throw new ValidationError("That event was cancelled; RSVPs are closed.");
  }
}

function adjust(c: RsvpCounts, status: RsvpStatus | undefined, by: number): RsvpCounts {
  if (!status) return c;
  return { ...c, [status]: Math.max(0, c[status] + by) };
}

/** The changes between two versions of an event, field by field. */
export function changedFields(before: EventRecord, after: EventRecord): EventChanges {
  const out: Record<string, unknown> = {};
  const fields = [
    "title",
    "description",
    "location",
    "startTime",
    "endTime",
    "tags",
    "maxAttendees",
    "status",
  ] as const;
  for (const f of fields) {
    if (JSON.stringify(before[f]) !== JSON.stringify(after[f])) out[f] = after[f];
  }
  return out as EventChanges;
}
