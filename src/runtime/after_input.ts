/**
 * Work that must let other clients in first. Deno runs every immediate, those queued meanwhile
 * too, before it reads sockets again, so a chain of `setImmediate`s never yields to input; a
 * timer fires only after the sockets ready meanwhile were read (src/runtime/after_input_test.ts).
 */

/** Runs `fn` once the engine has read the input that is waiting (a zero timer). */
export function afterInput(fn: () => void): void {
  setTimeout(fn, 0);
}
