import assert from "node:assert/strict";
import { bytes } from "./_test_util.ts";
import { concatBytes, escapeIac, subnegotiationBytes } from "./bytes.ts";
import { IAC, SB, SE } from "./constants.ts";
import { encodeText } from "./text.ts";

Deno.test("text: newlines become CRLF, lone CR becomes CR NUL", () => {
  assert.deepEqual(encodeText("a\nb\r\nc\rd"), bytes("a\r\nb\r\nc\r", 0, "d"));
});

Deno.test("text: UTF-8 out", () => {
  assert.deepEqual(encodeText("héllo 🎲"), bytes("héllo 🎲"));
});

Deno.test("bytes: IAC is doubled in data and in subnegotiations", () => {
  assert.deepEqual(escapeIac(bytes(1, IAC, 2, IAC)), bytes(1, IAC, IAC, 2, IAC, IAC));
  const plain = bytes("abc");
  assert.equal(escapeIac(plain), plain);
  assert.deepEqual(
    subnegotiationBytes(31, bytes(0, IAC)),
    bytes(IAC, SB, 31, 0, IAC, IAC, IAC, SE),
  );
});

Deno.test("bytes: concat", () => {
  assert.deepEqual(concatBytes([bytes(1), bytes(), bytes(2, 3)]), bytes(1, 2, 3));
  assert.deepEqual(concatBytes([]), bytes());
});
