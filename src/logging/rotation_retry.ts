/**
 * When a log rotation that failed is tried again. A rename that fails (a name taken by a
 * directory, permissions, a full disk) usually keeps failing until someone acts, and trying at
 * every line cost a close, a stat per rotated file, the renames and a reopen for each line a busy
 * game wrote. So after a failure the next try waits, 1 s doubling to a minute; the lines written
 * meanwhile go to the live file as before, so none is lost (docs/security.md).
 */

/** The wait after the first failure. */
export const FIRST_RETRY_MS = 1_000;
/** The longest wait between two tries. */
export const MAX_RETRY_MS = 60_000;

/** The retry state of one log file's rotation (pure: the caller gives the time). */
export class RotationRetry {
  /** No try before this time (ms); 0 while nothing failed. */
  #notBefore = 0;
  /** The wait after the next failure. */
  #next = FIRST_RETRY_MS;

  /** True while a failure is unresolved (its message was said). */
  get failing(): boolean {
    return this.#notBefore !== 0;
  }

  /** True when a rotation may be tried at `now`. */
  due(now: number): boolean {
    return now >= this.#notBefore;
  }

  /** A try at `now` failed: the next waits longer, up to the bound. */
  failed(now: number): void {
    this.#notBefore = now + this.#next;
    this.#next = Math.min(MAX_RETRY_MS, this.#next * 2);
  }

  /** A try succeeded: the next failure starts from the first wait again. */
  succeeded(): void {
    this.#notBefore = 0;
    this.#next = FIRST_RETRY_MS;
  }
}
