/** Atomic sequential counters (dbrefs, job numbers, event numbers, ...). */
import { keys } from "./keys.ts";
import { retryAtomic } from "./kv.ts";

/** Current value of a counter (0 when never used). */
export async function currentCount(kv: Deno.Kv, name: string): Promise<number> {
  const e = await kv.get<number>(keys.counter(name));
  return e.value ?? 0;
}

/**
 * Adds its writes to the atomic operation that takes a counter's number `n`; they commit
 * together or not at all. Returning false gives the number up and tries again.
 */
export type Reserve = (
  n: number,
  op: Deno.AtomicOperation,
) => void | boolean | Promise<void | boolean>;

/**
 * Takes the next number (1, 2, ...) of the counter stored at `key`: the one implementation
 * behind engine counters ({@linkcode nextCount}) and plugin counters (`ctx.kv.next`).
 */
export function takeNext(kv: Deno.Kv, key: Deno.KvKey, reserve?: Reserve): Promise<number> {
  return retryAtomic(async () => {
    const cur = await kv.get<number>(key);
    const n = (cur.value ?? 0) + 1;
    const op = kv.atomic().check(cur).set(key, n);
    if (reserve && (await reserve(n, op)) === false) return null;
    return (await op.commit()).ok ? n : null;
  });
}

/** Takes the next number of an engine counter (see {@linkcode takeNext}). */
export function nextCount(kv: Deno.Kv, name: string, reserve?: Reserve): Promise<number> {
  return takeNext(kv, keys.counter(name), reserve);
}
