import assert from "node:assert/strict";
import { isConnectionError } from "./connection_errors.ts";

Deno.test("connection errors: Deno's connection failures, also when wrapped", () => {
  const body = new Deno.errors.BadResource(
    "Cannot read request body as underlying resource unavailable",
  );
  for (
    const e of [
      body,
      new Deno.errors.Http("connection closed before message completed"),
      new Deno.errors.ConnectionReset("reset"),
      new Deno.errors.BrokenPipe("pipe"),
      new Deno.errors.UnexpectedEof("eof"),
      new Error("plugin kettle: POST /api/v1/kettle failed", { cause: body }),
    ]
  ) {
    assert.equal(isConnectionError(e), true, String(e));
  }
  for (
    const e of [
      new Error("boom"),
      new TypeError("x is undefined"),
      new Deno.errors.BadResource("Bad resource ID"),
      new Deno.errors.NotFound("no file"),
      "a string",
      null,
    ]
  ) {
    assert.equal(isConnectionError(e), false, String(e));
  }
});
