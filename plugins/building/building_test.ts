import assert from "node:assert/strict";
import { parseExitSpec, ValidationError } from "../../src/plugins/mod.ts";

Deno.test("building: exit specs split names and aliases", () => {
  assert.deepEqual(parseExitSpec("North;n"), { name: "North", aliases: ["n"] });
  assert.deepEqual(parseExitSpec(" Out ; O ;o; "), { name: "Out", aliases: ["o"] });
  for (
    const bad of [
      "",
      ";n",
      "a=b;x",
      "#1",
      "Door;x=y",
      `D;${Array.from({ length: 11 }, (_, i) => `a${i}`).join(";")}`,
    ]
  ) {
    assert.throws(() => parseExitSpec(bad), ValidationError, bad);
  }
});
