/**
 * Racers' starts for the tests that race writes against a destroy or a removal: set off at once,
 * a microtask later, or a few milliseconds later, so that some land before the write they race,
 * some with it and some after it.
 */

/** Resolves when a racer may go: `start` 0 at once, 1 after a microtask, 2 or more after `ms`. */
export function setOff(start: number, ms = 0): Promise<void> {
  if (start <= 0) return Promise.resolve();
  if (start === 1) return new Promise<void>((r) => queueMicrotask(r));
  return new Promise<void>((r) => setTimeout(r, ms));
}
