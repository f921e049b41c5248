/** Atomic sequential counters (dbrefs, job numbers, event numbers, ...). */
import { keys } from "./keys.ts";
import { retryAtomic } from "./kv.ts";

/** Current value of a counter (0 when never used). */
export async function currentCount(kv: Deno.Kv, name: string): Promise<number> {
  const e = await kv.get<number>(keys.counter(name));
  return e.value ?? 0;
}

/**
 * Takes the next number of a counter. When `reserve` is given it must add its
 * writes to the same atomic operation, so the number and the record it names
 * commit together or not at all; returning false there means "retry".
 */
export function nextCount(
  kv: Deno.Kv,
  name: string,
  reserve?: (n: number, op: Deno.AtomicOperation) => Promise<boolean> | boolean,
): Promise<number> {
  return retryAtomic(async () => {
    const key = keys.counter(name);
    const cur = await kv.get<number>(key);
    const n = (cur.value ?? 0) + 1;
    const op = kv.atomic().check(cur).set(key, n);
    if (reserve && !(await reserve(n, op))) return null;
    const res = await op.commit();
    return res.ok ? n : null;
  });
}
