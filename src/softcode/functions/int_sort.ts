/**
 * sort()'s quick path for a list of plain integers (`12`, `-3`, `+7`), the commonest numeric
 * sort: one pass reads where each item is and its value, the items are sorted as numbers packed
 * with their positions (a typed array's own sort, no comparison function), and the result is
 * copied from the list's own characters. It gives what sorting the split words by toInt() does,
 * equal numbers kept in their order; any other list is left to the general path. Its arrays are
 * the engine's work buffers (src/softcode/buffers.ts), not made anew for each call.
 */
import type { WorkBuffers } from "../buffers.ts";

/** Numbers from here on (16 digits) are left to the general path's reading of them. */
const TOO_LONG = 1e15;

/** Shared by every call: a list that holds non-ASCII text gets the general path. */
const DECODER = new TextDecoder();

/**
 * `list` split at `sep` (one character: a space splits at runs of spaces, ignoring them at
 * either end, as splitList() does) and sorted by number, joined with `osep`; null when an item
 * is not a plain integer (or the list is empty), so the caller's general sort decides.
 */
export function sortIntegers(
  list: string,
  sep: string,
  osep: string,
  buffers: WorkBuffers,
): string | null {
  if (sep.length !== 1) return null;
  const s = sep.charCodeAt(0);
  const spaces = s === 0x20;
  const n = list.length;
  let i = 0, end = n;
  if (spaces) {
    while (i < end && list.charCodeAt(i) === 0x20) i++;
    while (end > i && list.charCodeAt(end - 1) === 0x20) end--;
  }
  if (i >= end) return null;
  // Each item is its sign and digits: [starts[k], ends[k]). There is at most one in every two
  // characters (a digit and a separator).
  const most = (end - i + 1) >> 1;
  const starts = buffers.int32(0, most);
  const ends = buffers.int32(1, most);
  const keys = buffers.float64(most);
  let count = 0;
  let min = Infinity, max = -Infinity;
  for (;;) {
    const start = i;
    let neg = false;
    const c = list.charCodeAt(i);
    if (c === 0x2d || c === 0x2b) {
      neg = c === 0x2d;
      i++;
    }
    const digits = i;
    let v = 0;
    while (i < end) {
      const d = list.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      v = v * 10 + d;
      i++;
    }
    if (i === digits || v >= TOO_LONG) return null;
    if (neg) v = -v;
    starts[count] = start;
    ends[count] = i;
    keys[count++] = v;
    if (v < min) min = v;
    if (v > max) max = v;
    if (i === end) break;
    if (list.charCodeAt(i) !== s) return null;
    i++;
    if (spaces) { while (list.charCodeAt(i) === 0x20) i++; }
    else if (i === end) return null;
  }
  const order = sortedPositions(keys, count, min, max, buffers);
  let ascii = true;
  for (let k = 0; k < osep.length; k++) if (osep.charCodeAt(k) > 0x7f) ascii = false;
  if (!ascii) {
    const out: string[] = new Array(count);
    for (let k = 0; k < count; k++) out[k] = list.slice(starts[order[k]], ends[order[k]]);
    return out.join(osep);
  }
  // ASCII throughout: the result's bytes are copied and made a string once (no string per item).
  let size = osep.length * (count - 1);
  for (let k = 0; k < count; k++) size += ends[k] - starts[k];
  const buf = buffers.bytes(size);
  let at = 0;
  for (let k = 0; k < count; k++) {
    if (k > 0) { for (let j = 0; j < osep.length; j++) buf[at++] = osep.charCodeAt(j); }
    const w = order[k];
    for (let j = starts[w], e = ends[w]; j < e; j++) buf[at++] = list.charCodeAt(j);
  }
  return DECODER.decode(buf.subarray(0, size));
}

/** Positions 0..n-1 ordered by the first `n` keys, ties by position. */
function sortedPositions(
  keys: Float64Array,
  n: number,
  min: number,
  max: number,
  buffers: WorkBuffers,
): ArrayLike<number> {
  let bits = 0;
  while ((1 << bits) < n) bits++;
  const out = buffers.int32(2, n);
  if (max - min < 2 ** (31 - bits)) {
    // Key above, position below, in one 32-bit integer: sorted natively, in place.
    for (let k = 0; k < n; k++) out[k] = ((keys[k] - min) << bits) | k;
    out.subarray(0, n).sort();
    const mask = (1 << bits) - 1;
    for (let k = 0; k < n; k++) out[k] &= mask;
    return out;
  }
  if (Math.max(Math.abs(min), Math.abs(max)) * 2 ** bits < 2 ** 53) {
    // The same in a double, exact below 2^53.
    const packed = new Float64Array(n);
    const scale = 2 ** bits;
    for (let k = 0; k < n; k++) packed[k] = keys[k] * scale + k;
    packed.sort();
    for (let k = 0; k < n; k++) {
      const v = packed[k];
      out[k] = v - Math.floor(v / scale) * scale;
    }
    return out;
  }
  const at = Array.from({ length: n }, (_, k) => k);
  at.sort((a, b) => keys[a] - keys[b] || a - b);
  return at;
}
