/**
 * Password hashing off the event loop. bcryptjs's async API still computes on the calling
 * thread (it only slices the work), so a login storm on the engine's one thread would delay
 * every player's commands. The pool runs bcrypt in workers, one job per worker at a time,
 * as many workers as the machine has cores, started with the engine ({@linkcode HashPool.start})
 * so their memory is part of the engine's baseline and the first login waits for no worker.
 * Each worker lowers its own thread's priority (thread_priority.ts): logins use every core
 * the game leaves idle, and a connected player's command preempts bcrypt at once.
 *
 * The waiting line is bounded: when it is full the job is refused at once with a
 * {@linkcode RateLimitError} (429, "try again in a few seconds") instead of waiting for
 * minutes behind a flood.
 */
import { RateLimitError } from "../errors.ts";
import type { ThreadPriority } from "./thread_priority.ts";

/** A job sent to a worker. */
export type HashJob =
  | { id: number; op: "hash"; password: string }
  | { id: number; op: "verify"; password: string; hash: string };

/** A worker's answer. */
export type HashReply =
  | { id: number; ok: true; value: string | boolean }
  | { id: number; ok: false; error: string };

/** A worker's first message: how its thread now runs. */
export interface WorkerStarted {
  started: ThreadPriority;
  /** True when bcrypt gives the CPU away at every round (thread_priority.ts, yieldingClock). */
  yields: boolean;
}

/** How a worker's thread runs, as it reported when it started. */
export type WorkerThread = ThreadPriority & Pick<WorkerStarted, "yields">;

/** What hashes and checks passwords: the pool, or the main thread where no pool runs. */
export interface PasswordHasher {
  /** Hashes a password in the current scheme. */
  hash(password: string): Promise<string>;
  /** Compares a password with a stored hash of either scheme. */
  verify(password: string, hash: string): Promise<boolean>;
}

/** Sizing of the pool. */
export interface HashPoolOptions {
  /** Workers (default: the machine's cores, at least 1). */
  workers?: number;
  /** Jobs that may wait for a worker before new ones are refused (default 16 per worker). */
  maxWaiting?: number;
}

/** The message of a refused job. */
export const BUSY_MESSAGE = "Too many logins at once. Try again in a few seconds.";

interface Pending {
  job: HashJob;
  resolve(value: string | boolean): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  job: Pending | null;
  /** How the worker's thread runs, once it has said so. */
  priority: WorkerThread | null;
  /** Settles when the worker has reported its priority, or has died. */
  ready: Promise<void>;
  settle(): void;
}

/** Counters for tests and the benchmark. */
export interface HashPoolStats {
  workers: number;
  busy: number;
  waiting: number;
  done: number;
  refused: number;
  /** Workers whose thread runs at a lower priority than the engine's. */
  lowered: number;
}

/** A bounded pool of bcrypt workers. */
export class HashPool implements PasswordHasher {
  readonly #size: number;
  readonly #maxWaiting: number;
  readonly #slots: Slot[] = [];
  readonly #queue: Pending[] = [];
  #nextId = 1;
  #done = 0;
  #refused = 0;
  #closed = false;

  constructor(opts: HashPoolOptions = {}) {
    this.#size = Math.max(1, Math.floor(opts.workers ?? navigator.hardwareConcurrency ?? 1));
    this.#maxWaiting = Math.max(0, Math.floor(opts.maxWaiting ?? this.#size * 16));
  }

  /**
   * Starts every worker now rather than at the first login; resolves once each has lowered its
   * priority (or died: a missing worker is started again on demand). Rejects only when a worker
   * cannot be created at all (no permission to run one), which stops the engine's start: no
   * login could work.
   */
  async start(): Promise<void> {
    while (!this.#closed && this.#slots.length < this.#size) this.#slots.push(this.#spawn());
    await Promise.all(this.#slots.map((s) => s.ready));
  }

  /** How each running worker's thread was scheduled, for the log and the tests. */
  threads(): WorkerThread[] {
    return this.#slots.flatMap((s) => s.priority ? [s.priority] : []);
  }

  /** Hashes a password in a worker. */
  async hash(password: string): Promise<string> {
    return String(await this.#run({ id: this.#nextId++, op: "hash", password }));
  }

  /** Compares a password with a stored hash in a worker. */
  async verify(password: string, hash: string): Promise<boolean> {
    return (await this.#run({ id: this.#nextId++, op: "verify", password, hash })) === true;
  }

  /** How busy the pool is. */
  stats(): HashPoolStats {
    return {
      workers: this.#slots.length,
      busy: this.#slots.filter((s) => s.job).length,
      waiting: this.#queue.length,
      done: this.#done,
      refused: this.#refused,
      lowered: this.#slots.filter((s) => s.priority?.lowered).length,
    };
  }

  /** Stops every worker; jobs not finished are rejected. */
  close(): void {
    this.#closed = true;
    const gone = new Error("password pool closed");
    for (const slot of this.#slots) {
      slot.worker.terminate();
      slot.job?.reject(gone);
      slot.settle();
    }
    this.#slots.length = 0;
    for (const p of this.#queue.splice(0)) p.reject(gone);
  }

  #run(job: HashJob): Promise<string | boolean> {
    if (this.#closed) return Promise.reject(new Error("password pool closed"));
    return new Promise((resolve, reject) => {
      const pending: Pending = { job, resolve, reject };
      const slot = this.#idleSlot();
      if (slot) return this.#start(slot, pending);
      if (this.#queue.length >= this.#maxWaiting) {
        this.#refused++;
        return reject(new RateLimitError(BUSY_MESSAGE));
      }
      this.#queue.push(pending);
    });
  }

  #idleSlot(): Slot | null {
    const idle = this.#slots.find((s) => !s.job);
    if (idle) return idle;
    if (this.#slots.length >= this.#size) return null;
    const slot = this.#spawn();
    this.#slots.push(slot);
    return slot;
  }

  #spawn(): Slot {
    const worker = new Worker(new URL("./hash_worker.ts", import.meta.url), { type: "module" });
    const { promise: ready, resolve: settle } = Promise.withResolvers<void>();
    const slot: Slot = { worker, job: null, priority: null, ready, settle };
    worker.onmessage = (e: MessageEvent<HashReply | WorkerStarted>) => {
      if ("started" in e.data) {
        slot.priority = { ...e.data.started, yields: e.data.yields };
        return slot.settle();
      }
      const pending = slot.job;
      if (!pending || pending.job.id !== e.data.id) return;
      slot.job = null;
      this.#done++;
      if (e.data.ok) pending.resolve(e.data.value);
      else pending.reject(new Error(`password worker: ${e.data.error}`));
      this.#next(slot);
    };
    // A worker that dies takes only its own job with it; a fresh one takes its place.
    worker.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      this.#replace(slot, new Error(`password worker failed: ${e.message}`));
    };
    return slot;
  }

  #replace(slot: Slot, error: Error): void {
    slot.worker.terminate();
    slot.settle();
    slot.job?.reject(error);
    slot.job = null;
    const at = this.#slots.indexOf(slot);
    if (at !== -1) this.#slots.splice(at, 1);
    if (this.#closed) return;
    const next = this.#queue.shift();
    if (next) {
      const fresh = this.#spawn();
      this.#slots.push(fresh);
      this.#start(fresh, next);
    }
  }

  #next(slot: Slot): void {
    const next = this.#queue.shift();
    if (next) this.#start(slot, next);
  }

  #start(slot: Slot, pending: Pending): void {
    slot.job = pending;
    slot.worker.postMessage(pending.job);
  }
}
