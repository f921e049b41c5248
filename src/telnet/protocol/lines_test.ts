/** Tests of line framing: line ends, backspace, UTF-8, the length cap. */
import assert from "node:assert/strict";
import { bytes, prng, randomBytes } from "./_test_util.ts";
import { type FramedLine, LineFramer } from "./lines.ts";

function frame(chunks: Uint8Array[], framer = new LineFramer()): string[] {
  return chunks.flatMap((c) => framer.push(c).map((l) => l.text));
}

Deno.test("lines: CR, LF, CRLF and CR NUL each end one line", () => {
  assert.deepEqual(frame([bytes("a\rb\nc\r\nd\r\0e\n")]), ["a", "b", "c", "d", "e"]);
});

Deno.test("lines: LF CR is two line ends; CRLF CRLF keeps the empty line", () => {
  assert.deepEqual(frame([bytes("a\n\rb\r\n\r\nc\n")]), ["a", "", "b", "", "c"]);
});

Deno.test("lines: every terminator split across chunks at every offset counts once", () => {
  const input = bytes("look\r\nsay hi\r\0pose waves\rwho\nend\r\n");
  const expected = ["look", "say hi", "pose waves", "who", "end"];
  for (let cut = 0; cut <= input.length; cut++) {
    assert.deepEqual(
      frame([input.subarray(0, cut), input.subarray(cut)]),
      expected,
      `cut at ${cut}`,
    );
  }
  assert.deepEqual(frame([...input].map((b) => Uint8Array.of(b))), expected);
});

Deno.test("lines: a lone CR then LF in the next chunk is one line end", () => {
  const f = new LineFramer();
  assert.deepEqual(f.push(bytes("one\r")).map((l) => l.text), ["one"]);
  assert.deepEqual(f.push(bytes("\ntwo\r")).map((l) => l.text), ["two"]);
  assert.deepEqual(f.push(bytes("\0three\n")).map((l) => l.text), ["three"]);
});

Deno.test("lines: no line until its end arrives", () => {
  const f = new LineFramer();
  assert.deepEqual(f.push(bytes("half a com")), []);
  assert.equal(f.pendingBytes, 10);
  assert.deepEqual(f.push(bytes("mand\n")).map((l) => l.text), ["half a command"]);
});

Deno.test("lines: UTF-8 split across chunks at every offset", () => {
  const input = bytes("héllo 世界 🎲\n");
  for (let cut = 0; cut <= input.length; cut++) {
    assert.deepEqual(frame([input.subarray(0, cut), input.subarray(cut)]), ["héllo 世界 🎲"]);
  }
});

Deno.test("lines: invalid UTF-8 becomes U+FFFD", () => {
  assert.deepEqual(frame([bytes("a", 0xff, "b", 0xc3, "c", 0x80, "\n")]), [
    "a\ufffdb\ufffdc\ufffd",
  ]);
});

Deno.test("lines: backspace and DEL erase whole code points", () => {
  assert.deepEqual(frame([bytes("ab\bc\n")]), ["ac"]);
  assert.deepEqual(frame([bytes("aé\x7f\n")]), ["a"]);
  assert.deepEqual(frame([bytes("x世\b\n")]), ["x"]);
  assert.deepEqual(frame([bytes("x🎲\by\n")]), ["xy"]);
  // The emoji's four bytes arrive in separate reads; the backspace still takes all of it.
  assert.deepEqual(
    frame([bytes(0xf0), bytes(0x9f), bytes(0x8e), bytes(0xb2), bytes("\b!\n")]),
    ["!"],
  );
  assert.deepEqual(frame([bytes("\b\b\bok\n")]), ["ok"]);
});

Deno.test("lines: control characters other than TAB are dropped", () => {
  assert.deepEqual(frame([bytes("a\x1b[31mb\tc\x07\u009bd\n")]), ["a[31mb\tcd"]);
});

Deno.test("lines: a 1 MB line is truncated, memory stays at the cap, the next line is fine", () => {
  const f = new LineFramer({ maxLineBytes: 100 });
  const block = new Uint8Array(64 * 1024).fill(0x61);
  const lines: FramedLine[] = [];
  for (let i = 0; i < 16; i++) {
    lines.push(...f.push(block));
    assert.ok(f.pendingBytes <= 100);
  }
  lines.push(...f.push(bytes("\r\nnext\r\n")));
  assert.equal(lines.length, 2);
  assert.deepEqual(lines[0], { text: "a".repeat(100), truncated: true });
  assert.deepEqual(lines[1], { text: "next", truncated: false });
});

Deno.test("lines: the cap counts UTF-8 bytes and never splits a character", () => {
  const f = new LineFramer({ maxLineBytes: 5 });
  assert.deepEqual(f.push(bytes("ééé\n")), [{ text: "éé", truncated: true }]);
  assert.deepEqual(f.push(bytes("abcde\n")), [{ text: "abcde", truncated: false }]);
});

