/**
 * Statistics of interleaved blocks: two servers measured in short alternating blocks (ABBA), and
 * a figure taken over matched pairs of blocks, so a period in which the machine runs slower falls
 * on both servers' blocks of a pair (docs/bench.md, "The round trip and fan-out by interleaved
 * blocks"). The interval comes from resampling whole block pairs, so samples of one block, which
 * share that block's period, are never treated as independent.
 */
import { quantile } from "./stats.ts";

/** The median of sorted `s` (the mean of the middle two when even). */
function median(s: readonly number[]): number {
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** One pair of neighbouring blocks: each server's samples (e.g. round trips in ms). */
export interface BlockPair {
  a: readonly number[];
  b: readonly number[];
}

/** A ratio of server A's quantile to server B's over matched block pairs. */
export interface PairedRatio {
  /** Block pairs counted. */
  pairs: number;
  /** The quantile of every A sample and of every B sample (pooled over the pairs). */
  a: number;
  b: number;
  /** a ÷ b. */
  ratio: number;
  /** The 95 % bootstrap interval of `ratio`, resampling block pairs. */
  lo: number;
  hi: number;
  /** The median of the per-pair ratios (each pair's A quantile ÷ its B quantile). */
  medianPairRatio: number;
  /** Each pair's quantile of A and of B, in order. */
  perPair: { a: number; b: number }[];
}

/** A small seeded generator (mulberry32), so a figure's interval is the same on every reading. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The q-quantile (nearest rank, as the shared driver's p50/p99) of unsorted samples. */
export function quantileOf(xs: readonly number[], q: number): number {
  return quantile([...xs].sort((x, y) => x - y), q);
}

/**
 * Server A's q-quantile over server B's, pooled over `pairs`, with a percentile bootstrap interval
 * (`resamples` draws of as many pairs, with replacement) and the median of per-pair ratios.
 */
export function pairedRatio(
  pairs: readonly BlockPair[],
  q: number,
  resamples = 1000,
  seed = 1,
): PairedRatio {
  if (pairs.length === 0) throw new Error("no block pairs");
  // Each block sorted once; a resample's quantile is then found by counting, not by merging.
  const sa = pairs.map((p) => Float64Array.from(p.a).sort());
  const sb = pairs.map((p) => Float64Array.from(p.b).sort());
  const va = Float64Array.from(pairs.flatMap((p) => p.a)).sort();
  const vb = Float64Array.from(pairs.flatMap((p) => p.b)).sort();
  const all = pairs.map((_, i) => i);
  const a = pooledQuantile(sa, va, all, q), b = pooledQuantile(sb, vb, all, q);
  const rnd = seededRandom(seed);
  const ratios: number[] = [];
  const n = pairs.length;
  for (let r = 0; r < resamples; r++) {
    const pick = Array.from({ length: n }, () => Math.floor(rnd() * n));
    ratios.push(pooledQuantile(sa, va, pick, q) / pooledQuantile(sb, vb, pick, q));
  }
  ratios.sort((x, y) => x - y);
  const perPair = pairs.map((_, i) => ({
    a: pooledQuantile(sa, va, [i], q),
    b: pooledQuantile(sb, vb, [i], q),
  }));
  const pr = perPair.map((p) => p.a / p.b).sort((x, y) => x - y);
  return {
    pairs: n,
    a,
    b,
    ratio: a / b,
    lo: ratios[Math.floor(0.025 * (ratios.length - 1))],
    hi: ratios[Math.ceil(0.975 * (ratios.length - 1))],
    medianPairRatio: median(pr),
    perPair,
  };
}

/**
 * The nearest-rank q-quantile of the union of sorted blocks `pick` (a block may be picked more
 * than once), without merging them: the smallest value of `values` (every sample of every block,
 * sorted) at or under which `rank` picked samples lie, found by bisection, each step counting
 * with a binary search in each picked block. That value is always one of the picked samples.
 */
export function pooledQuantile(
  blocks: readonly Float64Array[],
  values: Float64Array,
  pick: readonly number[],
  q: number,
): number {
  let total = 0;
  for (const i of pick) total += blocks[i].length;
  if (total === 0) return NaN;
  const rank = Math.min(total, Math.max(1, Math.ceil(q * total)));
  let lo = 0, hi = values.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    let c = 0;
    for (const i of pick) c += upperBound(blocks[i], values[mid]);
    if (c >= rank) hi = mid;
    else lo = mid + 1;
  }
  return values[lo];
}

/** How many of sorted `s` are at or under `v`. */
function upperBound(s: Float64Array, v: number): number {
  let lo = 0, hi = s.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (s[mid] <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
