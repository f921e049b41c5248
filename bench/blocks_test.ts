import assert from "node:assert/strict";
import {
  bootstrap,
  compareBlocks,
  compareQuantiles,
  medianOf,
  pairsFor,
  pooledMean,
  PooledQuantile,
  quantileOf,
  ratioOfMeans,
  seededRandom,
} from "./blocks.ts";

Deno.test("pooledMean is the total ÷ the count over every block, not a mean of block means", () => {
  const pairs = [{ a: [1, 1, 1], b: [4] }, { a: [5], b: [2, 2, 2] }];
  assert.equal(pooledMean(pairs, "a"), 2);
  assert.equal(pooledMean(pairs, "b"), 2.5);
  assert.equal(ratioOfMeans(pairs), 0.8);
  assert.ok(Number.isNaN(pooledMean([], "a")));
});

Deno.test("quantileOf and medianOf interpolate between neighbours", () => {
  assert.equal(quantileOf([1, 2, 3, 4], 0.5), 2.5);
  assert.equal(quantileOf([1, 2, 3, 4], 0), 1);
  assert.equal(quantileOf([1, 2, 3, 4], 1), 4);
  assert.equal(medianOf([9, 1, 5]), 5);
  assert.ok(Number.isNaN(medianOf([])));
});

Deno.test("seededRandom repeats for a seed and stays in [0, 1)", () => {
  const a = seededRandom(7), b = seededRandom(7), c = seededRandom(8);
  const xs = Array.from({ length: 1000 }, a);
  assert.deepEqual(Array.from({ length: 1000 }, b), xs);
  assert.notDeepEqual(Array.from({ length: 1000 }, c), xs);
  assert.ok(xs.every((x) => x >= 0 && x < 1));
  // Roughly uniform: each tenth holds 100 ± 40 of 1,000.
  for (let d = 0; d < 10; d++) {
    const n = xs.filter((x) => Math.floor(x * 10) === d).length;
    assert.ok(n > 60 && n < 140, `decile ${d}: ${n}`);
  }
});

Deno.test("periods that slow both sides of a pair alike cancel: ratio 2, interval [2, 2]", () => {
  // Each pair's period multiplies both servers by 1..8; A costs twice B within every pair.
  const pairs = [1, 8, 3, 1, 5, 2, 7, 1, 4, 6].map((f) => ({
    a: [20 * f, 20 * f, 20 * f],
    b: [10 * f, 10 * f, 10 * f],
  }));
  const c = compareBlocks(pairs);
  assert.equal(c.pairs, 10);
  assert.equal(c.ratio.value, 2);
  assert.equal(c.ratio.lo, 2);
  assert.equal(c.ratio.hi, 2);
  assert.equal(c.medianRatio, 2);
  // Each side's own mean moves with the periods: its interval is wide, the ratio's is not.
  assert.equal(c.a.value, 76);
  assert.ok(c.a.hi - c.a.lo > 40, `A's interval ${c.a.lo}..${c.a.hi}`);
  assert.equal(c.diff.value, 38);
});

Deno.test("the interval holds the ratio, narrows with more pairs, and repeats for a seed", () => {
  // A = 1.2 × B in expectation, each block's figure off by ±30 % noise of its own.
  const rand = seededRandom(42);
  const make = (n: number) =>
    Array.from({ length: n }, () => {
      const period = 1 + 3 * rand();
      return {
        a: [120 * period * (0.7 + 0.6 * rand())],
        b: [100 * period * (0.7 + 0.6 * rand())],
      };
    });
  const few = make(20), many = make(320);
  const f = compareBlocks(few), m = compareBlocks(many);
  for (const c of [f, m]) {
    assert.ok(c.ratio.lo <= c.ratio.value && c.ratio.value <= c.ratio.hi);
    assert.ok(c.ratio.lo < 1.2 && 1.2 < c.ratio.hi, `${c.ratio.lo}..${c.ratio.hi}`);
    assert.ok(c.medianRatio > 1 && c.medianRatio < 1.4, `median ratio ${c.medianRatio}`);
  }
  // Sixteen times the pairs: about a quarter of the width.
  const w = (c: typeof f) => c.ratio.hi - c.ratio.lo;
  assert.ok(w(m) < w(f) / 2.5 && w(m) > w(f) / 6, `${w(f)} -> ${w(m)}`);
  assert.deepEqual(bootstrap(few, ratioOfMeans), bootstrap(few, ratioOfMeans));
  assert.notDeepEqual(bootstrap(few, ratioOfMeans, { seed: 2 }), bootstrap(few, ratioOfMeans));
});

Deno.test("the median of per-pair ratios is not moved by one wild pair; the ratio of means is", () => {
  const pairs = [
    ...Array.from({ length: 9 }, () => ({ a: [11], b: [10] })),
    { a: [1000], b: [10] },
  ];
  const c = compareBlocks(pairs);
  assert.equal(c.medianRatio, 1.1);
  assert.equal(c.ratio.value, (99 + 1000) / 100);
});

Deno.test("draws whose statistic is not finite are left out; no pairs give NaN", () => {
  const iv = bootstrap([{ a: [1], b: [0] }, { a: [1], b: [1] }], ratioOfMeans);
  assert.ok(Number.isFinite(iv.lo) && Number.isFinite(iv.hi));
  const none = bootstrap([], ratioOfMeans);
  assert.ok(Number.isNaN(none.lo) && Number.isNaN(none.hi));
});

Deno.test("pairsFor scales the pairs by the square of the widths' ratio", () => {
  assert.equal(pairsFor({ lo: 0.8, hi: 1.2 }, 10, 0.1), 40);
  assert.equal(pairsFor({ lo: 1, hi: 1.125 }, 64, 0.25), 4);
});