Deno.test("lines: default cap is 8 KiB", () => {
  const [line] = new LineFramer().push(bytes("x".repeat(9000), "\n"));
  assert.equal(line.text.length, 8192);
  assert.equal(line.truncated, true);
});

Deno.test("lines: flush returns the unfinished line once", () => {
  const f = new LineFramer();
  f.push(bytes("partial", 0xc3));
  assert.deepEqual(f.flush(), { text: "partial\ufffd", truncated: false });
  assert.equal(f.flush(), null);
});

Deno.test("lines: fuzz with random bytes never throws and stays bounded", () => {
  const rand = prng(7);
  for (let iter = 0; iter < 3000; iter++) {
    const f = new LineFramer({ maxLineBytes: 64 });
    const input = randomBytes(rand, Math.floor(rand() * 400));
    for (let at = 0; at < input.length;) {
      const n = 1 + Math.floor(rand() * 30);
      for (const line of f.push(input.subarray(at, at + n))) {
        assert.ok(new TextEncoder().encode(line.text).length <= 64);
        assert.ok(!/[\r\n\0]/.test(line.text));
      }
      assert.ok(f.pendingBytes <= 64);
      at += n;
    }
    f.flush();
  }
});

Deno.test("lines: a character cut between reads is whole, then ASCII reads go on as before", () => {
  const framer = new LineFramer();
  const e = new TextEncoder().encode("é€😀");
  assert.deepEqual(framer.push(e.subarray(0, 1)), []);
  // The rest of the cut character, then plain ASCII: the decoder still holds the first byte.
  assert.deepEqual(framer.push(e.subarray(1, 4)), []);
  assert.deepEqual(framer.push(e.subarray(4)), []);
  assert.deepEqual(framer.push(new TextEncoder().encode("ab\r\n")).map((l) => l.text), ["é€😀ab"]);
  // A cut character followed by ASCII is an invalid sequence: one U+FFFD, the ASCII kept.
  assert.deepEqual(framer.push(new Uint8Array([0xe2, 0x82])), []);
  assert.deepEqual(framer.push(new TextEncoder().encode("x\n")).map((l) => l.text), ["\ufffdx"]);
  assert.deepEqual(framer.push(new TextEncoder().encode("plain\r\n")).map((l) => l.text), [
    "plain",
  ]);
});

Deno.test("lines: long lines, ASCII or not, are built whole past the chunk of code points", () => {
  const framer = new LineFramer({ maxLineBytes: 100_000 });
  for (const text of ["a".repeat(9000), "é".repeat(5000) + "b", "😀".repeat(4100) + "x"]) {
    const got = framer.push(new TextEncoder().encode(text + "\r\n"));
    assert.equal(got.length, 1);
    assert.equal(got[0].text, text);
  }
});

Deno.test("lines: a whole ASCII line in one read gives the same line as the same bytes one at a time", () => {
  const rand = prng(34);
  for (let n = 0; n < 300; n++) {
    const len = Math.floor(rand() * 40);
    let text = "";
    for (let i = 0; i < len; i++) text += String.fromCharCode(0x20 + Math.floor(rand() * 0x5f));
    const end = ["\r\n", "\n", "\r\0"][Math.floor(rand() * 3)];
    const bytes = new TextEncoder().encode(text + end);
    const whole = new LineFramer().push(bytes);
    const split = new LineFramer();
    const one: string[] = [];
    for (const b of bytes) one.push(...split.push(Uint8Array.of(b)).map((l) => l.text));
    assert.deepEqual(whole.map((l) => l.text), one, JSON.stringify(text + end));
  }
  // Held input before it: the read is framed as ever (here, the end of a line cut by the read).
  const f = new LineFramer();
  assert.deepEqual(f.push(new TextEncoder().encode("loo")), []);
  assert.deepEqual(f.push(new TextEncoder().encode("k\r\n")).map((l) => l.text), ["look"]);
  // A CR at a read's end waits for its LF; the LF alone ends nothing more.
  assert.deepEqual(f.push(new TextEncoder().encode("say hi\r")).map((l) => l.text), ["say hi"]);
  assert.deepEqual(f.push(new TextEncoder().encode("\n")).map((l) => l.text), []);
  assert.deepEqual(f.push(new TextEncoder().encode("x\r\n")).map((l) => l.text), ["x"]);
  // Over the cap: framed the slow way, truncated.
  const capped = new LineFramer({ maxLineBytes: 4 }).push(new TextEncoder().encode("abcdef\r\n"));
  assert.deepEqual(capped.map((l) => [l.text, l.truncated]), [["abcd", true]]);
});
