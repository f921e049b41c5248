import assert from "node:assert/strict";
import { openLibcSymbols } from "./libc.ts";

Deno.test("openLibcSymbols: opens what libc has, and says why for what it has not", () => {
  const lib = openLibcSymbols({ getpid: { parameters: [], result: "i32" } });
  if (Deno.build.os !== "linux") {
    assert.equal(lib, `not Linux (${Deno.build.os})`);
    return;
  }
  assert.ok(typeof lib !== "string", String(lib));
  try {
    assert.equal(lib.symbols.getpid(), Deno.pid);
  } finally {
    lib.close();
  }
  const none = openLibcSymbols({ no_such_function_here: { parameters: [], result: "void" } });
  assert.equal(typeof none, "string");
  assert.match(none as string, /no_such_function_here/);
});
