/**
 * `ctx.timers`: a plugin's view of the engine's scheduler. Jobs are stored under the
 * plugin's lower-cased name and outlive the plugin; handlers are registered per kind and
 * released with the plugin's context, so a job due while its plugin is away waits (or is
 * dropped, as declared) until a handler of its kind is back.
 */
import type { OrphanPolicy, Scheduler, TimerHandler, TimerRecord } from "../timers/scheduler.ts";

/** Options of `ctx.timers.at`. */
export interface TimerOptions {
  /** What a job due while the plugin is not loaded does: `wait` (default) or `drop`. */
  ifUnloaded?: OrphanPolicy;
}

/** Options of `ctx.timers.every`. */
export interface EveryOptions extends TimerOptions {
  /** The first run (ms since the epoch or a Date); default one interval from now. */
  first?: number | Date;
}

/** Persistent timers of one plugin. */
export interface PluginTimers {
  /** Stores a one-shot job due at `time`; returns its id. */
  at(time: number | Date, kind: string, payload?: unknown, opts?: TimerOptions): Promise<string>;
  /** Stores a job repeating every `intervalMs` (at least 1000); returns its id. */
  every(intervalMs: number, kind: string, payload?: unknown, opts?: EveryOptions): Promise<string>;
  /** Removes one of the plugin's jobs; false when there was none. */
  cancel(id: string): Promise<boolean>;
  /** One of the plugin's jobs, or null. */
  get(id: string): Promise<TimerRecord | null>;
  /** The plugin's stored jobs, soonest first. */
  list(): Promise<TimerRecord[]>;
  /** Sets the handler of the plugin's jobs of `kind` (released on unload); returns its remover. */
  on(kind: string, handler: TimerHandler): () => void;
  /**
   * The engine clock's time in ms since the epoch: the clock timers run on (a hand-driven one
   * in tests), so records a plugin stamps with it can be compared byte for byte.
   */
  now(): number;
}

/** Builds `ctx.timers` for `owner`; `track` records each remover for the context's release. */
export function pluginTimers(
  scheduler: Scheduler,
  owner: string,
  track: (off: () => void) => void,
  check: () => void,
): PluginTimers {
  return {
    async at(time, kind, payload, opts = {}) {
      check();
      return await scheduler.schedule(owner, kind, toMs(time, "time"), payload, {
        ifUnloaded: opts.ifUnloaded,
      });
    },
    async every(intervalMs, kind, payload, opts = {}) {
      check();
      if (typeof intervalMs !== "number" || !Number.isFinite(intervalMs)) {
        throw new TypeError("timer interval must be a number of ms");
      }
      const first = opts.first === undefined
        ? scheduler.now() + intervalMs
        : toMs(opts.first, "first");
      return await scheduler.schedule(owner, kind, first, payload, {
        every: intervalMs,
        ifUnloaded: opts.ifUnloaded,
      });
    },
    cancel: (id) => scheduler.cancel(owner, String(id)),
    get: (id) => scheduler.get(owner, String(id)),
    list: () => scheduler.list(owner),
    now: () => scheduler.now(),
    on(kind, handler) {
      check();
      const off = scheduler.handle(owner, kind, handler);
      track(off);
      return off;
    },
  };
}

/** A due time as ms since the epoch; a Date or a finite number. */
function toMs(t: unknown, what: string): number {
  const ms = t instanceof Date ? t.getTime() : t;
  if (typeof ms !== "number" || !Number.isFinite(ms)) {
    throw new TypeError(`timer ${what} must be a Date or a number of ms since the epoch`);
  }
  return ms;
}