/** The nearest-rank quantile of unsorted samples, as the shared driver takes its p50 and p99. */
function nearestRank(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
}

Deno.test("PooledQuantile of any draw of pairs is the nearest-rank quantile of their samples", () => {
  const rnd = seededRandom(7);
  // Ties, blocks of different sizes, one side's block empty.
  const pairs = Array.from({ length: 12 }, (_, i) => ({
    a: Array.from({ length: i === 3 ? 0 : 5 + i * 7 }, () => Math.round(rnd() * 50) / 10),
    b: Array.from({ length: 3 + i }, () => Math.round(rnd() * 80) / 10),
  }));
  const pq = new PooledQuantile(pairs);
  for (let t = 0; t < 200; t++) {
    const draw = Array.from(
      { length: 1 + Math.floor(rnd() * 12) },
      () => pairs[Math.floor(rnd() * 12)],
    );
    for (const side of ["a", "b"] as const) {
      const union = draw.flatMap((p) => p[side]);
      for (const q of [0.01, 0.5, 0.95, 0.99, 1]) {
        const want = union.length ? nearestRank(union, q) : NaN;
        assert.equal(pq.of(draw, side, q), want, `draw ${t} ${side} q ${q}`);
      }
    }
  }
  assert.throws(() => pq.of([{ a: [1], b: [2] }], "a", 0.5), /not given/);
});

Deno.test("compareQuantiles: one distribution on both sides reads 1 within its interval", () => {
  const rnd = seededRandom(3);
  // Each pair shares a period factor (the machine's slow minutes), applied to both sides.
  const pairs = Array.from({ length: 40 }, () => {
    const period = 1 + 2 * rnd();
    const draw = () => Array.from({ length: 300 }, () => period * (0.3 + rnd() * rnd()));
    return { a: draw(), b: draw() };
  });
  const r = compareQuantiles(pairs, 0.5);
  assert.ok(r.ratio.lo <= 1 && 1 <= r.ratio.hi, `interval ${r.ratio.lo}..${r.ratio.hi}`);
  assert.ok(Math.abs(r.medianRatio - 1) < 0.1, `median pair ratio ${r.medianRatio}`);
});

Deno.test("compareQuantiles: a side 1.5x slower reads 1.5 with an interval excluding 1", () => {
  const rnd = seededRandom(5);
  const pairs = Array.from({ length: 30 }, () => {
    const period = 1 + rnd();
    return {
      a: Array.from({ length: 200 }, () => 1.5 * period * (0.5 + rnd())),
      b: Array.from({ length: 200 }, () => period * (0.5 + rnd())),
    };
  });
  const r = compareQuantiles(pairs, 0.5);
  assert.ok(r.ratio.lo > 1.3 && r.ratio.hi < 1.7, `interval ${r.ratio.lo}..${r.ratio.hi}`);
  assert.ok(Math.abs(r.ratio.value - 1.5) < 0.15, `ratio ${r.ratio.value}`);
  assert.ok(Math.abs(r.medianRatio - 1.5) < 0.1, `median pair ratio ${r.medianRatio}`);
  assert.equal(compareQuantiles(pairs, 0.5).ratio.lo, r.ratio.lo);
});

Deno.test("compareQuantiles: lost deliveries (Infinity) count as slowest, so losing reads slower", () => {
  const rnd = seededRandom(11);
  // A's seen deliveries are 0.8x B's, but A loses 2 % of them: its p99 is a lost one.
  const pairs = Array.from({ length: 20 }, () => ({
    a: Array.from({ length: 500 }, (_, i) => i % 50 === 0 ? Infinity : 0.8 * (1 + rnd())),
    b: Array.from({ length: 500 }, () => 1 + rnd()),
  }));
  const r = compareQuantiles(pairs, 0.99);
  assert.equal(r.a, Infinity);
  assert.equal(r.ratio.value, Infinity);
  // Every draw holds A's losses: the interval is wholly over 1, not left empty.
  assert.equal(r.ratio.lo, Infinity);
  assert.equal(r.medianRatio, Infinity);
  // B losing the same share reads 0 (A faster), and the p50 is untouched by 2 % lost.
  const swapped = compareQuantiles(pairs.map((p) => ({ a: p.b, b: p.a })), 0.99);
  assert.equal(swapped.ratio.value, 0);
  const p50 = compareQuantiles(pairs, 0.5);
  assert.ok(p50.ratio.value > 0.7 && p50.ratio.value < 0.9, `p50 ratio ${p50.ratio.value}`);
  // Fewer lost than the tail above the quantile: they push the p99 up, never down.
  const few = pairs.map((p) => ({
    a: p.a.map((x, i) => x === Infinity && i % 250 ? 0.8 : x),
    b: p.b,
  }));
  const seenOnly = pairs.map((p) => ({ a: p.a.filter((x) => x !== Infinity), b: p.b }));
  const withFew = compareQuantiles(few, 0.99).ratio.value;
  assert.ok(Number.isFinite(withFew));
  assert.ok(withFew >= compareQuantiles(seenOnly, 0.99).ratio.value, `${withFew}`);
  // Both sides' quantile on a lost delivery is undecided (NaN), not a ratio of 1.
  const both = compareQuantiles(pairs.map((p) => ({ a: p.a, b: p.a })), 0.99);
  assert.ok(Number.isNaN(both.ratio.value));
});

Deno.test("quantileOf is never NaN by arithmetic on Infinity", () => {
  assert.equal(quantileOf([1, Infinity], 0), 1);
  assert.equal(quantileOf([1, Infinity], 0.5), Infinity);
  assert.equal(quantileOf([Infinity, Infinity], 0.5), Infinity);
  assert.equal(medianOf([Infinity, 2, Infinity]), Infinity);
});
