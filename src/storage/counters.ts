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
export async function takeNext(
  kv: Deno.Kv,
  key: Deno.KvKey,
  reserve?: Reserve,
): Promise<number> {
  return (await takeNextCommitted(kv, key, reserve)).n;
}

/** What taking a number committed: the number and the commit's versionstamp. */
export interface TakenCount {
  n: number;
  versionstamp: string;
}

/** As {@linkcode takeNext}, also answering the versionstamp of the commit that took it. */
export function takeNextCommitted(
  kv: Deno.Kv,
  key: Deno.KvKey,
  reserve?: Reserve,
): Promise<TakenCount> {
  return retryAtomic(async () => {
    const cur = await kv.get<number>(key);
    const n = (cur.value ?? 0) + 1;
    const op = kv.atomic().check(cur).set(key, n);
    if (reserve && (await reserve(n, op)) === false) return null;
    const res = await op.commit();
    return res.ok ? { n, versionstamp: res.versionstamp } : null;
  });
}

/** Takes the next number of an engine counter (see {@linkcode takeNext}). */
export function nextCount(kv: Deno.Kv, name: string, reserve?: Reserve): Promise<number> {
  return takeNext(kv, keys.counter(name), reserve);
}

/** Takes the next number of an engine counter, with the versionstamp of its commit. */
export function nextCountCommitted(
  kv: Deno.Kv,
  name: string,
  reserve?: Reserve,
): Promise<TakenCount> {
  return takeNextCommitted(kv, keys.counter(name), reserve);
}
