/**
 * Persistent timers: jobs stored in KV that survive `@reboot` and a full stop, run by
 * one loop per engine. Deno KV queues are not enough alone: they cap delays at 30 days
 * and deliver at least once, while a job here has no horizon and runs exactly once:
 * its handler's writes commit in the same atomic operation that removes (or re-arms)
 * its record, so a crash before the commit leaves the job due and a crash after it
 * leaves the effect in place.
 */
import { keys } from "../storage/keys.ts";
import { KV_MAX_READ, listIds } from "../storage/kv.ts";
import { type Clock, systemClock, type TimerHandle } from "./clock.ts";

/** What happens to a due job whose owner has no handler for it (the plugin is unloaded). */
export type OrphanPolicy = "wait" | "drop";

/** A stored timer. */
export interface TimerRecord {
  id: string;
  /** Lower-cased name of the plugin (or engine part) that owns it. */
  owner: string;
  /** The owner's name for the kind of job; selects the handler. */
  kind: string;
  payload: unknown;
  /** When it is due (ms since the epoch). */
  due: number;
  /** Repeat interval in ms, for jobs made with `every`. */
  every?: number;
  orphan: OrphanPolicy;
  /** Failed runs so far (reset by a successful run). */
  attempts: number;
  created: number;
}

/** Options of `schedule`. */
export interface ScheduleOptions {
  /** Repeat every this many ms (at least 1000) after the first due time. */
  every?: number;
  /** What to do when it comes due while its owner is not loaded (default `wait`). */
  ifUnloaded?: OrphanPolicy;
}

/** A due job as its handler sees it. */
export interface DueJob {
  readonly id: string;
  readonly kind: string;
  readonly payload: unknown;
  /** When it was due (a job that came due while the engine was down runs late). */
  readonly due: number;
  readonly every?: number;
  /**
   * The atomic operation that removes (or re-arms) this job. Add the job's writes and
   * checks to it: they commit together, so the effect happens exactly once.
   */
  readonly atomic: Deno.AtomicOperation;
  /** Runs `fn` once the commit succeeded (deliveries, events: what KV cannot roll back). */
  after(fn: () => void | Promise<void>): void;
}

/** Runs one due job of a kind. Throwing retries it later with a growing delay. */
export type TimerHandler = (job: DueJob) => void | Promise<void>;

/** Logger the scheduler reports problems to. */
export type SchedulerLog = (message: string, error?: unknown) => void;

/** Options of a scheduler. */
export interface SchedulerOptions {
  clock?: Clock;
  log?: SchedulerLog;
  /** Failed runs after which a one-shot job is dropped and a repeating one skips a turn (default 5). */
  maxAttempts?: number;
  /** Longest a handler may take before its run counts as failed (default 30 s). */
  handlerTimeoutMs?: number;
}

const MAX_PAYLOAD_BYTES = 32 * 1024;
const MIN_EVERY_MS = 1000;
/** The loop wakes at least this often, so a changed system clock is noticed. */
const MAX_SLEEP_MS = 60 * 60 * 1000;
/** Commit retries when the handler's own checks lost a race (the record itself unchanged). */
const COMMIT_TRIES = 5;
const KIND_RE = /^[A-Za-z0-9:._-]{1,64}$/;

/** The engine's one timer loop. */
export class Scheduler {
  readonly #kv: Deno.Kv;
  readonly #clock: Clock;
  readonly #log: SchedulerLog;
  readonly #maxAttempts: number;
  readonly #handlerTimeoutMs: number;
  readonly #handlers = new Map<string, TimerHandler>();
  /** Owners whose parked jobs should be looked at again (a handler arrived, a hold ended). */
  readonly #unpark = new Set<string>();
  /** Owners being reloaded: their due jobs are parked whatever their policy. */
  readonly #held = new Map<string, number>();
  /** Ids of records that could not be read (logged once each). */
  readonly #unreadable = new Set<string>();
  #wake: TimerHandle | null = null;
  #wakeAt = Infinity;
  #running: Promise<void> | null = null;
  #again = false;
  #started = false;
  #stopping = false;

