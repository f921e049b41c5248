import assert from "node:assert/strict";
import { counted } from "./plural.ts";

Deno.test("counted: singular only for exactly one", () => {
  assert.equal(counted(1, "player"), "1 player");
  assert.equal(counted(0, "player"), "0 players");
  assert.equal(counted(2, "more new job"), "2 more new jobs");
  assert.equal(counted(3, "address", "addresses"), "3 addresses");
});
