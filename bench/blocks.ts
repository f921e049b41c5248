/**
 * Statistics of interleaved blocks (docs/bench.md, "An interleaved per-line CPU measure"): two
 * servers measured in short alternating blocks over one sitting, block k of one beside block k of
 * the other (a block pair: both taken seconds apart, in the same period of the machine). A figure
 * is computed over all of a server's blocks pooled (the total ÷ iterations), the ratio of the two
 * servers' figures with a bootstrap interval that resamples whole block pairs (so what a period
 * does to both sides stays together), and the median of the per-pair ratios beside it.
 *
 * Shared by the per-line CPU measure (bench/line_cpu.ts) and the round trip's (issue 34): the
 * statistic is a parameter, a mean of CPU differences for one and a pooled p50 for the other.
 */

/** A block pair: the samples of server A's block and of server B's block taken beside it. */
export interface BlockPair {
  a: readonly number[];
  b: readonly number[];
}

/** A figure of a set of block pairs: A's, B's, or their ratio. */
export type BlockStatistic = (pairs: readonly BlockPair[]) => number;

/** A seeded pseudo-random stream in [0, 1) (mulberry32): intervals repeat run to run. */
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

/**
 * The value at quantile `q` (0..1) of sorted `s`, linear between neighbours. An infinite sample
 * (a fan-out delivery lost) is the value where the quantile lands on it, or between it and
 * anything: never NaN from the arithmetic.
 */
export function quantileOf(s: readonly number[], q: number): number {
  if (s.length === 0) return NaN;
  const at = (s.length - 1) * q;
  const i = Math.floor(at);
  if (i + 1 >= s.length || at === i || s[i] === s[i + 1]) return s[i];
  return s[i] + (s[i + 1] - s[i]) * (at - i);
}

/** The median of `xs` (NaN when empty). */
export function medianOf(xs: readonly number[]): number {
  return quantileOf([...xs].sort((a, b) => a - b), 0.5);
}

/** The mean of every sample of side `side` over all pairs: the total ÷ its count. */
export function pooledMean(pairs: readonly BlockPair[], side: "a" | "b"): number {
  let sum = 0, n = 0;
  for (const p of pairs) {
    for (const x of p[side]) sum += x;
    n += p[side].length;
  }
  return n ? sum / n : NaN;
}

/** A's pooled mean ÷ B's: what the issues' total ÷ iterations gives on each side. */
export function ratioOfMeans(pairs: readonly BlockPair[]): number {
  return pooledMean(pairs, "a") / pooledMean(pairs, "b");
}

/** Settings of a bootstrap: draws, level, seed, and whether infinite statistics count. */
export interface BootstrapOptions {
  resamples?: number;
  level?: number;
  seed?: number;
  /**
   * Keep draws whose statistic is ±Infinity (a quantile ratio where one side's quantile is a
   * lost delivery: that side is slower than any finite figure) instead of leaving them out.
   */
  keepInfinite?: boolean;
}

/**
 * A percentile bootstrap interval of `stat` over `pairs`: `resamples` times, as many pairs drawn
 * with replacement, the statistic of each draw; the `level` interval of those (default 95 %).
 * Draws whose statistic is NaN are left out of the percentiles, and so are infinite ones (a
 * side's mean of 0) unless `keepInfinite`.
 */
export function bootstrap(
  pairs: readonly BlockPair[],
  stat: BlockStatistic,
  o: BootstrapOptions = {},
): { lo: number; hi: number } {
  if (pairs.length === 0) return { lo: NaN, hi: NaN };
  const resamples = Math.max(1, Math.min(100_000, Math.floor(o.resamples ?? 2000)));
  const level = o.level ?? 0.95;
  const rand = seededRandom(o.seed ?? 1);
  const draw: BlockPair[] = new Array(pairs.length);
  const out: number[] = [];
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < pairs.length; i++) draw[i] = pairs[Math.floor(rand() * pairs.length)];
    const x = stat(draw);
    if (o.keepInfinite ? !Number.isNaN(x) : Number.isFinite(x)) out.push(x);
  }
  out.sort((a, b) => a - b);
  return { lo: quantileOf(out, (1 - level) / 2), hi: quantileOf(out, 1 - (1 - level) / 2) };
}

/** A figure with its interval. */
export interface Interval {
  value: number;
  lo: number;
  hi: number;
}

/** The comparison of two servers over matched blocks. */
export interface BlockComparison {
  /** Block pairs used. */
  pairs: number;
  /** Each side's pooled mean with its bootstrap interval. */
  a: Interval;
  b: Interval;
  /** A ÷ B of the pooled means, with the bootstrap interval over block pairs. */
  ratio: Interval;
  /** The median of the per-pair ratios (each pair's A mean ÷ its B mean). */
  medianRatio: number;
  /** A − B of the pooled means, with its interval (the same resamples). */
  diff: Interval;
}

