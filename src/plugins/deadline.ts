/** A deadline for plugin code the engine waits on (`init`, `remove`): a hang is an error. */

/** Runs `fn`; rejects with "`what` took longer than `ms` ms" if it has not settled by then. */
export async function withDeadline<T>(
  fn: () => T | Promise<T>,
  ms: number,
  what: string,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const p = Promise.resolve().then(fn);
  // A late rejection after the timeout must not become an unhandled rejection.
  p.catch(() => {});
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
