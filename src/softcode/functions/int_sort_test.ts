import assert from "node:assert/strict";
import { sortIntegers } from "./int_sort.ts";
import { WorkBuffers } from "../buffers.ts";
import { splitList } from "../list.ts";
import { toInt } from "../numbers.ts";
import { testSoftcode } from "../_test_world.ts";

/** What the general path gives: the split words, sorted stably by toInt(). */
function reference(list: string, sep: string, osep: string): string {
  return splitList(list, sep)
    .map((w, i) => ({ w, i, k: toInt(w) }))
    .sort((a, b) => a.k - b.k || a.i - b.i)
    .map((x) => x.w)
    .join(osep);
}

/** A small deterministic stream. */
function stream(seed: number): () => number {
  return () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

Deno.test("sortIntegers gives the general path's order on generated lists", () => {
  // One set of buffers for all, as in the engine: what a longer list left in them is ignored.
  const buffers = new WorkBuffers();
  const rnd = stream(7);
  const spans = [10, 1000, 2 ** 20, 2 ** 30, 2 ** 40, 1e15 - 1];
  for (let t = 0; t < 3000; t++) {
    const span = spans[t % spans.length];
    const n = 1 + Math.floor(rnd() * (t % 7 === 0 ? 3000 : 40));
    const sep = t % 5 === 0 ? "|" : " ";
    const words: string[] = [];
    for (let i = 0; i < n; i++) {
      const v = Math.floor(rnd() * span) - (t % 3 === 0 ? Math.floor(span / 2) : 0);
      const r = rnd();
      // Signs, leading zeros and equal keys written differently, whose order must hold.
      words.push(
        r < 0.05 && v >= 0 ? "+" + v : r < 0.1 && v >= 0 ? "00" + v : r < 0.12 ? "-0" : String(v),
      );
    }
    let list = words.join(sep === " " && t % 4 === 0 ? "   " : sep);
    if (sep === " " && t % 6 === 0) list = "  " + list + " ";
    const osep = t % 9 === 0 ? "–" : t % 2 ? "," : sep;
    assert.equal(sortIntegers(list, sep, osep, buffers), reference(list, sep, osep), list);
  }
});

Deno.test("sortIntegers leaves anything but plain integers to the general path", () => {
  const buffers = new WorkBuffers();
  for (const list of ["", "   ", "1 2 x", "1 2.5", "1 #2", "1 - 2", "1\t2", "1234567890123456 1"]) {
    assert.equal(sortIntegers(list, " ", " ", buffers), null, list);
  }
  assert.equal(sortIntegers("1||2", "|", "|", buffers), null);
  assert.equal(sortIntegers("1|2|", "|", "|", buffers), null);
  assert.equal(sortIntegers("1 2", "ab", " ", buffers), null);
});

Deno.test("sort() of integers through the quick path, as MUX sorts them", () => {
  const { sc, wiz } = testSoftcode();
  const run = (x: string) => sc.evaluate(x, { executor: wiz });
  assert.equal(run("[sort(10 9 100 -5 +3)]"), "-5 +3 9 10 100");
  assert.equal(run("[sort(3|1|2,f,|,@@)]"), "123");
  assert.equal(run("[sort(3 1 2,n,,%b-%b)]"), "1 - 2 - 3");
  // An unknown type is alphabetic in MUX 2.12 (only an empty one is guessed).
  assert.equal(run("[sort(3 1 2,a)]|[sort(10 9,x)]|[sort(10 9,)]"), "1 2 3|10 9|9 10");
});

Deno.test("sortIntegers sorts canonical 32-bit integers from their values, as the general path", () => {
  const buffers = new WorkBuffers();
  const rnd = stream(11);
  const spans = [10, 1000, 100000, 2 ** 31 - 1];
  for (let t = 0; t < 2000; t++) {
    const span = spans[t % spans.length];
    const n = 1 + Math.floor(rnd() * (t % 5 === 0 ? 3000 : 60));
    const words: string[] = [];
    // Values either way up to the span, many equal ones in the small spans.
    for (let i = 0; i < n; i++) {
      words.push(String(Math.floor(rnd() * span) * (t % 2 && rnd() < 0.5 ? -1 : 1) || 0));
    }
    const sep = t % 7 === 0 ? "|" : " ";
    let list = words.join(sep === " " && t % 4 === 0 ? "  " : sep);
    if (sep === " " && t % 6 === 0) list = " " + list + "   ";
    const osep = t % 3 === 0 ? ", " : t % 2 ? "" : sep;
    assert.equal(sortIntegers(list, sep, osep, buffers), reference(list, sep, osep), list);
  }
  // Either end of 32 bits, and the first values past it, which the other path reads.
  for (
    const list of [
      "2147483647 -2147483647 0 7",
      "2147483648 -1 0",
      "-2147483648 1 -2147483647",
      "99999999999 3 -1",
      "0 00 -0 +0 0",
      "10 010 9 +9 -9 09",
      "5",
      "-5 -50 -500 -5",
    ]
  ) {
    assert.equal(sortIntegers(list, " ", " ", buffers), reference(list, " ", " "), list);
  }
  assert.equal(sortIntegers("3 1 2", " ", "–", buffers), "1–2–3");
});
