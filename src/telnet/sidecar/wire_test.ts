/** Tests of the frames a telnet client sends over a wire. */
import assert from "node:assert/strict";
import { clientFrame, lineFrame, pingFrame, windowFrame } from "./wire.ts";

Deno.test("frames to the hub: line with and without ack, ping, client info, window", () => {
  assert.equal(lineFrame("look", 4), '{"msg":"look","ack":4}');
  assert.equal(lineFrame("look", null), '{"msg":"look"}');
  assert.equal(pingFrame(9), '{"type":"ping","id":9}');
  assert.deepEqual(
    JSON.parse(
      clientFrame({ ip: "10.0.0.1", connectedAt: 1, lastInput: 2, ttype: "x".repeat(80) })!,
    ),
    { type: "client", ip: "10.0.0.1", connectedAt: 1, lastInput: 2, ttype: "x".repeat(64) },
  );
  assert.equal(
    clientFrame({ ip: "::1", connectedAt: 1, lastInput: 2, ttype: null })!.includes("ttype"),
    false,
  );
  assert.equal(clientFrame({ width: 80 }), null, "a window alone is no client frame");
  assert.equal(clientFrame({ colourDepth: 256 }), '{"type":"client","colourDepth":256}');
  assert.equal(clientFrame({ colourDepth: 0 }), '{"type":"client","colourDepth":0}', "none");
  assert.equal(
    windowFrame({ width: 100, height: 40 }),
    '{"type":"window","width":100,"height":40}',
  );
  assert.equal(windowFrame({ width: 80, height: 0 }), '{"type":"window","width":80,"height":24}');
  assert.equal(
    windowFrame({ width: 80, height: null }),
    '{"type":"window","width":80,"height":24}',
  );
  assert.equal(windowFrame({ ip: "::1" }), null);
});
