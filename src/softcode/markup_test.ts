import assert from "node:assert/strict";
import { isSimple } from "./markup.ts";

Deno.test("markup: isSimple's loop for short texts answers as its regular expression", () => {
  const notSimple = /[\uD800-\uDFFF\uFDD0-\uFDD4]/;
  // Each edge of the two ranges, either side, and plain characters.
  const chars = ["a", " ", "é", "\uD7FF", "\uD800", "\uDBFF", "\uDC00", "\uDFFF", "\uE000"];
  chars.push("\uFDCF", "\uFDD0", "\uFDD4", "\uFDD5", "😀");
  let seed = 7;
  // The high bits: a power-of-two modulus of this stream's low bits repeats every few draws.
  const next = (n: number) => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) >>> 12) % n;
  for (let i = 0; i < 20_000; i++) {
    let s = "";
    for (let j = 0, n = next(30); j < n; j++) s += chars[next(j % 4 ? 2 : chars.length)];
    assert.equal(isSimple(s), !notSimple.test(s), JSON.stringify(s));
  }
});
