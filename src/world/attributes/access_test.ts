import assert from "node:assert/strict";
import { attrWriteRefusal } from "./access.ts";

const alice = { id: "2", owner: "2", flags: ["player"] };
const box = { id: "3", owner: "2", flags: ["thing"] };
const bag = { id: "4", owner: "2", flags: ["thing"] };
const heir = { id: "5", owner: "2", flags: ["thing", "inherit"] };
const bobs = { id: "6", owner: "7", flags: ["thing"] };

Deno.test("attributes: an object sets another of its owner's under MUX's Controls()", () => {
  assert.equal(attrWriteRefusal(box, bag, "NOTE", null, null), null, "same owner, neither inherit");
  assert.equal(attrWriteRefusal(alice, box, "NOTE", null, null), null, "the owner");
  assert.ok(attrWriteRefusal(box, alice, "NOTE", null, null), "not the player, without inherit");
  assert.ok(attrWriteRefusal(box, heir, "NOTE", null, null), "not an inherit object");
  assert.equal(
    attrWriteRefusal(heir, alice, "NOTE", null, null),
    null,
    "an inherit object: its owner",
  );
  assert.equal(attrWriteRefusal(heir, box, "NOTE", null, null), null);
  assert.ok(attrWriteRefusal(box, bobs, "NOTE", null, null), "another owner's");
});
