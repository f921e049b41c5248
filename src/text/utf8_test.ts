import assert from "node:assert/strict";
import { utf8Length } from "./utf8.ts";

Deno.test("utf8Length counts bytes and stops past the limit", () => {
  assert.equal(utf8Length("abc"), 3);
  assert.equal(utf8Length("é"), 2);
  assert.equal(utf8Length("€"), 3);
  assert.equal(utf8Length("😀"), 4);
  assert.ok(utf8Length("x".repeat(1000), 10) <= 12);
});
