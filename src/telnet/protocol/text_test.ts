/** Tests of encoding text for the wire. */
import assert from "node:assert/strict";
import { bytes } from "./_test_util.ts";
import { concatBytes, escapeIac, subnegotiationBytes } from "./bytes.ts";
import { IAC, SB, SE } from "./constants.ts";
import { encodeLine, encodeText } from "./text.ts";

Deno.test("text: newlines become CRLF, lone CR becomes CR NUL", () => {
  assert.deepEqual(encodeText("a\nb\r\nc\rd"), bytes("a\r\nb\r\nc\r", 0, "d"));
});

Deno.test("text: UTF-8 out", () => {
  assert.deepEqual(encodeText("héllo 🎲"), bytes("héllo 🎲"));
});

Deno.test("text: plain ASCII takes a loop of its own and encodes as everything else does", () => {
  const general = (t: string) =>
    new TextEncoder().encode(t.replace(/\r\n|\r|\n/g, (m) => m === "\r" ? "\r\0" : "\r\n"));
  const texts = [
    "",
    "\n",
    "You think: hi",
    "a\n\nb\n",
    "\x1b[1;31mred\x1b[0m\n",
    "\x00\x7f~",
    "x".repeat(1024) + "\n",
    "x\n".repeat(700),
    "ascii then é\n",
    "ascii then CR\r",
  ];
  for (const t of texts) {
    assert.deepEqual(encodeText(t), general(t), JSON.stringify(t.slice(0, 20)));
  }
});

Deno.test("text: a line gets its line end once, however it ends and whatever it holds", () => {
  const texts = [
    "",
    "\n",
    "You think: hi",
    "a\nb",
    "ends\n",
    "x".repeat(1024),
    "é",
    "CR\r",
    "\xff",
  ];
  for (const t of texts) {
    const expected = encodeText(t.endsWith("\n") ? t : t + "\n");
    assert.deepEqual(encodeLine(t), expected, JSON.stringify(t.slice(0, 20)));
  }
  assert.deepEqual(encodeLine("hi"), bytes("hi\r\n"));
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
