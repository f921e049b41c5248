/**
 * The command queue, with TinyMUX 2.12's semantics (docs/softcode.md, "The queue"): action lists
 * queued by objects run in order, each as its executor, a turn after they were queued; timed
 * waits run when due, semaphore waits when notified. Each owner may have so many entries waiting
 * (its quota); a chain of entries that keeps queuing more without a pause of a second is a
 * runaway, and its owner's queue is halted with a report. Waits of a second or more live in the
 * engine's persistent timers, so they survive `@reboot` and a full stop and run once.
 */
import type { DbObject } from "../world/types.ts";
import type { Clock, TimerHandle } from "../timers/clock.ts";
import type { DueJob, Scheduler } from "../timers/scheduler.ts";
import {
  type ActionQueue,
  INLINE_BUDGET,
  type QueueChain,
  type QueueFrame,
  type QueueOutcome,
  type QueueRequest,
  type SemaphoreRef,
} from "./types.ts";
import { setImmediate } from "node:timers";
import { afterInput } from "../runtime/after_input.ts";
import { splitActions } from "./actions.ts";
import { isStaff } from "../world/flags.ts";
import type { QueueConfig } from "../config/defaults.ts";

/** The queue's limits: the configuration's `queue` section. */
export type QueueLimits = QueueConfig;

/** The persistent timers' owner of the queue's waits (no plugin name starts with `@`). */
export const TIMER_OWNER = "@queue";
/** The kind of a persistent wait. */
export const TIMER_KIND = "wait";

/** Waits this long or longer are kept in the persistent timers. */
export const PERSIST_MS = 1000;

/** Longest the queue runs entries before it lets the event loop serve players. */
const SLICE_MS = 20;

/**
 * Most ready entries looked at for one whose payer may run (`#take`): passing over a payer's
 * entries costs a look each, every time an entry is taken.
 */
const MAX_PASSED = 4096;

/** Deepest nesting of action lists run inline (`@trigger/now` inside `@force/now`...). */
export const MAX_INLINE_DEPTH = 20;

/** Longest a stop waits for the command running to end. */
const CLOSE_WAIT_MS = 5000;

/** Most `%0`-`%9` an entry keeps. */
const MAX_ARGS = 10;
/** The longest wait, in seconds (ten years): past it a due time stops being a real date. */
export const MAX_WAIT_S = 10 * 365 * 24 * 3600;

/** What the queue needs of the engine. */
export interface QueueDeps {
  /** Runs one command line as `executor` (the dispatcher's `runLine`); never throws. */
  run(executor: string, line: string, frame: QueueFrame): void | Promise<void>;
  /** An object by id, from memory. */
  object(id: string): DbObject | null;
  /** Tells a player something (reports to an owner). */
  notify(playerId: string, msg: string): void;
  /** Sets the `halt` flag on an object (MUX halts the object that queued past its quota). */
  setHalt?(id: string): void;
  /**
   * Where semaphore counts live: the semaphore's attribute, as in MUX, so a count survives a
   * restart. Absent: in memory (tests).
   */
  counts?: SemaphoreCounts;
  /** The persistent timers. */
  timers: Pick<Scheduler, "schedule" | "cancel" | "list" | "handle">;
  /** The clock of short waits and due times. */
  clock: Clock;
  limits(): QueueLimits;
  /**
   * Null, or when the payer's softcode has used its slice of the turn, a promise of the turn's
   * end (`Softcode.turnWait`): its entry waits for it. Absent: never.
   */
  turnWait?(payer: string): Promise<void> | null;
  log?(message: string): void;
}

/** A semaphore's count (MUX keeps it in the semaphore's attribute: `SEMAPHORE` by default). */
export interface SemaphoreCounts {
  get(sem: SemaphoreRef): number;
  /** Writes the count; 0 clears the attribute. */
  set(sem: SemaphoreRef, n: number): void;
}

/** How often one semaphore's refused count is told to its object's owner. */
const REFUSAL_TOLD_EVERY_MS = 60_000;
/** Semaphores whose last refusal is remembered (past it, all are forgotten). */
const TOLD_KEPT = 10_000;

/**
 * Semaphore counts in the semaphore's attribute (MUX's add_to): read from memory, written as
 * the object itself (it controls itself), cleared at 0. A refused write (a `wizard` or `locked`
 * attribute, the owner's attribute quota) is told to the object's owner; the count then stays as
 * it was. Not logged: a player at the quota wrote one error line to the server's log for each
 * `@notify` (a thousand a second with `@dolist`), rotating the operator's log away in minutes.
 * Told once a minute per semaphore: anyone may `@notify` a `link_ok` object, and each refused
 * count would otherwise put a line before its owner.
 */
