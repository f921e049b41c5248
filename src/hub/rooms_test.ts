import assert from "node:assert/strict";
import { RoomIndex } from "./rooms.ts";

Deno.test("room index places, moves and removes players", () => {
  const r = new RoomIndex();
  r.place("2", "1");
  r.place("3", "1");
  assert.deepEqual([...r.members("1")!], ["2", "3"]);
  r.place("2", "5");
  assert.deepEqual([...r.members("1")!], ["3"]);
  assert.equal(r.roomOf("2"), "5");
  r.remove("3");
  assert.equal(r.members("1"), undefined);
  assert.equal(r.has("3"), false);
  r.remove("3");
  r.place("2", "5");
  assert.deepEqual([...r.members("5")!], ["2"]);
});
