import assert from "node:assert/strict";
import { ValidationError } from "../errors.ts";
import { oneLine, optionalText, requiredText } from "./fields.ts";

/** Asserts `fn` throws a ValidationError with exactly `message`. */
function refused(fn: () => unknown, message: string): void {
  assert.throws(fn, (e) => e instanceof ValidationError && e.message === message);
}

Deno.test("oneLine: line breaks and tabs become single spaces", () => {
  assert.equal(oneLine("a\r\nb\n\nc\td"), "a b c d");
  assert.equal(oneLine("plain"), "plain");
});

Deno.test("optionalText: absent is empty; a string is trimmed and bounded", () => {
  assert.equal(optionalText(undefined, "f", 5), "");
  assert.equal(optionalText(null, "f", 5), "");
  assert.equal(optionalText("  hi  ", "f", 5), "hi");
  assert.equal(optionalText("a\nb", "f", 5), "a\nb");
  assert.equal(optionalText(" a\nb ", "f", 5, { oneLine: true }), "a b");
  // Characters are code points: five emoji fit a bound of five.
  assert.equal(optionalText("😀😀😀😀😀", "f", 5), "😀😀😀😀😀");
  refused(() => optionalText(7, "f", 5), "f must be a string");
  refused(() => optionalText("abcdef", "f", 5), "f must be 5 characters or fewer");
  refused(() => optionalText("😀😀😀😀😀😀", "f", 5), "f must be 5 characters or fewer");
});

Deno.test("requiredText: absent, empty or blank is refused by name", () => {
  assert.equal(requiredText(" x ", "title", 10), "x");
  assert.equal(requiredText("a\tb", "title", 10, { oneLine: true }), "a b");
  for (const raw of [undefined, null, "", "   ", "\n\t"]) {
    refused(() => requiredText(raw, "title", 10, { oneLine: true }), "title is required");
  }
  refused(() => requiredText(5, "title", 10), "title must be a string");
});
