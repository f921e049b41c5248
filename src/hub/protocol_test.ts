import assert from "node:assert/strict";
import {
  binaryText,
  clientKind,
  EncodedFrame,
  encodeJson,
  encodePlain,
  linesOf,
  MAX_FRAME_BYTES,
  parseFrame,
  textTooLarge,
} from "./protocol.ts";
import { MAX_LINE } from "../commands/limits.ts";

Deno.test("clientKind defaults to plain", () => {
  assert.equal(clientKind(null), "plain");
  assert.equal(clientKind("web"), "web");
  assert.equal(clientKind("telnet"), "telnet");
  assert.equal(clientKind("WEB"), "plain");
  assert.equal(clientKind("x"), "plain");
});

Deno.test("textTooLarge checks bytes, not characters", () => {
  assert.equal(textTooLarge("x".repeat(MAX_FRAME_BYTES)), false);
  assert.equal(textTooLarge("x".repeat(MAX_FRAME_BYTES + 1)), true);
  assert.equal(textTooLarge("€".repeat(MAX_FRAME_BYTES / 3)), false);
  assert.equal(textTooLarge("€".repeat(MAX_FRAME_BYTES / 3 + 1)), true);
});

Deno.test("text frames are sanitized command lines", () => {
  assert.deepEqual(parseFrame("look"), { kind: "lines", lines: ["look"], tooLong: 0 });
  assert.deepEqual(parseFrame("say a\x07b\r\n\r\npose x\n"), {
    kind: "lines",
    lines: ["say ab", "pose x"],
    tooLong: 0,
  });
  assert.deepEqual(parseFrame("   "), { kind: "lines", lines: [], tooLong: 0 });
  assert.deepEqual(parseFrame("[1,2]"), { kind: "lines", lines: ["[1,2]"], tooLong: 0 });
});

Deno.test("over-long lines are refused whole, not cut", () => {
  const r = linesOf("say " + "x".repeat(MAX_LINE) + "\nlook");
  assert.deepEqual(r.lines, ["look"]);
  assert.equal(r.tooLong, 1);
  assert.equal(linesOf("x".repeat(MAX_LINE)).lines[0].length, MAX_LINE);
});

Deno.test("JSON frames", () => {
  assert.deepEqual(parseFrame('{"msg":"look"}'), { kind: "lines", lines: ["look"], tooLong: 0 });
  assert.deepEqual(parseFrame('{"type":"auth","token":"t","resume":true}'), {
    kind: "auth",
    token: "t",
    resume: true,
  });
  assert.deepEqual(parseFrame('{"type":"auth","token":"t","resume":"yes"}'), {
    kind: "auth",
    token: "t",
    resume: false,
  });
  assert.deepEqual(parseFrame('{"type":"window","width":5,"height":40}'), {
    kind: "window",
    width: 20,
    height: 40,
  });
  assert.deepEqual(parseFrame('{"type":"window","width":1e9}'), {
    kind: "window",
    width: 250,
    height: null,
  });
  assert.deepEqual(parseFrame('{"type":"ping"}'), { kind: "ping", id: null });
  assert.deepEqual(parseFrame('{"msg":"look","ack":12}'), {
    kind: "lines",
    lines: ["look"],
    tooLong: 0,
    ack: 12,
  });
  assert.deepEqual(parseFrame('{"msg":"look","ack":[1]}'), {
    kind: "lines",
    lines: ["look"],
    tooLong: 0,
  });
  assert.deepEqual(parseFrame('{"type":"ping","id":7}'), { kind: "ping", id: 7 });
  assert.deepEqual(parseFrame('{"type":"ping","id":"a1"}'), { kind: "ping", id: "a1" });
  assert.deepEqual(parseFrame('{"type":"ping","id":{"x":1}}'), { kind: "ping", id: null });
  assert.deepEqual(parseFrame(`{"type":"ping","id":"${"x".repeat(65)}"}`), {
    kind: "ping",
    id: null,
  });
  assert.deepEqual(parseFrame('{"type":"client","ip":"1.2.3.4","ttype":"MUDLET"}'), {
    kind: "client",
    ip: "1.2.3.4",
    ttype: "MUDLET",
    connectedAt: null,
    lastInput: null,
  });
  assert.deepEqual(
    parseFrame('{"type":"client","connectedAt":1700000000000,"lastInput":"soon"}'),
    { kind: "client", ip: null, ttype: null, connectedAt: 1700000000000, lastInput: null },
  );
  assert.deepEqual(parseFrame('{"type":"client","colourDepth":256}'), {
    kind: "client",
    ip: null,
    ttype: null,
    connectedAt: null,
    lastInput: null,
    colourDepth: 256,
  });
});

Deno.test("bad JSON frames are errors, never throws", () => {
  for (
    const f of [
      "{",
      "{nope}",
      '{"msg":5}',
      '{"type":"auth"}',
      '{"type":"auth","token":7}',
      '{"type":"wat"}',
      '{"type":{"a":1}}',
      '{"__proto__":{"x":1}}',
    ]
  ) {
    assert.equal(parseFrame(f).kind, "bad", f);
  }
});

Deno.test("plain encoding renders ANSI with CRLF line ends", () => {
  assert.equal(encodePlain({ msg: "%chHi%cn\nthere" }), "\x1b[1mHi\x1b[0m\r\nthere\r\n");
  assert.equal(encodePlain({ msg: "" }), null);
  assert.equal(encodePlain({ msg: "a\x1b[31mb" }), "ab\r\n");
});

Deno.test("JSON encoding keeps colour codes and always has data", () => {
  assert.equal(encodeJson({ msg: "%crx" }), '{"msg":"%crx","data":{}}');
  assert.equal(
    encodeJson({ msg: "x", data: { type: "say", from: "1" } }),
    '{"msg":"x","data":{"type":"say","from":"1"}}',
  );
});

Deno.test("EncodedFrame encodes once per form", () => {
  const f = new EncodedFrame({ msg: "hi" });
  assert.equal(f.for("plain"), "hi\r\n");
  assert.equal(f.for("web"), '{"msg":"hi","data":{}}');
  assert.equal(f.for("telnet"), f.for("web"));
});

Deno.test("binary frames are UTF-8 text, or null when they are not UTF-8", () => {
  const bytes = (...b: number[]) => new Uint8Array(b).buffer;
  assert.equal(binaryText(new TextEncoder().encode("say héllo ✓").buffer), "say héllo ✓");
  assert.equal(binaryText(bytes()), "");
  for (const bad of [bytes(0xff), bytes(0x61, 0xc3), bytes(0xed, 0xa0, 0x80)]) {
    assert.equal(binaryText(bad), null);
  }
});
