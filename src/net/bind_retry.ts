/**
 * Opening a port that is taken for a moment. After a restart the engine's ports were free an
 * instant ago; anything on the machine may hold one briefly (an outgoing connection given it as its
 * local port, a test picking a free port), so a restarted engine tries again for a bounded time
 * instead of giving up at once. A first start does not: a port in use there is the owner's to fix
 * (docs/operations.md, "A restart that cannot start").
 */

/** How long a restarted engine keeps trying a taken port before it gives up (exit 78). */
export const RESTART_BIND_RETRY_MS = 10_000;

/** First wait between two tries; it doubles up to {@linkcode BIND_RETRY_MAX_STEP_MS}. */
const FIRST_STEP_MS = 50;
/** Longest wait between two tries. */
const BIND_RETRY_MAX_STEP_MS = 1_000;

/** Settings of {@linkcode bindWithRetry}. */
export interface BindRetryOptions {
  /** How long to keep trying after the first failure; 0 tries once. */
  budgetMs: number;
  /** What is being opened, for the log lines (`127.0.0.1:4203 (server.http)`). */
  what: string;
  log: (line: string) => void;
  /** Milliseconds since some fixed point (tests pass a clock). */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Runs `bind` until it succeeds; a port in use (`Deno.errors.AddrInUse`) is tried again with a
 * doubling wait until `budgetMs` has passed since the first failure, then its error is thrown.
 * Any other error is thrown at once. Logs the first failure and, if one came, the success.
 */
export async function bindWithRetry<T>(bind: () => T, opts: BindRetryOptions): Promise<T> {
  const now = opts.now ?? (() => performance.now());
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  let firstFailure: number | null = null;
  let step = FIRST_STEP_MS;
  for (;;) {
    try {
      const bound = bind();
      if (firstFailure !== null) {
        opts.log(`engine: ${opts.what} is free again after ${Math.round(now() - firstFailure)} ms`);
      }
      return bound;
    } catch (e) {
      if (!(e instanceof Deno.errors.AddrInUse) || opts.budgetMs <= 0) throw e;
      const t = now();
      if (firstFailure === null) {
        firstFailure = t;
        opts.log(
          `engine: ${opts.what} is in use; trying again for up to ` +
            `${Math.round(opts.budgetMs / 1000)} s (the telnet sidecar keeps the players)`,
        );
      }
      const left = firstFailure + opts.budgetMs - t;
      if (left <= 0) throw e;
      await sleep(Math.min(step, left));
      step = Math.min(BIND_RETRY_MAX_STEP_MS, step * 2);
    }
  }
}