  constructor(kv: Deno.Kv, opts: SchedulerOptions = {}) {
    this.#kv = kv;
    this.#clock = opts.clock ?? systemClock();
    this.#log = opts.log ?? ((m, e) => console.error(`scheduler: ${m}`, e ?? ""));
    this.#maxAttempts = opts.maxAttempts ?? 5;
    this.#handlerTimeoutMs = opts.handlerTimeoutMs ?? 30_000;
  }

  /** The current time on the scheduler's clock (ms since the epoch). */
  now(): number {
    return this.#clock.now();
  }

  /** Runs whatever came due while the engine was down, then keeps running jobs at their times. */
  async start(): Promise<void> {
    this.#started = true;
    this.#stopping = false;
    await this.runDue();
  }

  /** Stops the loop; the job being run finishes first, the rest stay due. Jobs stay stored. */
  async stop(): Promise<void> {
    this.#started = false;
    this.#stopping = true;
    this.#disarm();
    await this.#running;
  }

  /**
   * Treats `owner` as absent until the returned function is called: its due jobs wait
   * (even those declared `drop`), so a plugin's reload neither runs nor drops them.
   */
  hold(owner: string): () => void {
    const o = owner.toLowerCase();
    this.#held.set(o, (this.#held.get(o) ?? 0) + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const n = (this.#held.get(o) ?? 1) - 1;
      if (n > 0) return void this.#held.set(o, n);
      this.#held.delete(o);
      this.#unpark.add(o);
      if (this.#started) this.#kick();
    };
  }

