import assert from "node:assert/strict";
import { lowerCase } from "./lower.ts";

Deno.test("lowerCase matches toLowerCase and keeps lower-case text as it is", () => {
  for (const s of ["", "think", "Think", "@SET", "wizard", "ÉCOLE", "straße", "İ", "a-b_c/1"]) {
    assert.equal(lowerCase(s), s.toLowerCase(), s);
  }
  const same = "already lower";
  assert.equal(lowerCase(same), same);
});
