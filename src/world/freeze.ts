/**
 * Freezes a value and everything inside it, so a cached value cannot be changed by a reader.
 * Typed arrays and DataViews are walked past, not frozen: freezing a view with elements throws
 * (a TypeError), and the caches hand out copies of what they hold anyway.
 */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !ArrayBuffer.isView(value) && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
