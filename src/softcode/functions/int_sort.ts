/**
 * sort()'s quick path for a list of plain integers (`12`, `-3`, `+7`), the commonest numeric
 * sort. Canonical integers within 32 bits (`12 -3 40`, most lists) are read into one typed array,
 * sorted natively and written back from the sorted values (sortCanonical); any other plain
 * integers are sorted as numbers packed with their positions and copied from the list's own
 * characters (sortWritten). Either gives what sorting the split words by toInt() does, equal
 * numbers kept in their order; any other list is left to the general path. Their arrays are the
 * engine's work buffers (src/softcode/buffers.ts), not made anew for each call.
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
  return sortCanonical(list, sep.charCodeAt(0), osep, buffers) ??
    sortWritten(list, sep.charCodeAt(0), osep, buffers);
}

/** Canonical integers (no sign but `-`, no leading zero, not `-0`) up to this size either way. */
const CANON_MOST = 2147483647;

/**
 * The commonest list, canonical integers within 32 bits (`12 -3 40`) and an ASCII output
 * separator, sorted with its values alone: an item's text is its value's digits, so equal values
 * are the same text and the result is written from the sorted values. One pass reads each value
 * into one typed array (no positions, no copy of the items' places), which is sorted natively and
 * read once to write the result: a paced call touches about half the memory the general integer
 * path does (docs/bench.md). Undefined for any other list, which sortWritten() then reads.
 */
function sortCanonical(
  list: string,
  s: number,
  osep: string,
  buffers: WorkBuffers,
): string | undefined {
  for (let k = 0; k < osep.length; k++) if (osep.charCodeAt(k) > 0x7f) return undefined;
  const spaces = s === 0x20;
  let i = 0, end = list.length;
  if (spaces) {
    while (i < end && list.charCodeAt(i) === 0x20) i++;
    while (end > i && list.charCodeAt(end - 1) === 0x20) end--;
  }
  if (i >= end) return undefined;
  const keys = buffers.int32(0, (end - i + 1) >> 1);
  let count = 0, chars = 0, min = CANON_MOST, max = -CANON_MOST;
  for (;;) {
    const start = i;
    const neg = list.charCodeAt(i) === 0x2d;
    if (neg) i++;
    const digits = i;
    let v = 0;
    while (i < end) {
      const d = list.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      v = v * 10 + d;
      i++;
    }
    const len = i - digits;
    // No digits, a leading zero, `-0` or too many digits: not canonical.
    if (len === 0 || len > 10 || v > CANON_MOST) return undefined;
    if (list.charCodeAt(digits) === 48 && (len > 1 || neg)) return undefined;
    if (neg) v = -v;
    keys[count++] = v;
    if (v < min) min = v;
    if (v > max) max = v;
    chars += i - start;
    if (i === end) break;
    if (list.charCodeAt(i) !== s) return undefined;
    i++;
    if (spaces) { while (list.charCodeAt(i) === 0x20) i++; }
    else if (i === end) return undefined;
  }
  const sorted = count < RADIX_FROM
    ? keys.subarray(0, count).sort()
    : radixSorted(keys, count, min, max, buffers);
  const size = chars + osep.length * (count - 1);
  const buf = buffers.bytes(size);
  let at = 0;
  for (let k = 0; k < count; k++) {
    if (k > 0) { for (let j = 0; j < osep.length; j++) buf[at++] = osep.charCodeAt(j); }
    let v = sorted[k];
    if (v < 0) {
      buf[at++] = 0x2d;
      v = -v;
    }
    // The digits from the last, where the value's length puts it.
    for (let t = v; t >= 10; t = (t / 10) | 0) at++;
    let j = ++at;
    do {
      buf[--j] = 48 + v % 10;
      v = (v / 10) | 0;
    } while (v > 0);
  }
  return buffers.ascii(size);
}

/** Lists from this long are sorted by radix; a shorter one natively, with less to set up. */
const RADIX_FROM = 64;

/**
 * The first `n` keys, between `min` and `max`, in order: a radix sort by bytes of their distance
 * from `min`, as many passes as the span's bytes, all the passes' counts made in one read first.
 * A paced call of the native sort took three times the whole of this one (V8's call into its
 * runtime and a general sort's code, cold each time: docs/bench.md); this is one small loop's code
 * and three small arrays walked in order. Its result is `keys` or work buffer 1.
 */
function radixSorted(
  keys: Int32Array,
  n: number,
  min: number,
  max: number,
  buffers: WorkBuffers,
): Int32Array {
  const span = max - min;
  let passes = 0;
  while (passes < 4 && span >= 2 ** (8 * passes)) passes++;
  const counts = buffers.int32(2, 1024).fill(0, 0, 256 * passes);
  for (let k = 0; k < n; k++) {
    const u = keys[k] - min;
    counts[u & 255]++;
    if (passes > 1) counts[256 + ((u >>> 8) & 255)]++;
    if (passes > 2) counts[512 + ((u >>> 16) & 255)]++;
    if (passes > 3) counts[768 + (u >>> 24)]++;
  }
  let from = keys, to = buffers.int32(1, n);
  for (let p = 0; p < passes; p++) {
    const base = 256 * p, shift = 8 * p;
    // A byte that every key shares orders nothing: its pass is left out.
    if (counts[base + (((from[0] - min) >>> shift) & 255)] === n) continue;
    for (let d = 0, at = 0; d < 256; d++) {
      const c = counts[base + d];
      counts[base + d] = at;
      at += c;
    }
    for (let k = 0; k < n; k++) {
      const v = from[k];
      to[counts[base + (((v - min) >>> shift) & 255)]++] = v;
    }
    const t = from;
    from = to;
    to = t;
  }
  return from;
}

/**
 * Any list of plain integers (signs, leading zeros, up to 15 digits): sorted by value packed with
 * each item's position, stably, and the result copied from the items' own characters.
 */
function sortWritten(
  list: string,
  s: number,
  osep: string,
  buffers: WorkBuffers,
): string | null {
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
