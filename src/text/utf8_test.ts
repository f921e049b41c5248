import assert from "node:assert/strict";
import { utf8Length } from "./utf8.ts";

Deno.test("utf8Length counts bytes and stops past the limit", () => {
  assert.equal(utf8Length("abc"), 3);
  assert.equal(utf8Length("é"), 2);
  assert.equal(utf8Length("€"), 3);
  assert.equal(utf8Length("😀"), 4);
  assert.ok(utf8Length("x".repeat(1000), 10) <= 12);
  // Lone surrogates are what an encoder writes for them: U+FFFD, three bytes each.
  for (const s of ["\ud800\ud800", "\udc00x", "a\ud83d"]) {
    assert.equal(utf8Length(s), new TextEncoder().encode(s).length, JSON.stringify(s));
  }
});
