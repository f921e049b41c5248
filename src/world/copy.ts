/**
 * Copies of what the in-memory world holds. Held objects are frozen; a caller of the object
 * store's async reads may change what it is given, so those get copies (the synchronous
 * `peek` reads hand out the frozen record itself).
 */
/**
 * A copy of a held object. Objects are plain data (what Deno KV stores: records, arrays, strings,
 * numbers...), which a walk copies several times faster than `structuredClone`, whose serializer
 * was a tenth of a `think`'s time in the engine. Anything else inside (a Date, a Map, a typed
 * array, a record without the plain prototype or with a `__proto__` key) goes to
 * `structuredClone` as a whole, so the copy is always what it would have made.
 */
export function copyOf<T>(value: T): T {
  const copy = plainCopy(value, 0);
  return copy === NOT_PLAIN ? structuredClone(value) : copy as T;
}

const NOT_PLAIN = Symbol("not plain");

/** Deepest nesting the walk copies; deeper values (never seen in practice) take the slow way. */
const MAX_DEPTH = 64;

function plainCopy(value: unknown, depth: number): unknown {
  if (typeof value !== "object" || value === null) {
    return typeof value === "function" || typeof value === "symbol" ? NOT_PLAIN : value;
  }
  if (depth > MAX_DEPTH) return NOT_PLAIN;
  const proto = Object.getPrototypeOf(value);
  if (proto === Array.prototype) {
    const a = value as unknown[];
    const out = new Array(a.length);
    for (let i = 0; i < a.length; i++) {
      if (!(i in a)) return NOT_PLAIN;
      const v = plainCopy(a[i], depth + 1);
      if (v === NOT_PLAIN) return NOT_PLAIN;
      out[i] = v;
    }
    return out;
  }
  if (proto !== Object.prototype && proto !== null) return NOT_PLAIN;
  const out: Record<string, unknown> = {};
  for (const k in value) {
    if (k === "__proto__") return NOT_PLAIN;
    const v = plainCopy((value as Record<string, unknown>)[k], depth + 1);
    if (v === NOT_PLAIN) return NOT_PLAIN;
    out[k] = v;
  }
  return out;
}
