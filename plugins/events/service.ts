/**
 * The calendar's rules in one place, for the REST routes and the commands alike: who sees
 * which event, creating and changing events (with their hooks), RSVPs, and the scheduler
 * that moves events to `active` and `completed` on the platform's persistent timers.
 */
import {
  counted,
  type DbObject,
  type DueJob,
  isStaff,
  NotFoundError,
  type Page,
  type PluginBus,
  type PluginContext,
  ValidationError,
} from "../../src/plugins/mod.ts";
import { changedFields, EventStore } from "./store.ts";
import type { NewEvent } from "./validate.ts";
import { checkSpan } from "./validate.ts";
import {
  CALENDAR_BUS,
  CALENDAR_EVENTS,
  type CalendarEvents,
  endOf,
  type EventChanges,
  type EventRecord,
  type Rsvp,
  type RsvpCounts,
  type RsvpStatus,
  type TimeSpan,
} from "./types.ts";
import { DEFAULT_ZONE, formatTime, validZone } from "./time.ts";

/** Default for `plugins.events.reminderMinutes`. */
export const DEFAULT_REMINDER_MINUTES = 15;
/** How far before now a new event may start (a time typed as "now" a moment ago). */
const PAST_GRACE_MS = 60_000;
/** Open events checked together at start-up (two keys each, read in parallel batches). */
const START_BATCH = 50;

/** An event as the API answers it: the record without bookkeeping, plus its RSVP counts. */
export type EventView = Omit<EventRecord, "rev"> & { rsvpCounts: RsvpCounts };

/** One event with its RSVP list. */
export type EventDetail = EventView & { rsvps: Rsvp[] };

/** A timer's payload: the event and the revision the timer was made for. */
interface TimerPayload {
  eventId: string;
  rev: number;
}

/** The calendar over its store, timers, hooks and delivery. */
export class EventService {
  readonly store: EventStore;
  readonly #ctx: PluginContext;
  readonly #hooks: PluginBus<CalendarEvents>;
  /** Timer changes run one at a time, so two edits never leave two sets of timers. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(ctx: PluginContext) {
    this.#ctx = ctx;
    this.store = new EventStore(ctx.kv);
    this.#hooks = ctx.hooks.declare<CalendarEvents>(CALENDAR_BUS, CALENDAR_EVENTS);
  }

  /** The game's time zone (`plugins.events.timezone`; UTC when unset or unknown). */
  get zone(): string {
    const z = this.#ctx.config.timezone;
    return validZone(z) ? z : DEFAULT_ZONE;
  }

