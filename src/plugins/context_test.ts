import assert from "node:assert/strict";
import { fullPrefix } from "./context.ts";

Deno.test("context: route prefixes are normalised under /api/v1", () => {
  for (const p of ["kettle", "/kettle", "/api/v1/kettle", "kettle/", " /api/v1/kettle/ "]) {
    assert.equal(fullPrefix(p), "/api/v1/kettle", p);
  }
  assert.equal(fullPrefix("kettle/v2.x"), "/api/v1/kettle/v2.x");
});

Deno.test("context: prefixes that would shadow the API or need escaping are refused", () => {
  for (
    const bad of [
      "",
      "  ",
      "/",
      "/api/v1",
      "/api/v1/",
      "api/v2/x",
      "/api/v1/../auth",
      "a/./b",
      "x y",
      "a//b",
      "caf\u00e9",
      "a?b",
      "a#b",
      "%2e%2e",
    ]
  ) {
    assert.throws(() => fullPrefix(bad), /route prefix/, JSON.stringify(bad));
  }
  // deno-lint-ignore no-explicit-any
  assert.throws(() => fullPrefix(5 as any), /route prefix is required/);
});
