/** Test assertions over node:assert (the JSR standard library is not reachable here). */
import nodeAssert from "node:assert/strict";

/** Asserts a truthy value. */
export function assert(value: unknown, message?: string): asserts value {
  nodeAssert.ok(value, message);
}

/** Asserts deep strict equality. */
export function assertEquals<T>(actual: T, expected: T, message?: string): void {
  nodeAssert.deepStrictEqual(actual, expected, message);
}

/** Asserts inequality. */
export function assertNotEquals<T>(actual: T, expected: T, message?: string): void {
  nodeAssert.notDeepStrictEqual(actual, expected, message);
}

/** Asserts a string matches a pattern. */
export function assertMatch(actual: string, re: RegExp, message?: string): void {
  nodeAssert.match(actual, re, message);
}

/** Asserts that a promise rejects (optionally with a message matching `re`). */
export async function assertRejects(fn: () => Promise<unknown>, re?: RegExp): Promise<void> {
  if (re) await nodeAssert.rejects(fn, (e: Error) => re.test(e.message));
  else await nodeAssert.rejects(fn);
}
