import assert from "node:assert/strict";
import { literalPrefix, wildCapture } from "./wild_capture.ts";

Deno.test("wildCapture: MUX's captures (each * as short as the rest allows, ? one character)", () => {
  assert.deepEqual(wildCapture("wildcapfoo *", "wildcapfoo hello world"), ["hello world"]);
  assert.deepEqual(wildCapture("* from *", "alice from bob"), ["alice", "bob"]);
  assert.deepEqual(wildCapture("* from *", "a from b from c"), ["a", "b from c"]);
  assert.deepEqual(wildCapture("? of *", "3 of hearts"), ["3", "hearts"]);
  assert.deepEqual(wildCapture("*?", "abc"), ["ab", "c"]);
  assert.deepEqual(wildCapture("+ping", "+PING"), []);
  assert.deepEqual(wildCapture("+ping", "+pin"), null);
  assert.deepEqual(wildCapture("+ping *", "+ping"), null);
  assert.deepEqual(wildCapture("foo*", "foo"), [""]);
  assert.deepEqual(wildCapture("a\\*b *", "a*b c"), ["c"]);
  assert.deepEqual(wildCapture("a\\*b *", "axb c"), null);
});

Deno.test("wildCapture: at most ten captures, and a hostile pattern ends quickly", () => {
  const eleven = Array(11).fill("?").join("");
  assert.deepEqual(wildCapture(eleven, "abcdefghijk")?.length, 10);
  const text = "a".repeat(8000);
  // Bounded by |pattern| × |text| steps: it returns (no timing is asserted).
  assert.deepEqual(wildCapture("*a*a*a*a*a*a*a*b", text), null);
});

Deno.test("literalPrefix: the literal start of a pattern, lower-cased", () => {
  assert.deepEqual(literalPrefix("+WHO *"), "+who ");
  assert.deepEqual(literalPrefix("*foo"), "");
  assert.deepEqual(literalPrefix("+f\\*x?"), "+f*x");
});
