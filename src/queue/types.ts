/**
 * The command queue's contract (docs/softcode.md, "The queue"): what an action list runs with,
 * and the one entry point every part of the engine uses to run one as an object.
 */

/**
 * A chain of queue entries caused by one outside event (a typed line, a timer, a connection)
 * with no timed wait of a second or more between them: what a runaway loop spends.
 */
export interface QueueChain {
  /** Entries run so far in this chain. */
  spent: number;
  /** Stopped as a runaway (reported once). */
  stopped?: boolean;
  /**
   * The player whose typed line or event (a connection) began the chain, or the owner of the
   * object whose wait of a second or more began it: softcode's evaluation time
   * (`softcode.actorMs`) is charged to them. Absent (no player behind it): to each executor's
   * owner.
   */
  readonly payer?: string;
  /**
   * The player whose line set off the wait of a second or more that began this chain, when that
   * is not the payer (the waiting object's owner): what the chain queues is still held to the
   * owner's quota for entries others set off, and its runaway halts it alone.
   */
  readonly origin?: string;
}

/** What a command line runs with: MUX's `%#`, `%@`, `%0`-`%9` and `%q` registers. */
export interface QueueFrame {
  /** `%#`: who caused it (an id, no `#`). */
  readonly enactor: string;
  /** `%@`: who ran the code that queued it. */
  readonly caller: string;
  /** `%0`-`%9`. */
  readonly args: readonly string[];
  /** `%q0`-`%qz` and named registers: shared by the commands of one entry, as in MUX. */
  readonly regs: Map<string, string>;
  /** The chain the entry belongs to (null: a typed line, which starts a new one). */
  readonly chain: QueueChain | null;
  /** Set by `@break`/`@assert`: the rest of the entry's action list is not run. */
  broken: boolean;
  /** Action lists run inline (`/now`, `/inline`) around this line: bounded. */
  readonly depth: number;
  /** Commands the line (with what it runs inline) may still run inline: shared, bounded. */
  readonly inline: { left: number; told?: boolean };
}

/** Most commands one line or entry may run inline (`/now`, `/inline`), however nested. */
export const INLINE_BUDGET = 2000;

/** A frame for a line typed by `actor` (or run for it with no queue behind it). */
export function typedFrame(actor: string): QueueFrame {
  return {
    enactor: actor,
    caller: actor,
    args: [],
    regs: new Map(),
    chain: null,
    broken: false,
    depth: 0,
    inline: { left: INLINE_BUDGET },
  };
}

/** A semaphore an entry waits on: an object and an attribute (`SEMAPHORE` by default). */
export interface SemaphoreRef {
  object: string;
  attr: string;
}

/** What `enqueue` is asked to run. */
export interface QueueRequest {
  /** `%!`: whose action list it is (it runs with this object's permissions). */
  executor: string;
  /** `%#`: who caused it. */
  enactor: string;
  /** `%@` (default: the enactor). */
  caller?: string;
  /** The action list, unevaluated: commands separated by `;` outside braces. */
  action: string;
  /** `%0`-`%9` (at most ten are kept). */
  args?: readonly string[];
  /** `%q` registers the entry starts with (copied). */
  regs?: ReadonlyMap<string, string>;
  /**
   * The chain of the line that queues it (`u.frame.chain`), which the entry joins: a runaway
   * loop is counted along it. Pass it whenever a command or evaluation queues. Null: a new
   * chain (a typed line's). Absent: the chain of the entry running now, if any (so a
   * `$-command` or listen woken by a queued line is counted with it), else a new one.
   */
  chain?: QueueChain | null;
  /** Seconds to wait first; 0 or absent: the next turn. One second or more survives restarts. */
  delay?: number;
  /** Wait on this semaphore (with `delay` as the timeout when given). */
  semaphore?: SemaphoreRef;
}

/**
 * What `enqueue` answers: the entry's process id, or why it was not queued (`told`: the player
 * already told, the owner of a runaway).
 */
export type QueueOutcome = { pid: number } | { refused: string; told?: string };

/**
 * The queue as the rest of the engine sees it. `enqueue` is the one entry point: $-commands,
 * `^`-listens, `@a*` actions, `@trigger`, `@wait`, `@force` and `trigger()` all queue through it.
 */
export interface ActionQueue {
  /**
   * Queues an action list to run as `executor`, charged to its owner's quota. Never throws: a
   * refusal (the owner's quota, a halted object) is answered and told to the owner.
   */
  enqueue(req: QueueRequest): QueueOutcome;
}