/** Each side's mean, their ratio and difference over `pairs`, with intervals (see the module). */
export function compareBlocks(
  pairs: readonly BlockPair[],
  o: { resamples?: number; level?: number; seed?: number } = {},
): BlockComparison {
  const one = (stat: BlockStatistic): Interval => ({
    value: stat(pairs),
    ...bootstrap(pairs, stat, o),
  });
  const mean = (side: "a" | "b"): BlockStatistic => (ps) => pooledMean(ps, side);
  const perPair = pairs.map((p) => ratioOfMeans([p])).filter(Number.isFinite);
  return {
    pairs: pairs.length,
    a: one(mean("a")),
    b: one(mean("b")),
    ratio: one(ratioOfMeans),
    medianRatio: medianOf(perPair),
    diff: one((ps) => pooledMean(ps, "a") - pooledMean(ps, "b")),
  };
}

/**
 * Block pairs a ±`halfWidth` interval needs, from an interval of `had` pairs: a bootstrap
 * interval narrows as 1/√pairs.
 */
export function pairsFor(iv: { lo: number; hi: number }, had: number, halfWidth: number): number {
  const h = (iv.hi - iv.lo) / 2;
  return Math.ceil(had * (h / halfWidth) ** 2);
}

/**
 * Pooled quantiles for the round trip's figures (a p50 or p99 over every sample of a side), the
 * nearest-rank quantile as the shared driver's (a sample, not an interpolation). A bootstrap of a
 * pooled quantile would sort each draw's union (hundreds of thousands of fan-out deliveries, for
 * thousands of draws); this one sorts each block once and, for a draw, bisects over the side's
 * sorted values counting with a binary search in each drawn block.
 */
export class PooledQuantile {
  readonly #sorted = new Map<readonly number[], Float64Array>();
  readonly #values: Record<"a" | "b", Float64Array>;

  /** Sorts the blocks of `pairs` once; statistics then take any draw of those pairs. */
  constructor(pairs: readonly BlockPair[]) {
    const all = { a: [] as number[], b: [] as number[] };
    for (const p of pairs) {
      for (const side of ["a", "b"] as const) {
        if (!this.#sorted.has(p[side])) {
          this.#sorted.set(p[side], Float64Array.from(p[side]).sort());
        }
        for (const x of p[side]) all[side].push(x);
      }
    }
    this.#values = { a: Float64Array.from(all.a).sort(), b: Float64Array.from(all.b).sort() };
  }

  /** The q-quantile of every sample of `side` in `pairs` (pairs of the constructor's; NaN if none). */
  of(pairs: readonly BlockPair[], side: "a" | "b", q: number): number {
    const blocks = pairs.map((p) => this.#block(p[side]));
    let total = 0;
    for (const s of blocks) total += s.length;
    if (total === 0) return NaN;
    const rank = Math.min(total, Math.max(1, Math.ceil(q * total)));
    // The smallest value at or under which `rank` drawn samples lie: always a drawn sample.
    const values = this.#values[side];
    let lo = 0, hi = values.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      let c = 0;
      for (const s of blocks) c += atOrUnder(s, values[mid]);
      if (c >= rank) hi = mid;
      else lo = mid + 1;
    }
    return values[lo];
  }

  /** A's q-quantile ÷ B's, as a statistic for {@linkcode bootstrap}. */
  ratio(q: number): BlockStatistic {
    return (ps) => this.of(ps, "a", q) / this.of(ps, "b", q);
  }

  #block(samples: readonly number[]): Float64Array {
    const s = this.#sorted.get(samples);
    if (!s) throw new Error("a block not given to the constructor");
    return s;
  }
}

/** How many of sorted `s` are at or under `v`. */
function atOrUnder(s: Float64Array, v: number): number {
  let lo = 0, hi = s.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (s[mid] <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The comparison of two servers' pooled q-quantiles over matched blocks. */
export interface QuantileComparison {
  pairs: number;
  q: number;
  a: number;
  b: number;
  /** A ÷ B of the pooled quantiles, with the bootstrap interval over block pairs. */
  ratio: Interval;
  /** The median of the per-pair ratios (each pair's A quantile ÷ its B quantile). */
  medianRatio: number;
}

/**
 * Each side's pooled q-quantile, their ratio with its interval, and the median per-pair ratio.
 * A sample may be Infinity (a fan-out delivery never seen: slower than any seen one); where a
 * side's quantile lands on one, that side's figure is Infinity and the ratio Infinity (A's) or 0
 * (B's), counted in the interval and the median as such, never left out. Both sides infinite
 * gives NaN, which is left out.
 */
export function compareQuantiles(
  pairs: readonly BlockPair[],
  q: number,
  o: Omit<BootstrapOptions, "keepInfinite"> = {},
): QuantileComparison {
  const pq = new PooledQuantile(pairs);
  const stat = pq.ratio(q);
  const perPair = pairs.map((p) => stat([p])).filter((x) => !Number.isNaN(x));
  return {
    pairs: pairs.length,
    q,
    a: pq.of(pairs, "a", q),
    b: pq.of(pairs, "b", q),
    ratio: { value: stat(pairs), ...bootstrap(pairs, stat, { ...o, keepInfinite: true }) },
    medianRatio: medianOf(perPair),
  };
}
