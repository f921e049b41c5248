/** Tests of reading hub frames. */
import assert from "node:assert/strict";
import { clientFrame, lineFrame, parseHubFrame, pingFrame, windowFrame } from "./hub_frames.ts";

Deno.test("parseHubFrame: JSON frames split into msg, data, type and gmcp", () => {
  const f = parseHubFrame(
    JSON.stringify({ msg: "hi", data: { type: "room", id: "1" }, gmcp: ["A.B", {}] }),
  );
  assert.deepEqual(f, {
    msg: "hi",
    data: { type: "room", id: "1" },
    type: "room",
    gmcp: ["A.B", {}],
  });
  assert.deepEqual(parseHubFrame(JSON.stringify({ data: { type: "ack", id: 3 } })), {
    msg: "",
    data: { type: "ack", id: 3 },
    type: "ack",
    gmcp: undefined,
  });
});

Deno.test("parseHubFrame: plain text, bad JSON and odd fields are shown as they are", () => {
  assert.deepEqual(parseHubFrame("Hello there"), {
    msg: "Hello there",
    data: {},
    type: "",
    gmcp: undefined,
  });
  assert.equal(parseHubFrame("{not json").msg, "{not json");
  const odd = parseHubFrame(JSON.stringify({ msg: 5, data: "x" }));
  assert.deepEqual(odd, { msg: "", data: {}, type: "", gmcp: undefined });
  assert.equal(parseHubFrame(JSON.stringify({ data: { type: 7 } })).type, "");
});

Deno.test("frames to the hub: line with and without ack, ping, client info, window", () => {
  assert.equal(lineFrame("look", 4), '{"msg":"look","ack":4}');
  assert.equal(lineFrame("look", null), '{"msg":"look"}');
  assert.equal(pingFrame(9), '{"type":"ping","id":9}');
  assert.deepEqual(
    JSON.parse(
      clientFrame({ ip: "10.0.0.1", connectedAt: 1, lastInput: 2, ttype: "x".repeat(80) }),
    ),
    { type: "client", ip: "10.0.0.1", connectedAt: 1, lastInput: 2, ttype: "x".repeat(64) },
  );
  assert.equal(
    clientFrame({ ip: "::1", connectedAt: 1, lastInput: 2, ttype: null }).includes("ttype"),
    false,
  );
  assert.equal(windowFrame(100, 40), '{"type":"window","width":100,"height":40}');
  assert.equal(windowFrame(80, 0), '{"type":"window","width":80,"height":24}');
  assert.equal(windowFrame(80, null), '{"type":"window","width":80,"height":24}');
});
