/** toReal()'s fast path for plain decimals reads what its full reader reads. */
import assert from "node:assert/strict";
import { toReal } from "./numbers.ts";

Deno.test("toReal: plain decimals read as the full reader reads them", () => {
  const plain = [
    "0",
    "-0",
    "7",
    "007",
    "-12",
    "3.25",
    "-0.5",
    "007.50",
    "123456789012345678901",
    "1.000000000000000001",
    "9007199254740993",
  ];
  for (const s of plain) {
    // The same text in a form only the full reader takes (a space before it).
    assert.ok(Object.is(toReal(s), toReal(" " + s)), s);
  }
  assert.equal(toReal("1e3"), 1000);
  assert.equal(toReal(" 2 "), 2);
  assert.equal(toReal("abc"), 0);
});