export function attributeCounts(p: {
  object(id: string): DbObject | null;
  attributes: {
    /** False on a shared database (KV Connect): nothing is held, the counts stay in memory. */
    readonly live: boolean;
    peek(id: string, name: string): { value: string } | null;
    setNow(actor: DbObject, id: string, name: string, value: string): { message: string } | null;
  };
  /** Tells a player something (the queue's `notify`). */
  tell(playerId: string, msg: string): void;
  /** The clock, in milliseconds (Date.now unless given). */
  now?: () => number;
}): SemaphoreCounts {
  if (!p.attributes.live) return memoryCounts();
  const now = p.now ?? Date.now;
  // When each semaphore's refusal was last told (bounded: forgotten whole past TOLD_KEPT).
  const told = new Map<string, number>();
  return {
    get: (sem) => {
      const n = parseInt(p.attributes.peek(sem.object, sem.attr.toUpperCase())?.value ?? "", 10);
      return Number.isFinite(n) ? n : 0;
    },
    set: (sem, n) => {
      const o = p.object(sem.object);
      if (!o) return;
      const name = sem.attr.toUpperCase();
      const refused = p.attributes.setNow(o, o.id, name, n ? String(n) : "");
      if (!refused) return;
      const key = `${o.id}/${name}`;
      const at = now();
      const last = told.get(key);
      if (last === undefined || at - last >= REFUSAL_TOLD_EVERY_MS) {
        if (told.size >= TOLD_KEPT) told.clear();
        told.set(key, at);
        p.tell(
          ownerOf(o),
          `${o.name}(#${o.id}) kept no semaphore count in ${name}: ${refused.message}`,
        );
      }
    },
  };
}

/** Where a waiting entry is. */
type Where = "ready" | "timed" | "semaphore" | "running";

/** A queue entry. */
interface Entry {
  readonly pid: number;
  readonly executor: string;
  readonly enactor: string;
  readonly caller: string;
  readonly action: string;
  readonly args: readonly string[];
  readonly regs: ReadonlyMap<string, string>;
  /** Whose quota it counts against (the executor's owner, or the executor for a player). */
  readonly owner: string;
  readonly chain: QueueChain;
  where: Where;
  /** When a timed entry (or a semaphore's timeout) is due, ms since the epoch; 0 for none. */
  due: number;
  semaphore: SemaphoreRef | null;
  /** The in-memory timer of a short wait. */
  handle: TimerHandle | null;
  /** The persistent timer's id of a long one (null until stored). */
  timerId: string | null;
  /** Halted while it was running or being stored. */
  halted: boolean;
  /** Set off by another player's line than its owner's (held to a quota of its own). */
  readonly foreign: boolean;
}

/** The stored form of a persistent wait. */
interface StoredWait {
  pid: number;
  executor: string;
  enactor: string;
  caller: string;
  action: string;
  args: string[];
  regs: [string, string][];
  owner: string;
  /** Entry.foreign (absent: false). */
  foreign?: boolean;
  /** The chain's origin (QueueChain.origin), when another player's line set the wait off. */
  origin?: string;
}

/** A line of `@ps`. */
export interface QueueListing {
  pid: number;
  executor: string;
  enactor: string;
  owner: string;
  action: string;
  args: readonly string[];
  where: Where;
  /** Seconds until it runs (timed entries and semaphore timeouts), else null. */
  waitSeconds: number | null;
  semaphore: SemaphoreRef | null;
}

/**
 * `QueueDeps.setHalt` over the object store: the flag added once, at once in memory when the
 * world is held (so the object's next entry is already refused), else by a write; a failed
 * write is logged.
 */
export function haltSetter(objects: {
  readonly world: unknown;
  update(id: string, change: (o: DbObject) => void): Promise<unknown>;
  updateNow(id: string, change: (o: DbObject) => void): unknown;
}): (id: string) => void {
  const halt = (o: DbObject) => {
    if (!o.flags.includes("halt")) o.flags = [...o.flags, "halt"];
  };
  return (id) => {
    try {
      if (objects.world) objects.updateNow(id, halt);
      else void objects.update(id, halt).catch((e) => console.error(`queue: #${id} halt: ${e}`));
    } catch (e) {
      console.error(`queue: could not set #${id} halt: ${e}`);
    }
  };
}

/** The limit of entries waiting for an owner. */
function quotaOf(limits: QueueLimits, owner: DbObject | null): number {
  return owner && isStaff(owner.flags) ? limits.staffLimit : limits.playerLimit;
}

