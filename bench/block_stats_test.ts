import assert from "node:assert/strict";
import { pairedRatio, pooledQuantile, quantileOf, seededRandom } from "./block_stats.ts";

Deno.test("pooledQuantile of picked blocks is the nearest-rank quantile of their concatenation", () => {
  const rnd = seededRandom(7);
  const raw = Array.from({ length: 12 }, (_, i) =>
    // Ties and blocks of different sizes, one empty.
    Array.from({ length: i === 3 ? 0 : 5 + i * 7 }, () => Math.round(rnd() * 50) / 10));
  const blocks = raw.map((b) => Float64Array.from(b).sort());
  const values = Float64Array.from(raw.flat()).sort();
  for (let t = 0; t < 200; t++) {
    const pick = Array.from({ length: 1 + Math.floor(rnd() * 12) }, () => Math.floor(rnd() * 12));
    const union = pick.flatMap((i) => raw[i]);
    for (const q of [0.01, 0.5, 0.95, 0.99, 1]) {
      const want = union.length ? quantileOf(union, q) : NaN;
      assert.equal(pooledQuantile(blocks, values, pick, q), want, `pick ${pick} q ${q}`);
    }
  }
});

Deno.test("pairedRatio: one distribution on both sides reads 1 within its interval", () => {
  const rnd = seededRandom(3);
  // Each pair shares a period factor (the machine's slow minutes) applied to both sides.
  const pairs = Array.from({ length: 40 }, () => {
    const period = 1 + 2 * rnd();
    const draw = () => Array.from({ length: 300 }, () => period * (0.3 + rnd() * rnd()));
    return { a: draw(), b: draw() };
  });
  const r = pairedRatio(pairs, 0.5);
  assert(r.lo <= 1 && 1 <= r.hi, `interval ${r.lo}..${r.hi}`);
  assert(Math.abs(r.medianPairRatio - 1) < 0.1, `median pair ratio ${r.medianPairRatio}`);
  assert.equal(r.pairs, 40);
});

Deno.test("pairedRatio: a side 1.5x slower reads 1.5 with an interval excluding 1", () => {
  const rnd = seededRandom(5);
  const pairs = Array.from({ length: 30 }, () => {
    const period = 1 + rnd();
    return {
      a: Array.from({ length: 200 }, () => 1.5 * period * (0.5 + rnd())),
      b: Array.from({ length: 200 }, () => period * (0.5 + rnd())),
    };
  });
  const r = pairedRatio(pairs, 0.5);
  assert(r.lo > 1.3 && r.hi < 1.7, `interval ${r.lo}..${r.hi}`);
  assert(Math.abs(r.ratio - 1.5) < 0.15, `ratio ${r.ratio}`);
  assert(Math.abs(r.medianPairRatio - 1.5) < 0.1, `median pair ratio ${r.medianPairRatio}`);
  // The same call gives the same interval (seeded).
  assert.equal(pairedRatio(pairs, 0.5).lo, r.lo);
});