  /** Minutes before the start that attending players are reminded (0: no reminder). */
  get reminderMinutes(): number {
    const n = Number(this.#ctx.config.reminderMinutes ?? DEFAULT_REMINDER_MINUTES);
    return Number.isFinite(n) && n >= 0 ? Math.min(n, 7 * 24 * 60) : DEFAULT_REMINDER_MINUTES;
  }

  /** The scheduler's clock. */
  now(): number {
    return this.#ctx.timers.now();
  }

  /** A time shown in the game's zone. */
  when(ms: number): string {
    return formatTime(ms, this.zone);
  }

  /** Registers the timer handlers and makes sure every open event has its timers. */
  async start(): Promise<void> {
    this.#ctx.timers.on("start", (job) => this.#onStart(job));
    this.#ctx.timers.on("end", (job) => this.#onEnd(job));
    this.#ctx.timers.on("remind", (job) => this.#onRemind(job));
    // Timers are made after the event's commit: an engine stopped in between left an event
    // without them. Only open events can need timers, and their listing is an index.
    // The event and its timer record are read together, a batch of events at a time.
    const batch: string[] = [];
    const check = async () => {
      for (const { event, timers } of await this.store.withTimers(batch.splice(0))) {
        if (event && timers?.rev !== event.rev) await this.#reschedule(event.id);
      }
    };
    for await (const id of this.store.ids("open")) {
      if (batch.push(id) >= START_BATCH) await check();
    }
    await check();
  }

  /** One page of events as `viewer` may see them (players never see cancelled ones). */
  async list(viewer: DbObject, page: Page, span: TimeSpan = {}): Promise<EventView[]> {
    const index = isStaff(viewer.flags) ? "all" : "visible";
    return await this.views(await this.store.list(index, page, span));
  }

  /** Records with their counts. */
  async views(events: EventRecord[]): Promise<EventView[]> {
    const counts = await this.store.counts(events.map((e) => e.id));
    return events.map((e, i) => view(e, counts[i]));
  }

  /** An event `viewer` may see, or a 404. */
  async visible(id: string, viewer: DbObject): Promise<EventRecord> {
    const ev = await this.store.get(id);
    if (!ev || (ev.status === "cancelled" && !isStaff(viewer.flags))) {
      throw new NotFoundError("No such event.");
    }
    return ev;
  }

  /**
   * An event to RSVP to, whatever its status (404 only when there is none): the design answers
   * an RSVP to a cancelled event with 400, which the RSVP itself gives.
   */
  async forRsvp(id: string): Promise<EventRecord> {
    const ev = await this.store.get(id);
    if (!ev) throw new NotFoundError("No such event.");
    return ev;
  }

  /** Event number `n` as `viewer` may see it (`rsvp`: whatever its status), or a 404. */
  async byNumber(n: number, viewer: DbObject, rsvp = false): Promise<EventRecord> {
    const id = Number.isSafeInteger(n) && n > 0 ? await this.store.idOf(n) : null;
    if (!id) throw new NotFoundError(`There is no event #${n}.`);
    return await (rsvp ? this.forRsvp(id) : this.visible(id, viewer)).catch(() => {
      throw new NotFoundError(`There is no event #${n}.`);
    });
  }

  /** One event with its RSVP list. */
  async detail(ev: EventRecord): Promise<EventDetail> {
    const [[counts], rsvps] = await Promise.all([
      this.store.counts([ev.id]),
      this.store.rsvps(ev.id),
    ]);
    return { ...view(ev, counts), rsvps };
  }

  /** Creates an event (status `upcoming`) and schedules it. */
  async create(input: NewEvent, actor: DbObject): Promise<EventRecord> {
    checkSpan(input.startTime, input.endTime ?? null);
    // A new event in the past is a typo (a wrong year, say): it would be completed at once and
    // no one could come. A minute's grace for "now".
    if (input.startTime < this.now() - PAST_GRACE_MS) {
      throw new ValidationError(
        `The start time (${this.when(input.startTime)}) is in the past; give a future date.`,
      );
    }
    const now = Date.now();
    const ev = await this.store.create((number, id) => ({
      id,
      number,
      title: input.title,
      description: input.description ?? "",
      startTime: input.startTime,
      endTime: input.endTime ?? null,
      location: input.location ?? "",
      tags: input.tags ?? [],
      maxAttendees: input.maxAttendees ?? 0,
      status: "upcoming",
      createdBy: actor.id,
      createdByName: actor.name,
      createdAt: now,
      updatedAt: now,
      rev: 1,
    }));
    await this.#reschedule(ev.id);
    void this.#hooks.emit("event:created", {
      eventId: ev.id,
      name: ev.title,
      startTime: ev.startTime,
      createdBy: actor.id,
    });
    return ev;
  }

  /**
   * Applies checked changes. A change of times or status gives the event new timers (the old
   * ones no longer match its revision). Fires `event:updated` with the changed fields, and
   * `event:cancelled` when it became cancelled.
   */
  async update(id: string, changes: EventChanges): Promise<EventRecord> {
    const { before, after } = await this.store.update(id, (ev) => {
      const next: EventRecord = { ...ev, ...changes };
      checkSpan(next.startTime, next.endTime);
      const timing = next.startTime !== ev.startTime || next.endTime !== ev.endTime ||
        next.status !== ev.status;
      if (timing) next.rev = ev.rev + 1;
      next.updatedAt = Date.now();
      return next;
    });
    const diff = changedFields(before, after);
    if (after.rev !== before.rev) await this.#reschedule(id);
    if (Object.keys(diff).length) {
      void this.#hooks.emit("event:updated", { eventId: id, changes: diff });
    }
    if (after.status === "cancelled" && before.status !== "cancelled") {
      void this.#hooks.emit("event:cancelled", { eventId: id, name: after.title });
    }
    return after;
  }

  /** Deletes an event and its RSVPs; its timers are cancelled. */
  async remove(id: string): Promise<EventRecord> {
    const ev = await this.store.delete(id);
    if (!ev) throw new NotFoundError("No such event.");
    await this.#reschedule(id);
    void this.#hooks.emit("event:deleted", { eventId: id });
    return ev;
  }

  /** RSVPs as `player`. */
  async rsvp(ev: EventRecord, player: DbObject, status: RsvpStatus): Promise<Rsvp> {
    const { rsvp } = await this.store.rsvp(ev.id, player, status, Date.now());
    void this.#hooks.emit("event:rsvp", { eventId: ev.id, playerId: player.id, status });
    return rsvp;
  }

  /** Withdraws `player`'s RSVP. */
  async unrsvp(ev: EventRecord, player: DbObject): Promise<Rsvp> {
    const { rsvp } = await this.store.unrsvp(ev.id, player.id);
    void this.#hooks.emit("event:rsvp", { eventId: ev.id, playerId: player.id, status: "none" });
    return rsvp;
  }

  /** Drops the RSVPs of a player who was toaded or destroyed (each fires `event:rsvp` `none`). */
  async forgetPlayer(playerId: string): Promise<void> {
    for (const eventId of await this.store.forgetPlayer(playerId)) {
      void this.#hooks.emit("event:rsvp", { eventId, playerId, status: "none" });
    }
  }

  /**
   * Replaces an event's timers with those its current state needs: a start while upcoming,
   * an end while upcoming or active, a reminder while upcoming and before its time. A
   * deleted, cancelled or completed event gets none.
   */
  #reschedule(id: string): Promise<void> {
    const run = this.#queue.then(async () => {
      const old = await this.store.timers(id);
      for (const t of old?.ids ?? []) await this.#ctx.timers.cancel(t);
      const ev = await this.store.get(id);
      if (!ev || ev.status === "cancelled" || ev.status === "completed") {
        if (old) await this.store.setTimers(id, null);
        return;
      }
      const payload: TimerPayload = { eventId: id, rev: ev.rev };
      const ids: string[] = [];
      if (ev.status === "upcoming") {
        ids.push(await this.#ctx.timers.at(ev.startTime, "start", payload));
        const remindAt = ev.startTime - this.reminderMinutes * 60_000;
        if (this.reminderMinutes > 0 && remindAt > this.now()) {
          ids.push(await this.#ctx.timers.at(remindAt, "remind", payload));
        }
      }
      ids.push(await this.#ctx.timers.at(endOf(ev), "end", payload));
      await this.store.setTimers(id, { rev: ev.rev, ids });
    });
    this.#queue = run.catch(() => {});
    return run;
  }

  /** The event a timer was made for, when it is still in the state the timer expects. */
  async #current(job: DueJob) {
    const { eventId, rev } = job.payload as TimerPayload;
    const entry = await this.store.entry(eventId);
    if (!entry.value || entry.value.rev !== rev) return null;
    return entry as Deno.KvEntry<EventRecord>;
  }

  async #onStart(job: DueJob): Promise<void> {
    const entry = await this.#current(job);
    // Staff made it active early, or ended or cancelled it: nothing to start.
    if (!entry || entry.value.status !== "upcoming") return;
    const ev = this.store.moveMutations(job.atomic, entry, "active", this.now());
    job.after(async () => {
      await this.#tellAttending(ev, `%ch[Events]%cn ${label(ev)} is starting now${where(ev)}.`);
      await this.#hooks.emit("event:started", { eventId: ev.id, name: ev.title });
    });
  }

  async #onEnd(job: DueJob): Promise<void> {
    const entry = await this.#current(job);
    const status = entry?.value.status;
    if (!entry || (status !== "upcoming" && status !== "active")) return;
    const ev = this.store.moveMutations(job.atomic, entry, "completed", this.now());
    job.after(() => this.#hooks.emit("event:ended", { eventId: ev.id, name: ev.title }));
  }

  async #onRemind(job: DueJob): Promise<void> {
    const entry = await this.#current(job);
    const ev = entry?.value;
    // A reminder that comes due late (the engine was down) is dropped once the event began.
    if (!ev || ev.status !== "upcoming" || this.now() >= ev.startTime) return;
    const minutes = Math.max(1, Math.round((ev.startTime - this.now()) / 60_000));
    job.after(() =>
      this.#tellAttending(
        ev,
        `%ch[Events]%cn Reminder: ${label(ev)} starts in ${counted(minutes, "minute")}, at ${
          this.when(ev.startTime)
        }${where(ev)}.`,
      )
    );
  }

  async #tellAttending(ev: EventRecord, msg: string): Promise<void> {
    const ids = await this.store.attending(ev.id);
    this.#ctx.deliver.toPlayers(ids, {
      msg,
      data: { type: "event", eventId: ev.id, number: ev.number, status: ev.status },
    });
  }
}

/** `#3 'Title'`. */
export function label(ev: Pick<EventRecord, "number" | "title">): string {
  return `#${ev.number} '${ev.title}'`;
}

function where(ev: EventRecord): string {
  return ev.location ? ` (${ev.location})` : "";
}

function view(ev: EventRecord, rsvpCounts: RsvpCounts): EventView {
  const { rev: _rev, ...rest } = ev;
  return { ...rest, rsvpCounts };
}
