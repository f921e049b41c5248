/**
 * Finding an unreadable entry in a list range. Deno KV reads a list in batches and throws
 * for the whole batch when one value cannot be deserialized, without saying which key it
 * was, and it has no keys-only listing. What still works is asking whether a range holds
 * any entry at all: a one-entry list of a range with nothing in it returns nothing, and
 * one with something returns or throws. Bisecting on the cursor bytes (the encoded key
 * after the selector's common prefix) narrows down the unreadable key byte by byte:
 * about nine one-entry lists per key byte, paid only when a bad entry is met.
 */
import { compareBytes, decodeKey, encodeKey, toCursor } from "./key_codec.ts";

/** True for the error Deno KV throws when a stored value cannot be read back. */
export function isUnreadableError(e: unknown): boolean {
  return e instanceof Error && /deserializ/i.test(e.message);
}

/**
 * True for KV's refusal of a key longer than it can hold ("Key too large for read"): no
 * such key can exist, so a read of it finds nothing.
 */
export function isKeyTooLargeForRead(e: unknown): boolean {
  return e instanceof TypeError && /key too large for read/i.test(e.message);
}

/** True for KV's refusal to write a key longer than it can hold. */
export function isKeyTooLargeForWrite(e: unknown): boolean {
  return e instanceof TypeError && /key too large for write/i.test(e.message);
}

/** Longest encoded key Deno KV writes, in bytes (a read bound may take one more). */
const MAX_KEY_BYTES = 2048;

type Selector = {
  prefix?: Deno.KvKey;
  start?: Deno.KvKey;
  end?: Deno.KvKey;
};

/** The bytes cursors of `sel` are relative to. */
export function commonPrefix(sel: Selector): Uint8Array {
  if (sel.prefix) return encodeKey(sel.prefix);
  const a = encodeKey(sel.start!);
  const b = encodeKey(sel.end!);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(0, i);
}

function concat(a: Uint8Array, ...rest: number[]): Uint8Array {
  const out = new Uint8Array(a.length + rest.length);
  out.set(a);
  out.set(rest, a.length);
  return out;
}

/** [lo, hi): the byte range a selector lists. */
function rangeOf(sel: Selector): [Uint8Array, Uint8Array] {
  const p = sel.prefix ? encodeKey(sel.prefix) : null;
  const lo = sel.start ? encodeKey(sel.start) : concat(p!, 0x00);
  const hi = sel.end ? encodeKey(sel.end) : concat(p!, 0xff);
  return [lo, hi];
}

/** The selector of the part of `sel` past `after` (forward) or before it (reverse). */
function narrowed(sel: Selector, after: Deno.KvKey | null, reverse: boolean): Selector {
  if (!after) return sel;
  // `[...key, empty bytes]` is the very next key after `key`: nothing sorts between them.
  const out: Selector = reverse
    ? { ...sel, end: after }
    : { ...sel, start: [...after, new Uint8Array()] };
  if (out.start && out.end) delete out.prefix;
  return out;
}

/** True when the one-entry list of `sel` with these options finds anything (or cannot read it). */
async function holdsAny(kv: Deno.Kv, sel: Selector, opts: Deno.KvListOptions): Promise<boolean> {
  try {
    for await (
      const _ of kv.list(sel as Deno.KvListSelector, { ...opts, limit: 1, batchSize: 1 })
    ) {
      return true;
    }
    return false;
  } catch (e) {
    if (isUnreadableError(e)) return true;
    throw e;
  }
}

/**
 * The key of the first entry of `sel` after `after` (or the last one before it, when
 * `reverse`), which the caller found unreadable. Returns its encoded bytes and its key,
 * or null when it cannot be pinned down.
 */
export async function locateUnreadable(
  kv: Deno.Kv,
  selector: Deno.KvListSelector,
  after: Deno.KvKey | null,
  reverse: boolean,
): Promise<{ bytes: Uint8Array; key: Deno.KvKey } | null> {
  const sel = narrowed(selector as Selector, after, reverse);
  const cp = commonPrefix(sel);
  const [lo, hi] = rangeOf(sel);
  const cursorOf = (c: Uint8Array) => toCursor(c.subarray(cp.length));
  let probes = 0;

  // Forward: `b` is the first entry of [lo, hi). atLeast(c) is "b >= c": nothing in [lo, c).
  const atLeast = async (c: Uint8Array): Promise<boolean> => {
    if (compareBytes(c, lo) <= 0) return true;
    if (compareBytes(c, hi) > 0) return false;
    probes++;
    return !(await holdsAny(kv, sel, { reverse: true, cursor: cursorOf(c) }));
  };
  // Reverse: `b` is the last entry of [lo, hi). atMost(c) is "b <= c": nothing past c.
  const atMost = async (c: Uint8Array): Promise<boolean> => {
    if (compareBytes(c, hi) >= 0) return true;
    if (compareBytes(c, lo) < 0) return false;
    probes++;
    return !(await holdsAny(kv, sel, { cursor: cursorOf(c) }));
  };

  let t: Uint8Array = cp.slice();
  while (t.length <= MAX_KEY_BYTES) {
    if (!reverse) {
      if (!(await atLeast(concat(t, 0)))) return found(t);
      // The largest next byte x with b >= t+x is b's next byte.
      let [a, z] = [0, 255];
      while (a < z) {
        const m = (a + z + 1) >> 1;
        if (await atLeast(concat(t, m))) a = m;
        else z = m - 1;
      }
      t = concat(t, a);
    } else {
      if (await atMost(t)) return found(t);
      // The smallest next byte x with b <= t+x+FF..FF is b's next byte.
      // Padded to the longest key, so every key that starts with t+x sorts at or before it.
      const pad = new Array(Math.max(0, MAX_KEY_BYTES - 1 - t.length)).fill(0xff);
      let [a, z] = [0, 255];
      if (!(await atMost(concat(t, 255, ...pad)))) return null;
      while (a < z) {
        const m = (a + z) >> 1;
        if (await atMost(concat(t, m, ...pad))) z = m;
        else a = m + 1;
      }
      t = concat(t, a);
    }
    if (probes > 40 * MAX_KEY_BYTES) return null;
  }
  return null;

  function found(bytes: Uint8Array) {
    const key = decodeKey(bytes);
    return key ? { bytes, key } : null;
  }
}
