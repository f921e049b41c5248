/** The `char` frame: level from flags, fullname from the moniker, and which changes resend it. */
import assert from "node:assert/strict";
import { charChanged, charFrame, levelName } from "./char_frame.ts";

Deno.test("char frame: the highest privilege flag is the level; guests are guests", () => {
  assert.equal(levelName(["player"]), "player");
  assert.equal(levelName(["player", "builder", "connected"]), "builder");
  assert.equal(levelName(["player", "wizard", "builder"]), "wizard");
  assert.equal(levelName(["player", "guest"]), "guest");
  assert.equal(levelName([]), "player");
});

Deno.test("char frame: fullname is the moniker when set; a change of name, moniker or level resends", () => {
  const p = { id: "7", name: "Ann", flags: ["player"], data: {} };
  assert.deepEqual(charFrame(p).data, {
    type: "char",
    id: "7",
    name: "Ann",
    fullname: "Ann",
    level: "player",
  });
  assert.equal(charFrame({ ...p, data: { moniker: "%chAnn%cn" } }).data?.fullname, "%chAnn%cn");
  assert.equal(charChanged(p, { ...p, name: "Anna" }), true);
  assert.equal(charChanged(p, { ...p, data: { moniker: "A" } }), true);
  assert.equal(charChanged(p, { ...p, flags: ["player", "wizard"] }), true);
  assert.equal(charChanged(p, { ...p, flags: ["player", "connected"] }), false);
  assert.equal(charChanged(null, p), false);
});
