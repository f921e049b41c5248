/** Tests of reading hub frames. */
import assert from "node:assert/strict";
import { parseHubFrame } from "./hub_frames.ts";

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
