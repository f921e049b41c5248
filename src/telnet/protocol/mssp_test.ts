/** Tests of MSSP tables. */
import assert from "node:assert/strict";
import { bytes } from "./_test_util.ts";
import { IAC, MSSP, MSSP_VAL, MSSP_VAR, SB, SE } from "./constants.ts";
import { decodeMssp, encodeMssp } from "./mssp.ts";

Deno.test("mssp: encode single and repeated values", () => {
  assert.deepEqual(
    encodeMssp({ NAME: "UrsaMU", PORT: ["4201", "4202"] }),
    bytes(
      IAC,
      SB,
      MSSP,
      MSSP_VAR,
      "NAME",
      MSSP_VAL,
      "UrsaMU",
      MSSP_VAR,
      "PORT",
      MSSP_VAL,
      "4201",
      MSSP_VAL,
      "4202",
      IAC,
      SE,
    ),
  );
});

Deno.test("mssp: framing bytes inside names and values are stripped; empty lists left out", () => {
  const frame = encodeMssp({ "NA\x01ME": "a\x02b\x00c", EMPTY: [] });
  assert.deepEqual(decodeMssp(frame.subarray(3, -2)), { NAME: "abc" });
});

Deno.test("mssp: round trip", () => {
  const table = {
    NAME: "Ursa Major",
    PLAYERS: "3",
    UPTIME: "1700000000",
    CODEBASE: ["UrsaMU", "1.0"],
  };
  assert.deepEqual(decodeMssp(encodeMssp(table).subarray(3, -2)), table);
});

Deno.test("mssp: a hostile name stays a plain key", () => {
  const t = decodeMssp(bytes(MSSP_VAR, "__proto__", MSSP_VAL, "x", MSSP_VAL, "y"));
  assert.deepEqual(Object.keys(t), ["__proto__"]);
  assert.equal(Object.getPrototypeOf(t), Object.prototype);
});
