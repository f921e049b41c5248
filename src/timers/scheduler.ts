/**
 * Persistent timers: jobs stored in KV that survive `@reboot` and a full stop, run by
 * one loop per engine. Deno KV queues are not enough alone: they cap delays at 30 days
 * and deliver at least once, while a job here has no horizon and runs exactly once:
 * its handler's writes commit in the same atomic operation that removes (or re-arms)
 * its record, so a crash before the commit leaves the job due and a crash after it
 * leaves the effect in place.
 */
import { keys } from "../storage/keys.ts";
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
  /** Failed runs after which a job is dropped (default 5). */
  maxAttempts?: number;
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
  readonly #handlers = new Map<string, TimerHandler>();
  #wake: TimerHandle | null = null;
  #wakeAt = Infinity;
  #running: Promise<void> | null = null;
  #again = false;
  #started = false;

  constructor(kv: Deno.Kv, opts: SchedulerOptions = {}) {
    this.#kv = kv;
    this.#clock = opts.clock ?? systemClock();
    this.#log = opts.log ?? ((m, e) => console.error(`scheduler: ${m}`, e ?? ""));
    this.#maxAttempts = opts.maxAttempts ?? 5;
  }

  /** Runs whatever came due while the engine was down, then keeps running jobs at their times. */
  async start(): Promise<void> {
    this.#started = true;
    await this.runDue();
  }

  /** Stops the loop; a run in progress finishes first. Jobs stay stored. */
  async stop(): Promise<void> {
    this.#started = false;
    this.#disarm();
    await this.#running;
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
    const ids: string[] = [];
    for await (const e of this.#kv.list<string>({ prefix: keys.timersOf(owner.toLowerCase()) })) {
      ids.push(e.value);
    }
    const out: TimerRecord[] = [];
    for (let i = 0; i < ids.length; i += 10) {
      const entries = await this.#kv.getMany<TimerRecord[]>(
        ids.slice(i, i + 10).map((id) => keys.timer(id)),
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
          await this.#runPass();
        } while (this.#again);
        if (this.#started) await this.#arm();
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
      const id = String(e.key[e.key.length - 1]);
      const due = e.key[e.key.length - 2] as number;
      await this.#runOne(id, due, e.key);
    }
  }

  async #runOne(id: string, due: number, indexKey: Deno.KvKey): Promise<void> {
    for (let attempt = 0; attempt < COMMIT_TRIES; attempt++) {
      const entry = await this.#read(id);
      const rec = entry?.value;
      if (!entry || !rec || rec.due !== due) {
        // An index entry left by a record that is gone, unreadable or re-armed.
        await this.#kv.delete(indexKey);
        return;
      }
      const handler = this.#handlers.get(handlerKey(rec.owner, rec.kind));
      if (!handler) {
        if (rec.orphan === "drop") {
          const op = this.#kv.atomic().check(entry);
          removeMutations(op, rec);
          await op.commit();
          this.#log(`dropped ${rec.owner}/${rec.kind} job ${id}: its owner is not loaded`);
        }
        return;
      }
      const op = this.#kv.atomic().check(entry);
      const now = this.#clock.now();
      if (rec.every) {
        const next = rec.due + rec.every * (Math.floor((now - rec.due) / rec.every) + 1);
        rearmMutations(op, rec, { ...rec, due: next, attempts: 0 });
      } else {
        removeMutations(op, rec);
      }
      const afters: (() => void | Promise<void>)[] = [];
      try {
        await handler({
          id,
          kind: rec.kind,
          payload: rec.payload,
          due: rec.due,
          every: rec.every,
          atomic: op,
          after: (fn) => void afters.push(fn),
        });
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

  /** A run threw: try again later with a growing delay, or drop it after too many tries. */
  async #failed(entry: Deno.KvEntry<TimerRecord>, error: unknown): Promise<void> {
    const rec = entry.value;
    const attempts = rec.attempts + 1;
    const op = this.#kv.atomic().check(entry);
    if (attempts >= this.#maxAttempts) {
      removeMutations(op, rec);
      this.#log(`${rec.owner}/${rec.kind} job ${rec.id} failed ${attempts} times; dropped`, error);
    } else {
      const retryAt = this.#clock.now() + Math.min(1000 * 2 ** attempts, MAX_SLEEP_MS);
      rearmMutations(op, rec, { ...rec, due: retryAt, attempts });
      this.#log(`${rec.owner}/${rec.kind} job ${rec.id} failed; retrying`, error);
    }
    await op.commit();
  }

  /** The record, null when the key is empty, undefined when it cannot be read. */
  async #read(id: string): Promise<Deno.KvEntryMaybe<TimerRecord> | undefined> {
    try {
      return await this.#kv.get<TimerRecord>(keys.timer(id));
    } catch (e) {
      this.#log(`timer ${id} cannot be read; removed`, e);
      await this.#kv.delete(keys.timer(id));
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
      if (due <= this.#clock.now()) this.#again = true;
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
    .delete(keys.timerByOwner(rec.owner, rec.id));
}

function rearmMutations(op: Deno.AtomicOperation, old: TimerRecord, next: TimerRecord): void {
  op.delete(keys.timerDue(old.due, old.id))
    .set(keys.timerDue(next.due, next.id), next.id)
    .set(keys.timer(next.id), next);
}