  /**
   * Sets the handler of `owner`'s jobs of `kind`; returns its remover. Jobs that waited
   * for it (their owner was unloaded) run now.
   */
  handle(owner: string, kind: string, handler: TimerHandler): () => void {
    checkKind(kind);
    if (typeof handler !== "function") throw new TypeError("timer handler must be a function");
    const key = handlerKey(owner, kind);
    this.#handlers.set(key, handler);
    this.#unpark.add(owner.toLowerCase());
    if (this.#started) this.#kick();
    return () => {
      if (this.#handlers.get(key) === handler) this.#handlers.delete(key);
    };
  }

  /** Stores a job for `owner` due at `due` (ms since the epoch); returns its id. */
  async schedule(
    owner: string,
    kind: string,
    due: number,
    payload: unknown = null,
    opts: ScheduleOptions = {},
  ): Promise<string> {
    checkKind(kind);
    if (typeof due !== "number" || !Number.isFinite(due)) {
      throw new TypeError("timer due time must be a finite number of ms since the epoch");
    }
    const every = opts.every;
    if (every !== undefined && (!Number.isFinite(every) || every < MIN_EVERY_MS)) {
      throw new TypeError(`timer interval must be at least ${MIN_EVERY_MS} ms`);
    }
    const orphan = opts.ifUnloaded ?? "wait";
    if (orphan !== "wait" && orphan !== "drop") {
      throw new TypeError("ifUnloaded must be 'wait' or 'drop'");
    }
    checkPayload(payload);
    const rec: TimerRecord = {
      id: crypto.randomUUID(),
      owner: owner.toLowerCase(),
      kind,
      payload: payload ?? null,
      due: Math.floor(due),
      ...(every !== undefined ? { every: Math.floor(every) } : {}),
      orphan,
      attempts: 0,
      created: this.#clock.now(),
    };
    const res = await this.#kv.atomic()
      .check({ key: keys.timer(rec.id), versionstamp: null })
      .set(keys.timer(rec.id), rec)
      .set(keys.timerDue(rec.due, rec.id), rec.id)
      .set(keys.timerByOwner(rec.owner, rec.id), rec.id)
      .commit();
    if (!res.ok) throw new Error("scheduler: could not store the timer");
    if (this.#started) this.#poke(rec.due);
    return rec.id;
  }

  /** Removes one of `owner`'s jobs; false when there was none. */
  async cancel(owner: string, id: string): Promise<boolean> {
    for (let i = 0; i < COMMIT_TRIES; i++) {
      const entry = await this.#read(id);
      if (!entry?.value || entry.value.owner !== owner.toLowerCase()) return false;
      const op = this.#kv.atomic().check(entry);
      removeMutations(op, entry.value);
      if ((await op.commit()).ok) return true;
    }
    return false;
  }

  /** One of `owner`'s jobs, or null. */
  async get(owner: string, id: string): Promise<TimerRecord | null> {
    const rec = (await this.#read(id))?.value ?? null;
    return rec && rec.owner === owner.toLowerCase() ? rec : null;
  }

  /** `owner`'s jobs, soonest first. */
  async list(owner: string): Promise<TimerRecord[]> {
    const ids = await listIds(this.#kv, keys.timersOf(owner.toLowerCase()));
    const out: TimerRecord[] = [];
    // Batch by batch, so a batch holding an unreadable record costs only that batch.
    for (let i = 0; i < ids.length; i += KV_MAX_READ) {
      const entries = await this.#kv.getMany<TimerRecord[]>(
        ids.slice(i, i + KV_MAX_READ).map((id) => keys.timer(id)),
      ).catch(() => []);
      for (const e of entries) if (e.value) out.push(e.value);
    }
    return out.sort((a, b) => a.due - b.due);
  }

  /**
   * Runs every job due now, then arms the wake-up for the next one. Calls never overlap:
   * a call during a run makes that run go round once more.
   */
  runDue(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = (async () => {
      try {
        do {
          this.#again = false;
          await this.#unparkWaiting();
          await this.#runPass();
          // A request that arrives while arming (a new job, a handler) goes round again.
          if (this.#started && !this.#again) await this.#arm();
        } while (this.#again && !this.#stopping);
      } catch (e) {
        this.#log("run failed; trying again in a minute", e);
        if (this.#started) this.#armAt(this.#clock.now() + 60_000);
      } finally {
        this.#running = null;
      }
    })();
    return this.#running;
  }

  async #runPass(): Promise<void> {
    const now = this.#clock.now();
    const iter = this.#kv.list<string>({
      prefix: keys.timersDue(),
      end: [...keys.timersDue(), now + 1],
    });
    for await (const e of iter) {
      if (this.#stopping) return;
      const id = String(e.key[e.key.length - 1]);
      const due = e.key[e.key.length - 2] as number;
      await this.#runOne(id, due, e.key);
    }
  }

  async #runOne(id: string, due: number, indexKey: Deno.KvKey): Promise<void> {
    for (let attempt = 0; attempt < COMMIT_TRIES; attempt++) {
      const entry = await this.#read(id);
      if (entry === undefined) return; // unreadable: left for repair, logged once
      const rec = entry.value;
      if (!rec || rec.due !== due) {
        // An index entry left by a record that is gone or re-armed.
        await this.#kv.atomic().check(entry).delete(indexKey).commit();
        return;
      }
      const held = this.#held.has(rec.owner);
      const handler = held ? undefined : this.#handlers.get(handlerKey(rec.owner, rec.kind));
      if (!handler) {
        // Out of the due index, so waiting jobs cost nothing until a handler comes.
        const op = this.#kv.atomic().check(entry);
        const drop = rec.orphan === "drop" && !held;
        if (drop) removeMutations(op, rec);
        else op.delete(indexKey).set(keys.timerParked(rec.owner, id), id);
        if (!(await op.commit()).ok) continue;
        if (drop) this.#log(`dropped ${rec.owner}/${rec.kind} job ${id}: its owner is not loaded`);
        return;
      }
      const op = this.#kv.atomic().check(entry);
      if (rec.every) {
        rearmMutations(op, rec, { ...rec, due: this.#nextTurn(rec), attempts: 0 });
      } else {
        removeMutations(op, rec);
      }
      const afters: (() => void | Promise<void>)[] = [];
      try {
        await this.#timed(
          () =>
            handler({
              id,
              kind: rec.kind,
              payload: rec.payload,
              due: rec.due,
              every: rec.every,
              atomic: op,
              after: (fn) => void afters.push(fn),
            }),
          `${rec.owner}/${rec.kind} job ${id}`,
        );
      } catch (e) {
        await this.#failed(entry as Deno.KvEntry<TimerRecord>, e);
        return;
      }
      const res = await op.commit().catch((e) => {
        this.#log(`${rec.owner}/${rec.kind} job ${id}: its writes could not be stored`, e);
        return null;
      });
      if (res === null) {
        await this.#failed(entry as Deno.KvEntry<TimerRecord>, new Error("commit failed"));
        return;
      }
      if (res.ok) {
        for (const fn of afters) {
          try {
            await fn();
          } catch (e) {
            this.#log(`${rec.owner}/${rec.kind} job ${id}: an after-commit step failed`, e);
          }
        }
        return;
      }
      // A check failed: the record changed (cancelled, re-armed) or the handler's own
      // checks lost a race; read again and decide afresh.
    }
    this.#log(`job ${id} kept losing write races; it stays due`);
  }

  /** Puts parked jobs back in the due index once their owner can take them (or drop them). */
  async #unparkWaiting(): Promise<void> {
    const owners = [...this.#unpark].filter((o) => !this.#held.has(o));
    for (const owner of owners) {
      this.#unpark.delete(owner);
      for await (const e of this.#kv.list<string>({ prefix: keys.timersParked(owner) })) {
        const id = String(e.key[e.key.length - 1]);
        const entry = await this.#read(id);
        if (entry === undefined) continue;
        const rec = entry.value;
        const op = this.#kv.atomic().check(entry).delete(e.key);
        if (rec) {
          const ready = rec.orphan === "drop" || this.#handlers.has(handlerKey(owner, rec.kind));
          if (!ready) continue;
          op.set(keys.timerDue(rec.due, id), id);
        }
        // A failed check means the record changed meanwhile (cancelled); nothing to do.
        await op.commit();
      }
    }
  }

  /** The first regular time of a repeating job after now. */
  #nextTurn(rec: TimerRecord): number {
    const every = rec.every!;
    return rec.due + every * (Math.max(0, Math.floor((this.#clock.now() - rec.due) / every)) + 1);
  }

  /** Runs a handler with a time limit on the scheduler's clock. */
  async #timed(fn: () => void | Promise<void>, what: string): Promise<void> {
    let handle: TimerHandle | undefined;
    const p = Promise.resolve().then(fn);
    p.catch(() => {}); // a late failure after the timeout is not unhandled
    const limit = new Promise<never>((_, reject) => {
      handle = this.#clock.setTimeout(
        () => reject(new Error(`${what} took longer than ${this.#handlerTimeoutMs} ms`)),
        this.#handlerTimeoutMs,
      );
    });
    try {
      await Promise.race([p, limit]);
    } finally {
      if (handle !== undefined) this.#clock.clearTimeout(handle);
    }
  }

  /** A run threw: try again later with a growing delay, or drop it after too many tries. */
  async #failed(entry: Deno.KvEntry<TimerRecord>, error: unknown): Promise<void> {
    const rec = entry.value;
    const attempts = rec.attempts + 1;
    const op = this.#kv.atomic().check(entry);
    if (attempts >= this.#maxAttempts && rec.every) {
      rearmMutations(op, rec, { ...rec, due: this.#nextTurn(rec), attempts: 0 });
      this.#log(
        `${rec.owner}/${rec.kind} job ${rec.id} failed ${attempts} times; skipped to its next turn`,
        error,
      );
    } else if (attempts >= this.#maxAttempts) {
      removeMutations(op, rec);
      this.#log(`${rec.owner}/${rec.kind} job ${rec.id} failed ${attempts} times; dropped`, error);
    } else {
      const retryAt = this.#clock.now() + Math.min(1000 * 2 ** attempts, MAX_SLEEP_MS);
      rearmMutations(op, rec, { ...rec, due: retryAt, attempts });
      this.#log(`${rec.owner}/${rec.kind} job ${rec.id} failed; retrying`, error);
    }
    await op.commit();
  }

  /**
   * The record, null when the key is empty, undefined when it cannot be read. An unreadable
   * record is left alone (the error may be passing, and deleting would lose the job).
   */
  async #read(id: string): Promise<Deno.KvEntryMaybe<TimerRecord> | undefined> {
    try {
      const entry = await this.#kv.get<TimerRecord>(keys.timer(id));
      this.#unreadable.delete(id);
      return entry;
    } catch (e) {
      if (!this.#unreadable.has(id)) this.#log(`timer ${id} cannot be read; skipped`, e);
      this.#unreadable.add(id);
      return undefined;
    }
  }

  async #arm(): Promise<void> {
    const now = this.#clock.now();
    let next = Infinity;
    for await (
      const e of this.#kv.list(
        { prefix: keys.timersDue(), start: [...keys.timersDue(), now + 1] },
        {
          limit: 1,
        },
      )
    ) {
      next = e.key[e.key.length - 2] as number;
    }
    this.#disarm();
    this.#armAt(Math.min(next, now + MAX_SLEEP_MS));
  }

  #armAt(at: number): void {
    this.#disarm();
    this.#wakeAt = at;
    this.#wake = this.#clock.setTimeout(() => {
      this.#wake = null;
      this.#wakeAt = Infinity;
      void this.runDue();
    }, at - this.#clock.now());
  }

  #disarm(): void {
    if (this.#wake !== null) this.#clock.clearTimeout(this.#wake);
    this.#wake = null;
    this.#wakeAt = Infinity;
  }

  /** A job due at `due` was stored: wake sooner if it is sooner. */
  #poke(due: number): void {
    if (this.#running) {
      // The run may already have chosen its wake-up time: it must look again.
      this.#again = true;
      return;
    }
    if (due < this.#wakeAt) this.#armAt(due);
  }

  #kick(): void {
    void this.runDue();
  }
}

function handlerKey(owner: string, kind: string): string {
  return `${owner.toLowerCase()}\u0000${kind}`;
}

function checkKind(kind: unknown): void {
  if (typeof kind !== "string" || !KIND_RE.test(kind)) {
    throw new TypeError("timer kind must be 1-64 letters, digits or :._-");
  }
}

function checkPayload(payload: unknown): void {
  let text: string | undefined;
  try {
    text = JSON.stringify(payload ?? null);
  } catch {
    throw new TypeError("timer payload must be JSON data");
  }
  if (text === undefined || new TextEncoder().encode(text).length > MAX_PAYLOAD_BYTES) {
    throw new TypeError(`timer payload must be JSON data of at most ${MAX_PAYLOAD_BYTES} bytes`);
  }
}

function removeMutations(op: Deno.AtomicOperation, rec: TimerRecord): void {
  op.delete(keys.timer(rec.id))
    .delete(keys.timerDue(rec.due, rec.id))
    .delete(keys.timerParked(rec.owner, rec.id))
    .delete(keys.timerByOwner(rec.owner, rec.id));
}

function rearmMutations(op: Deno.AtomicOperation, old: TimerRecord, next: TimerRecord): void {
  op.delete(keys.timerDue(old.due, old.id))
    .set(keys.timerDue(next.due, next.id), next.id)
    .set(keys.timer(next.id), next);
}
