import assert from "node:assert/strict";
import { ValidationError } from "../errors.ts";
import { LIST_PAGE, MAX_OFFSET, pageFromUrl, pageOf, pageParams } from "./pagination.ts";

Deno.test("pagination: defaults, clamp and refusals", () => {
  assert.deepEqual(pageParams(undefined, undefined), { limit: 50, offset: 0 });
  assert.deepEqual(pageParams("", ""), { limit: 50, offset: 0 });
  assert.deepEqual(pageParams("10", "30"), { limit: 10, offset: 30 });
  assert.deepEqual(pageParams("500", "0"), { limit: 200, offset: 0 });
  assert.deepEqual(pageParams("99999999999999999999999", undefined).limit, 200);
  assert.deepEqual(pageParams(undefined, undefined, { limit: 20, max: 500 }).limit, 20);
  assert.deepEqual(pageParams("600", undefined, { limit: 20, max: 500 }).limit, 500);
  for (const bad of ["0", "-1", "abc", "1.5", "1e2", "0x10", " 5", "+5"]) {
    assert.throws(() => pageParams(bad, undefined), ValidationError, `limit ${bad}`);
  }
  for (const bad of ["-1", "x", "2.5", "1e3"]) {
    assert.throws(() => pageParams(undefined, bad), ValidationError, `offset ${bad}`);
  }
  // The deepest page: an offset past MAX_OFFSET is refused with a message saying so.
  assert.deepEqual(pageParams("10", String(MAX_OFFSET)), { limit: 10, offset: MAX_OFFSET });
  for (const deep of [String(MAX_OFFSET + 1), "99999999999999999999"]) {
    assert.throws(
      () => pageParams(undefined, deep),
      (e) => e instanceof ValidationError && e.message === "offset must be at most 1000000.",
      `offset ${deep}`,
    );
  }
  assert.equal(LIST_PAGE.max, 200);
});

Deno.test("pagination: from a URL, and one page of an array", () => {
  assert.deepEqual(pageFromUrl("http://x/a?limit=3&offset=4"), { limit: 3, offset: 4 });
  assert.deepEqual(pageFromUrl(new URL("http://x/a")), { limit: 50, offset: 0 });
  const items = Array.from({ length: 10 }, (_, i) => i);
  assert.deepEqual(pageOf(items, { limit: 3, offset: 4 }), [4, 5, 6]);
  assert.deepEqual(pageOf(items, { limit: 3, offset: 9 }), [9]);
  assert.deepEqual(pageOf(items, { limit: 3, offset: Number.MAX_SAFE_INTEGER }), []);
});
