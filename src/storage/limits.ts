/**
 * What may be stored: Deno KV refuses a value over 64 KiB (a bare TypeError), and accepts
 * values nested so deeply that it can never read them back ("could not deserialize value":
 * measured at about 2,700 levels of objects, 3,600 of arrays, fewer on a deep call stack).
 * Every write is checked here first, so the refusal is a clear ValidationError (400, or the
 * message in game) that names the limit, and nothing unreadable is ever written.
 */
import { serialize } from "node:v8";
import { ValidationError } from "../errors.ts";

/** Largest value Deno KV stores, in encoded bytes (64 KiB). */
export const MAX_VALUE_BYTES = 65_536;

/** Deepest nesting of any stored value: far below where KV can no longer read it back. */
export const MAX_STORED_DEPTH = 64;

/** Most keys and elements in any stored value (a 64 KiB value cannot hold many more). */
export const MAX_STORED_KEYS = 20_000;

/** Bounds of a user-supplied structure. */
export interface ShapeLimits {
  /** Deepest nesting: a flat object is 1, an object inside it 2. */
  depth: number;
  /** Most object keys and array elements, counted over the whole structure. */
  keys: number;
}

/** Bounds of structures players send (object `data.state` and the like). */
export const USER_SHAPE: ShapeLimits = { depth: 32, keys: 4096 };

/** Bytes Deno KV stores a value in: its V8 serialization, as KV does (raw for bytes). */
export function encodedSize(value: unknown): number {
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Deno.KvU64) return 8;
  return serialize(value).byteLength;
}

function childrenOf(v: object): Iterable<unknown> {
  if (Array.isArray(v)) return v;
  if (v instanceof Map) return [...v.keys(), ...v.values()];
  if (v instanceof Set) return v.values();
  if (ArrayBuffer.isView(v) || v instanceof Date || v instanceof RegExp) return [];
  return Object.values(v);
}

/**
 * Why `value` is nested deeper or holds more keys than `limits` allow, or null. Walks without
 * recursion (a hostile structure must not overflow the stack) and stops at the first excess,
 * so a cycle ends at the key limit.
 */
export function shapeProblem(value: unknown, limits: ShapeLimits): string | null {
  const stack: [unknown, number][] = [[value, 0]];
  let keys = 0;
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth + 1 > limits.depth) return `nested more than ${limits.depth} levels deep`;
    for (const child of childrenOf(v)) {
      if (++keys > limits.keys) return `more than ${limits.keys} keys and elements in all`;
      stack.push([child, depth + 1]);
    }
  }
  return null;
}

/** Why KV must not be given `value`, or null when it can store and read it back. */
export function storableProblem(value: unknown): string | null {
  const shape = shapeProblem(value, { depth: MAX_STORED_DEPTH, keys: MAX_STORED_KEYS });
  if (shape) return `it is ${shape}`;
  const size = encodedSize(value);
  if (size > MAX_VALUE_BYTES) {
    return `it takes ${size} bytes and a stored value may take at most ${MAX_VALUE_BYTES} bytes (64 KiB)`;
  }
  return null;
}

/** Throws ValidationError naming the limit when KV must not be given `value`. */
export function checkStorable(value: unknown, what = "That value"): void {
  const problem = storableProblem(value);
  if (problem) throw new ValidationError(`${what} cannot be stored: ${problem}.`);
}

/** Throws ValidationError when a user-supplied structure breaks `limits` (default USER_SHAPE). */
export function checkShape(value: unknown, what: string, limits = USER_SHAPE): void {
  const problem = shapeProblem(value, limits);
  if (problem) {
    throw new ValidationError(
      `${what} must be at most ${limits.depth} levels deep with at most ${limits.keys} keys; it is ${problem}.`,
    );
  }
}
