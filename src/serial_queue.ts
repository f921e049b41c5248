/**
 * Runs async tasks one at a time, in order: writes that all touch one hot key (the dbref
 * counter), and plugin loads, reloads and unloads, which must never overlap.
 */
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();

  /** Queues `task`; resolves or rejects with its result. A failed task does not stop the next. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const next = this.#tail.then(task, task);
    this.#tail = next.catch(() => {});
    return next;
  }
}
