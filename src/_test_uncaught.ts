/**
 * Test helper: runs `fn` while catching the errors that escape to the event loop (a microtask
 * that threw), which would otherwise fail the test, and returns them in order.
 */
export async function catchingUncaught(fn: () => Promise<void>): Promise<unknown[]> {
  const errors: unknown[] = [];
  const onError = (e: ErrorEvent) => {
    errors.push(e.error);
    e.preventDefault();
  };
  globalThis.addEventListener("error", onError);
  try {
    await fn();
  } finally {
    globalThis.removeEventListener("error", onError);
  }
  return errors;
}
