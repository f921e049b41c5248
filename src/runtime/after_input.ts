/**
 * Work that must let other clients in first. Deno's event loop runs libuv's phases in turn:
 * timers, then the poll that reads the sockets, then immediates. A chain of `setImmediate`s
 * never yields to input (those queued meanwhile run too, before the sockets are read), and one
 * zero timer does only when it is not yet due as the loop comes round to its timers: a
 * millisecond late (a loaded machine, a long callback after it was armed) it runs before the
 * poll. A timer armed by a timer can never run in the phase that armed it, so a poll (which
 * reads every socket ready by then) always comes between (src/runtime/after_input_test.ts).
 */

/** Runs `fn` once the engine has read the input that is waiting (a zero timer armed by one). */
export function afterInput(fn: () => void): void {
  setTimeout(() => setTimeout(fn, 0), 0);
}