/** The engine's command queue. */
export class CommandQueue implements ActionQueue {
  readonly #deps: QueueDeps;
  #ready: Entry[] = [];
  #head = 0;
  /** Every entry not yet run, by pid. */
  readonly #entries = new Map<number, Entry>();
  /** Entries waiting per owner (the quota's count). */
  readonly #perOwner = new Map<string, number>();
  /**
   * Of those, the entries other players' lines set off (Entry.foreign), per owner: they have a
   * quota of their own, so that they can neither halt the owner's queue nor take the room the
   * owner's own lines need.
   */
  readonly #foreignPerOwner = new Map<string, number>();
  /**
   * Entries waiting on each semaphore, in the order they began waiting (pid order), so a
   * `@notify` finds its waiters without a pass over the whole game's queue.
   */
  readonly #waiters = new Map<string, Set<Entry>>();
  /** Semaphore counts: in the semaphore's attribute (MUX's), or in memory without a store. */
  readonly #counts: SemaphoreCounts;
  /** Persistent waits halted whose stored records are being removed: they must not run. */
  readonly #cancelling = new Set<number>();
  #nextPid = 1;
  #scheduled = false;
  #running: Entry | null = null;
  #draining = false;
  #idle: (() => void)[] = [];
  #release: (() => void) | null = null;
  #closed = false;

  constructor(deps: QueueDeps) {
    this.#deps = deps;
    this.#counts = deps.counts ?? memoryCounts();
  }

  /**
   * Takes over the persistent waits: counts those stored by earlier runs against their owners
   * and runs each when due (the scheduler runs the ones that came due while the engine was down).
   */
  async start(): Promise<void> {
    for (const rec of await this.#deps.timers.list(TIMER_OWNER)) {
      const w = storedWait(rec.payload);
      if (!w || this.#entries.has(w.pid)) continue;
      const e = this.#entryOf(w, this.#ownersChain(w.owner, w.origin));
      e.where = "timed";
      e.due = rec.due;
      e.timerId = rec.id;
      this.#add(e);
      this.#nextPid = Math.max(this.#nextPid, w.pid + 1);
    }
    this.#release = this.#deps.timers.handle(TIMER_OWNER, TIMER_KIND, (job) => this.#due(job));
  }

  /**
   * Stops running entries: the command running now ends first, the rest are dropped from memory
   * (persistent waits stay stored for the next start).
   */
  async close(): Promise<void> {
    this.#closed = true;
    this.#release?.();
    for (const e of this.#entries.values()) {
      if (e.handle !== null) this.#deps.clock.clearTimeout(e.handle);
    }
    // A command that waits on the network does not hold the stop up for long.
    let timer: TimerHandle | null = null;
    await Promise.race([
      this.idle(),
      new Promise<void>((r) => timer = this.#deps.clock.setTimeout(r, CLOSE_WAIT_MS)),
    ]);
    if (timer !== null) this.#deps.clock.clearTimeout(timer);
  }

  /** {@inheritDoc ActionQueue.enqueue} */
  enqueue(req: QueueRequest): QueueOutcome {
    if (this.#closed) return { refused: "The game is stopping; nothing more is queued." };
    const executor = this.#deps.object(req.executor);
    if (!executor) return { refused: "That object no longer exists." };
    if (executor.flags.includes("halt")) return { refused: `${executor.name} is halted.` };
    const ownerId = ownerOf(executor);
    const limits = this.#deps.limits();
    const quota = quotaOf(limits, this.#deps.object(ownerId));
    const waiting = this.#perOwner.get(ownerId) ?? 0;
    if (quota <= 0) return { refused: "Your objects may not queue commands here (a limit of 0)." };
    const delay = Number.isFinite(req.delay) && req.delay! > 0 ? req.delay! * 1000 : 0;
    const long = delay >= PERSIST_MS;
    // Whose line queues this: the quota asks it, not the chain a long wait begins (paid by the
    // owner), else the waits an owner's listener queues for another player's emits would count
    // as the owner's own and halt the owner's queue.
    const from = this.#chainFor(req.chain, req.enactor);
    const origin = startedBy(from);
    const foreign = origin !== undefined && origin !== ownerId;
    // A pause of a second or more ends a chain: a clock that re-arms itself is no runaway. The
    // new chain remembers whose line set it off, so what it queues stays that player's doing.
    const chain = long ? this.#ownersChain(ownerId, foreign ? origin : undefined) : from;
    const theirs = this.#foreignPerOwner.get(ownerId) ?? 0;
    if (foreign && theirs + 1 > quota) {
      // Another player's line set this off (a listen its emits woke, a global's $-command it
      // typed): only this entry is refused. Halting the owner's queue and object, as for a
      // runaway of the owner's own, would let any player silence another's objects, or a
      // wizard's globals, by flooding them; and such entries count apart from the owner's own,
      // else they would fill the owner's quota until the owner's next line halted it all.
      const owner = this.#deps.object(ownerId);
      return {
        refused: `${owner?.name ?? "Its owner"}'s objects have ${theirs} commands queued that ` +
          `others set off (the limit is ${quota}); ${executor.name}(#${executor.id}) queued nothing.`,
      };
    }
    if (!foreign && waiting - theirs + 1 > quota) {
      const halted = this.#haltWhere((e) => e.owner === ownerId);
      // As MUX's setup_que: the owner's queue is halted and the object that queued is set halt,
      // so it stays quiet until someone clears it.
      this.#deps.setHalt?.(executor.id);
      const msg = `Run away objects: too many commands queued (your limit is ${quota}). ` +
        `Halted ${halted} entr${halted === 1 ? "y" : "ies"}; ${executor.name}(#${executor.id}) ` +
        `is set halt.`;
      this.#deps.notify(ownerId, msg);
      return { refused: msg, told: ownerId };
    }
    if (req.delay !== undefined && req.delay > MAX_WAIT_S) {
      return { refused: `A wait may be at most ${MAX_WAIT_S} seconds (ten years).` };
    }
    const e = this.#entryOf({
      pid: this.#nextPid++,
      executor: executor.id,
      enactor: req.enactor,
      caller: req.caller ?? req.enactor,
      action: req.action,
      args: (req.args ?? []).slice(0, MAX_ARGS).map(String),
      regs: [...(req.regs ?? [])],
      owner: ownerId,
      foreign,
    }, chain);
    if (req.semaphore) {
      if (this.#countSemaphore(req.semaphore, 1) > 0) {
        // Waits for a notify; the timeout, if any, stays in memory with the semaphore.
        e.where = "semaphore";
        this.#add(e);
        this.#joinSemaphore(e, req.semaphore);
        if (delay > 0) {
          e.due = this.#deps.clock.now() + delay;
          e.handle = this.#deps.clock.setTimeout(() => this.#semaphoreTimeout(e), delay);
        }
        return { pid: e.pid };
      }
      // Notified in advance: it runs at once.
    } else if (long) {
      const stored = this.#store(e, delay);
      if (stored) return stored;
      return { pid: e.pid };
    } else if (delay > 0) {
      e.where = "timed";
      e.due = this.#deps.clock.now() + delay;
      this.#add(e);
      e.handle = this.#deps.clock.setTimeout(() => {
        e.handle = null;
        this.#makeReady(e);
      }, delay);
      return { pid: e.pid };
    }
    this.#add(e);
    this.#makeReady(e);
    return { pid: e.pid };
  }

