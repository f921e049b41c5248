/** Tests of the shared reading and rendering of frames sent to many telnet players. */
import assert from "node:assert/strict";
import { RenderMemo } from "./render_memo.ts";
import { encodeGmcp } from "../protocol/gmcp.ts";

const text = (b: Uint8Array) => new TextDecoder().decode(b);

Deno.test("render memo: a frame handed to many sessions is read once", () => {
  const m = new RenderMemo();
  const frame = JSON.stringify({ msg: "%crHi%cn", data: { type: "say" }, gmcp: ["Comm.Say", {}] });
  const a = m.frame(frame);
  assert.equal(m.frame(frame), a, "the same text in a row: the same reading");
  assert.deepEqual(a, {
    msg: "%crHi%cn",
    data: { type: "say" },
    type: "say",
    gmcp: ["Comm.Say", {}],
  });
  const b = m.frame(JSON.stringify({ msg: "next" }));
  assert.deepEqual(b.msg, "next");
  assert.deepEqual(m.frame("not json").msg, "not json");
});

Deno.test("render memo: a line is rendered once per colour setting, each with its own bytes", () => {
  const m = new RenderMemo();
  const lit = m.line("%ch%crHi%cn there\nsecond\xff", true);
  const mono = m.line("%ch%crHi%cn there\nsecond\xff", false);
  assert.deepEqual(text(lit), "\x1b[1m\x1b[31mHi\x1b[0m there\r\nsecond\xff\r\n");
  assert.deepEqual(text(mono), "Hi there\r\nsecond\xff\r\n");
  assert.deepEqual([...lit.slice(-4)], [0xc3, 0xbf, 13, 10], "UTF-8, CRLF");
  assert.equal(m.line("%ch%crHi%cn there\nsecond\xff", true), lit, "rendered once");
  assert.equal(m.line("%ch%crHi%cn there\nsecond\xff", false), mono, "rendered once");
  assert.deepEqual(text(m.line("ends\n", false)), "ends\r\n", "no second line end");
  assert.deepEqual(
    text(m.line("%ch%crHi%cn there\nsecond\xff", false)),
    "Hi there\r\nsecond\xff\r\n",
  );
});

Deno.test("render memo: GMCP forms are encoded once per colour setting; bad ones are null", () => {
  const m = new RenderMemo();
  const gmcp = ["Comm.Channel.Text", { text: "%crred%cn" }];
  const lit = m.gmcp(gmcp, true)!;
  assert.deepEqual(lit, encodeGmcp("Comm.Channel.Text", { text: "\x1b[31mred\x1b[0m" }));
  assert.equal(m.gmcp(gmcp, true), lit);
  assert.deepEqual(m.gmcp(gmcp, false), encodeGmcp("Comm.Channel.Text", { text: "red" }));
  assert.deepEqual(m.gmcp(["not a package!", {}], true), null);
  assert.deepEqual(m.gmcp("nope", false), null);
  assert.ok(m.gmcp(["Char.Vitals", { hp: 1 }], false) !== null);
});
