/** Tests of GMCP encoding and decoding. */
import assert from "node:assert/strict";
import { bytes } from "./_test_util.ts";
import { GMCP, IAC, SB, SE } from "./constants.ts";
import { decodeGmcp, encodeGmcp } from "./gmcp.ts";

Deno.test("gmcp: encode frames package and JSON", () => {
  assert.deepEqual(
    encodeGmcp("Char.Name", { name: "Bob" }),
    bytes(IAC, SB, GMCP, 'Char.Name {"name":"Bob"}', IAC, SE),
  );
  assert.deepEqual(encodeGmcp("Core.Ping"), bytes(IAC, SB, GMCP, "Core.Ping", IAC, SE));
});

Deno.test("gmcp: the payload never carries a bare IAC", () => {
  // JSON escapes nothing into 0xFF, but the framing must hold for any text.
  const frame = encodeGmcp("Comm.Channel", { text: "ÿ\u00ff" });
  const inner = frame.subarray(3, -2);
  for (let i = 0; i < inner.length; i++) {
    if (inner[i] === IAC) {
      assert.equal(inner[i + 1], IAC);
      i++;
    }
  }
});

Deno.test("gmcp: invalid package names are caller bugs", () => {
  assert.throws(() => encodeGmcp("Bad Name"), RangeError);
  assert.throws(() => encodeGmcp(""), RangeError);
});

Deno.test("gmcp: decode package with and without JSON", () => {
  assert.deepEqual(decodeGmcp(bytes('Core.Hello {"client":"Mudlet","version":"4.17"}')), {
    package: "Core.Hello",
    data: { client: "Mudlet", version: "4.17" },
    raw: '{"client":"Mudlet","version":"4.17"}',
  });
  assert.deepEqual(decodeGmcp(bytes("Core.Ping")), {
    package: "Core.Ping",
    data: undefined,
    raw: "",
  });
  assert.deepEqual(decodeGmcp(bytes('Core.Supports.Set ["Char 1", "Room 1"]'))?.data, [
    "Char 1",
    "Room 1",
  ]);
});

Deno.test("gmcp: bad JSON and garbage never throw", () => {
  assert.deepEqual(decodeGmcp(bytes("Core.Hello {oops")), {
    package: "Core.Hello",
    data: undefined,
    raw: "{oops",
  });
  assert.equal(decodeGmcp(bytes("")), null);
  assert.equal(decodeGmcp(bytes("   ")), null);
  assert.equal(decodeGmcp(bytes(0xff, 0xfe, 0x00)), null);
  assert.equal(decodeGmcp(bytes("x".repeat(200))), null);
});
