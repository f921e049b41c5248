/** The restart delay of the supervisor loop (docs/operations.md), as a pure function. */

/** First delay, and the delay after a stable run. */
export const BASE_DELAY_MS = 1_000;
/** The delay never grows past this. */
export const MAX_DELAY_MS = 60_000;
/** A run at least this long counts as stable and resets the delay. */
export const STABLE_RUN_MS = 5_000;

/**
 * How long to wait before the next start, given the delay used before the last start
 * (null when there was none) and how long the last run lasted.
 *
 * Short runs double the delay (1 s, 2 s, 4 s, ... capped at 60 s) so a crash-looping engine does
 * not spin; a stable run starts the sequence again at 1 s. `maxDelayMs` lowers the cap (tests
 * that reboot many times in a row use 1 s); it is clamped to 1-60 s.
 */
export function restartDelay(
  previousDelayMs: number | null,
  runMs: number,
  maxDelayMs = MAX_DELAY_MS,
): number {
  const cap = Math.max(BASE_DELAY_MS, Math.min(MAX_DELAY_MS, maxDelayMs || MAX_DELAY_MS));
  if (previousDelayMs === null || !(runMs < STABLE_RUN_MS)) return BASE_DELAY_MS;
  const prev = Number.isFinite(previousDelayMs) ? previousDelayMs : cap;
  return Math.min(cap, Math.max(BASE_DELAY_MS, prev) * 2);
}