  /**
   * The chain a new entry joins: the one given; when none is said (undefined), that of the entry
   * running now, since whatever queues during an entry was most likely set off by it (a
   * `$-command` its line matched, a listen its output woke); null or nothing running: a new one,
   * paid for by its enactor when that is a player.
   */
  #chainFor(given: QueueChain | null | undefined, enactor: string): QueueChain {
    if (given) return given;
    if (given === undefined && this.#running) return this.#running.chain;
    // A new chain is paid for by the player who began it (the one typing, or connecting).
    const by = this.#deps.object(enactor);
    return by?.flags.includes("player") ? { spent: 0, payer: by.id } : { spent: 0 };
  }

  /**
   * The new chain a wait of a second or more begins: paid for by the owner of the object that
   * waits, when a player, so that what its output wakes (another owner's listening objects, and
   * their locks) is charged to whoever armed the wait, not to each woken object's owner.
   */
  #ownersChain(ownerId: string, origin?: string): QueueChain {
    const chain: QueueChain = this.#deps.object(ownerId)?.flags.includes("player")
      ? { spent: 0, payer: ownerId }
      : { spent: 0 };
    return origin === undefined ? chain : { ...chain, origin };
  }

  /**
   * Notifies a semaphore (`@notify`): releases the first `count` entries waiting on it, or all
   * of them (`all`, which also resets its count); `drain` discards them instead. Answers how
   * many entries were released or discarded.
   */
  notify(sem: SemaphoreRef, how: { count?: number; all?: boolean; drain?: boolean }): number {
    const every = how.all || how.drain;
    const count = Math.max(1, Math.floor(how.count ?? 1));
    const chosen: Entry[] = [];
    for (const e of this.#waiters.get(semKey(sem)) ?? []) {
      if (!every && chosen.length >= count) break;
      chosen.push(e);
    }
    for (const e of chosen) {
      if (e.handle !== null) this.#deps.clock.clearTimeout(e.handle);
      e.handle = null;
      this.#leaveSemaphore(e);
      if (how.drain) this.#remove(e);
      else this.#makeReady(e);
    }
    if (every) this.#counts.set(sem, 0);
    else this.#countSemaphore(sem, -count);
    return chosen.length;
  }

  /**
   * Runs an action list now, inside the line running it (`/now`, `/inline`), as `executor`
   * with `frame` (its registers shared, as in MUX). Null when it ran, else why it stopped: nested
   * too deep, or past the line's budget of commands run inline.
   */
  async runInline(executor: string, action: string, frame: QueueFrame): Promise<string | null> {
    if (frame.depth > MAX_INLINE_DEPTH) {
      return `Action lists run inline are nested too deeply (the limit is ${MAX_INLINE_DEPTH}).`;
    }
    for (const line of splitActions(action)) {
      if (frame.broken || this.#closed) break;
      if (--frame.inline.left < 0) {
        return `Too many commands run inline for one line (the limit is ${INLINE_BUDGET}).`;
      }
      await this.#deps.run(executor, line, frame);
    }
    return null;
  }

  /**
   * Halts entries (`@halt`): those run by `object`, or by anything `owner` owns, or every
   * entry when neither is given. The entry running now stops after its current command.
   * Answers how many were removed.
   */
  halt(target: { owner?: string; object?: string }): number {
    return this.#haltWhere((e) =>
      (target.owner === undefined || e.owner === target.owner) &&
      (target.object === undefined || e.executor === target.object)
    );
  }

  /**
   * Halts every entry `object` runs and resolves once the stored ones are gone from the
   * persistent timers, so none of them can come due after (`@startup`'s rule: an object that
   * starts afresh keeps no wait of an earlier run; src/commands/world_actions.ts).
   */
  async dropWaits(object: string): Promise<number> {
    const stored: string[] = [];
    for (const e of this.#entries.values()) {
      if (e.executor === object && e.timerId) stored.push(e.timerId);
    }
    const n = this.halt({ object });
    await Promise.all(stored.map((id) => this.#deps.timers.cancel(TIMER_OWNER, id)));
    return n;
  }

  /** Removes one entry by pid (`@halt/pid`), if `may` allows; true when it was waiting. */
  haltPid(pid: number, may: (e: QueueListing) => boolean): boolean {
    const e = this.#entries.get(pid);
    if (!e || !may(this.#listing(e))) return false;
    this.#haltEntry(e);
    return true;
  }

  /**
   * The chain of the entry running now when `executor` runs it, else null: what an object's
   * output causes (a `^-listen` hearing it) joins the chain, so two objects answering each other
   * are a runaway like any other.
   */
  runningChain(executor: string): QueueChain | null {
    const r = this.#running;
    return r && r.executor === executor && !r.halted ? r.chain : null;
  }

  /** The entries waiting (and the one running), in pid order, for `@ps`. */
  list(filter: (e: QueueListing) => boolean = () => true): QueueListing[] {
    const out: QueueListing[] = [];
    if (this.#running && !this.#running.halted) {
      const l = this.#listing(this.#running);
      if (filter(l)) out.push(l);
    }
    for (const e of this.#entries.values()) {
      const l = this.#listing(e);
      if (filter(l)) out.push(l);
    }
    return out.sort((a, b) => a.pid - b.pid);
  }

  /** Entries waiting per place, for `@ps/summary`. */
  counts(): Record<Where, number> {
    const c: Record<Where, number> = { ready: 0, timed: 0, semaphore: 0, running: 0 };
    for (const e of this.#entries.values()) c[e.where]++;
    if (this.#running) c.running++;
    return c;
  }

  /** Entries `owner`'s objects have waiting (the quota's count). */
  waitingFor(owner: string): number {
    return this.#perOwner.get(owner) ?? 0;
  }

  /** The quota of `owner` (entries its objects may have waiting). */
  quotaFor(owner: string): number {
    return quotaOf(this.#deps.limits(), this.#deps.object(owner));
  }

  /** Resolves once nothing is ready to run (waits may remain): for tests and shutdown. */
  idle(): Promise<void> {
    if (!this.#busy()) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  #busy(): boolean {
    if (this.#closed) return this.#draining;
    return this.#draining || this.#scheduled || this.#head < this.#ready.length;
  }

  #listing(e: Entry): QueueListing {
    const now = this.#deps.clock.now();
    return {
      pid: e.pid,
      executor: e.executor,
      enactor: e.enactor,
      owner: e.owner,
      action: e.action,
      args: e.args,
      where: e === this.#running ? "running" : e.where,
      waitSeconds: e.due > 0 ? Math.max(0, Math.ceil((e.due - now) / 1000)) : null,
      semaphore: e.semaphore,
    };
  }

  #entryOf(w: StoredWait, chain: QueueChain): Entry {
    return {
      pid: w.pid,
      executor: w.executor,
      enactor: w.enactor,
      caller: w.caller,
      action: w.action,
      args: w.args,
      regs: new Map(w.regs),
      owner: w.owner,
      chain,
      foreign: w.foreign === true,
      where: "ready",
      due: 0,
      semaphore: null,
      handle: null,
      timerId: null,
      halted: false,
    };
  }

  /** Counts a new entry against its owner. */
  #add(e: Entry): void {
    this.#entries.set(e.pid, e);
    this.#perOwner.set(e.owner, (this.#perOwner.get(e.owner) ?? 0) + 1);
    if (e.foreign) {
      this.#foreignPerOwner.set(e.owner, (this.#foreignPerOwner.get(e.owner) ?? 0) + 1);
    }
  }

  /** Forgets an entry (run, halted or drained): its quota is given back. */
  #remove(e: Entry): void {
    if (!this.#entries.delete(e.pid)) return;
    const n = (this.#perOwner.get(e.owner) ?? 1) - 1;
    if (n > 0) this.#perOwner.set(e.owner, n);
    else this.#perOwner.delete(e.owner);
    if (!e.foreign) return;
    const f = (this.#foreignPerOwner.get(e.owner) ?? 1) - 1;
    if (f > 0) this.#foreignPerOwner.set(e.owner, f);
    else this.#foreignPerOwner.delete(e.owner);
  }

  /** Stores a long wait in the persistent timers; a refusal when it cannot be kept. */
  #store(e: Entry, delay: number): QueueOutcome | null {
    const payload: StoredWait = {
      pid: e.pid,
      executor: e.executor,
      enactor: e.enactor,
      caller: e.caller,
      action: e.action,
      args: [...e.args],
      regs: [...e.regs],
      owner: e.owner,
      ...(e.foreign ? { foreign: true } : {}),
      ...(e.chain.origin !== undefined ? { origin: e.chain.origin } : {}),
    };
    // The scheduler's own cap, checked here so the refusal is said at once.
    if (new TextEncoder().encode(JSON.stringify(payload)).length > 30 * 1024) {
      return { refused: "That @wait is too large to keep (its command, arguments and registers)." };
    }
    e.where = "timed";
    e.due = this.#deps.clock.now() + delay;
    this.#add(e);
    this.#deps.timers.schedule(TIMER_OWNER, TIMER_KIND, e.due, payload).then((id) => {
      e.timerId = id;
      // Halted while being stored: the stored copy goes too.
      if (e.halted) this.#cancel(e.pid, id);
    }).catch((err) => {
      this.#remove(e);
      this.#deps.notify(e.owner, `Your @wait could not be kept: ${err?.message ?? err}`);
    });
    return null;
  }

  /** Removes a halted wait's stored record; until it is gone, the wait must not run. */
  #cancel(pid: number, timerId: string): void {
    this.#cancelling.add(pid);
    this.#deps.timers.cancel(TIMER_OWNER, timerId).catch((err) =>
      this.#deps.log?.(`queue: could not remove halted wait ${pid}: ${err}`)
    ).finally(() => this.#cancelling.delete(pid));
  }

  /** A persistent wait came due: it runs (once: its record is removed in the same commit). */
  #due(job: DueJob): void {
    const w = storedWait(job.payload);
    if (!w) return;
    job.after(() => {
      // Halted while its removal raced the timer: it does not run.
      if (this.#closed || this.#cancelling.has(w.pid)) return;
      const known = this.#entries.get(w.pid);
      // A new chain: a pause of a second or more ends a runaway's.
      const e = known ?? this.#entryOf(w, this.#ownersChain(w.owner, w.origin));
      if (!known) this.#add(e);
      e.timerId = null;
      this.#makeReady(e);
    });
  }

  #semaphoreTimeout(e: Entry): void {
    e.handle = null;
    if (!e.semaphore || !this.#entries.has(e.pid)) return;
    // A timer cannot wait past about 24.8 days (the clock fires such a one at its limit): a
    // longer timeout is armed again for what is left.
    const left = e.due - this.#deps.clock.now();
    if (left > 0) {
      e.handle = this.#deps.clock.setTimeout(() => this.#semaphoreTimeout(e), left);
      return;
    }
    this.#countSemaphore(e.semaphore, -1);
    this.#leaveSemaphore(e);
    this.#makeReady(e);
  }

  /** Makes `e` wait on `sem`, last in its line. */
  #joinSemaphore(e: Entry, sem: SemaphoreRef): void {
    e.semaphore = sem;
    const key = semKey(sem);
    const line = this.#waiters.get(key);
    if (line) line.add(e);
    else this.#waiters.set(key, new Set([e]));
  }

  /** Takes `e` out of its semaphore's line (notified, timed out, halted or drained). */
  #leaveSemaphore(e: Entry): void {
    if (!e.semaphore) return;
    const key = semKey(e.semaphore);
    const line = this.#waiters.get(key);
    if (line?.delete(e) && line.size === 0) this.#waiters.delete(key);
    e.semaphore = null;
  }

  /** Changes a semaphore's count (a zero count is not kept); answers the new count. */
  #countSemaphore(sem: SemaphoreRef, delta: number): number {
    const n = this.#counts.get(sem) + delta;
    this.#counts.set(sem, n);
    return n;
  }

  #makeReady(e: Entry): void {
    if (this.#closed || e.halted) return;
    e.where = "ready";
    e.due = 0;
    this.#ready.push(e);
    this.#kick();
  }

  #kick(): void {
    if (this.#scheduled || this.#draining) return;
    this.#scheduled = true;
    // A macrotask, not a microtask: the line that queued an entry finishes (and its output goes)
    // first. An immediate, for a quick answer; a zero timeout waits for the timer phase, about
    // 2 ms a turn here (docs/bench.md, "+ping"). But Deno runs immediates before it reads
    // sockets: a slice used up waits for input to be read (src/runtime/after_input.ts), and an
    // entry whose payer used its slice of the turn for the turn's end (`turnWait`).
    setImmediate(this.#drainNow);
  }

  readonly #drainNow = (): void => void this.#drain();

  async #drain(): Promise<void> {
    this.#scheduled = false;
    if (this.#draining) return;
    this.#draining = true;
    const started = performance.now();
    let yieldToInput = false;
    let wait: Promise<void> | null = null;
    try {
      while (!this.#closed) {
        const next = this.#take();
        if (next === null) break;
        if (next instanceof Promise) {
          wait = next;
          break;
        }
        await this.#run(next);
        if (performance.now() - started > SLICE_MS) {
          yieldToInput = true;
          break;
        }
      }
    } finally {
      this.#draining = false;
      if (this.#head >= this.#ready.length) {
        this.#ready = [];
        this.#head = 0;
      } else if (!this.#closed && !this.#scheduled) {
        if (wait) {
          this.#scheduled = true;
          wait.then(this.#drainNow);
        } else if (yieldToInput) {
          this.#scheduled = true;
          afterInput(this.#drainNow);
        } else this.#kick();
      }
      if (!this.#busy()) { for (const done of this.#idle.splice(0)) done(); }
    }
  }

  /**
   * The next entry to run: the first ready one whose payer has not used its slice of the turn
   * (`turnWait`). A payer's entries are passed over all together, so each payer's run in the
   * order they were queued, while another payer's ready entry runs instead of the queue idling
   * until the turn ends (docs/softcode.md, "Taking turns"). When none can run now, what the
   * first passed over waits for (the turn's end), or null when nothing is ready. An entry taken
   * from behind the head stays in the line, dead (`#run` removes it), and is skipped there.
   */
  #take(): Entry | Promise<void> | null {
    while (this.#head < this.#ready.length && !this.#live(this.#ready[this.#head])) this.#head++;
    if (this.#head > 1024 && this.#head * 2 > this.#ready.length) {
      this.#ready = this.#ready.slice(this.#head);
      this.#head = 0;
    }
    let wait: Promise<void> | null = null;
    let passed: Set<string> | null = null;
    // Bounded: a payer with thousands of entries waiting makes the others wait too, past this.
    const end = Math.min(this.#ready.length, this.#head + MAX_PASSED);
    for (let i = this.#head; i < end; i++) {
      const e = this.#ready[i];
      if (!this.#live(e)) continue;
      const payer = e.chain.payer ?? e.owner;
      if (passed?.has(payer)) continue;
      const w = this.#deps.turnWait?.(payer);
      if (!w) {
        if (i === this.#head) this.#head++;
        return e;
      }
      wait ??= w;
      (passed ??= new Set()).add(payer);
    }
    return wait;
  }

  /** Whether a ready entry is still to run (not halted, not run from behind the head). */
  #live(e: Entry): boolean {
    return !e.halted && this.#entries.has(e.pid);
  }

  /** Runs one entry: its action list, command by command, as its executor. */
  async #run(e: Entry): Promise<void> {
    this.#remove(e);
    const executor = this.#deps.object(e.executor);
    if (!executor || executor.flags.includes("halt")) return;
    const limits = this.#deps.limits();
    if (++e.chain.spent > limits.chainLimit) {
      const payer = startedBy(e.chain);
      if (payer !== undefined && payer !== e.owner) {
        // Another player's line began the chain: its entries are the runaway, whoever's
        // objects run them; the owner's other entries (a clock's wait) are not its to halt.
        // Both are told: the one whose line it was, and the owner whose object ran away.
        const n = this.#haltWhere((x) => x.chain === e.chain);
        if (!e.chain.stopped) {
          e.chain.stopped = true;
          const msg =
            `Run away objects: a chain ${
              this.#deps.object(payer)?.name ?? "a player"
            }'s line began ran ${limits.chainLimit} queue entries without a pause of a second ` +
            `(the last ${executor.name}(#${executor.id})'s). Halted ${n + 1} ` +
            `entr${n === 0 ? "y" : "ies"} of that chain (queue.chainLimit).`;
          this.#deps.notify(payer, msg);
          this.#deps.notify(e.owner, msg);
        }
        return;
      }
      const n = this.#haltWhere((x) => x.owner === e.owner);
      if (!e.chain.stopped) {
        e.chain.stopped = true;
        this.#deps.notify(
          e.owner,
          `Run away objects: ${executor.name}(#${executor.id}) ran ${limits.chainLimit} queue ` +
            `entries in a chain without a pause of a second. Halted ${n + 1} ` +
            `entr${n === 0 ? "y" : "ies"} (queue.chainLimit).`,
        );
      }
      return;
    }
    const frame: QueueFrame = {
      enactor: e.enactor,
      caller: e.caller,
      args: e.args,
      regs: new Map(e.regs),
      chain: e.chain,
      broken: false,
      depth: 0,
      inline: { left: INLINE_BUDGET },
    };
    this.#running = e;
    e.where = "running";
    try {
      for (const line of splitActions(e.action)) {
        if (frame.broken || e.halted || this.#closed) break;
        await this.#deps.run(e.executor, line, frame);
      }
    } catch (err) {
      this.#deps.log?.(`queue: entry ${e.pid} of #${e.executor} failed: ${err}`);
    } finally {
      this.#running = null;
    }
  }

  #haltWhere(match: (e: Entry) => boolean): number {
    let n = 0;
    for (const e of [...this.#entries.values()]) {
      if (!match(e)) continue;
      this.#haltEntry(e);
      n++;
    }
    const r = this.#running;
    if (r && !r.halted && match(r)) r.halted = true;
    return n;
  }

  #haltEntry(e: Entry): void {
    e.halted = true;
    if (e.handle !== null) this.#deps.clock.clearTimeout(e.handle);
    e.handle = null;
    if (e.semaphore) this.#countSemaphore(e.semaphore, -1);
    this.#leaveSemaphore(e);
    if (e.timerId) this.#cancel(e.pid, e.timerId);
    this.#remove(e);
  }
}

/** Whose quota an object's entries count against: its owner, or itself for a player. */
export function ownerOf(o: DbObject): string {
  return o.flags.includes("player") || !o.owner ? o.id : o.owner;
}

/** The player whose line a chain is the doing of: its origin, else its payer. */
function startedBy(chain: QueueChain): string | undefined {
  return chain.origin ?? chain.payer;
}

function semKey(s: SemaphoreRef): string {
  return `${s.object}/${s.attr.toUpperCase()}`;
}

/** Semaphore counts kept in memory (a queue with no attribute store: unit tests). */
function memoryCounts(): SemaphoreCounts {
  const counts = new Map<string, number>();
  return {
    get: (sem) => counts.get(semKey(sem)) ?? 0,
    set: (sem, n) => n ? counts.set(semKey(sem), n) : counts.delete(semKey(sem)),
  };
}

/** A stored wait read back, or null when it is not one. */
function storedWait(p: unknown): StoredWait | null {
  if (!p || typeof p !== "object") return null;
  const w = p as Partial<StoredWait>;
  if (
    typeof w.pid !== "number" || typeof w.executor !== "string" ||
    typeof w.enactor !== "string" || typeof w.caller !== "string" ||
    typeof w.action !== "string" || typeof w.owner !== "string" ||
    !Array.isArray(w.args) || !Array.isArray(w.regs)
  ) return null;
  return {
    pid: w.pid,
    executor: w.executor,
    enactor: w.enactor,
    caller: w.caller,
    action: w.action,
    args: w.args.map(String),
    regs: w.regs.filter((r) => Array.isArray(r) && r.length === 2).map((
      [k, v],
    ) => [String(k), String(v)]),
    owner: w.owner,
    foreign: w.foreign === true,
    ...(typeof w.origin === "string" ? { origin: w.origin } : {}),
  };
}
