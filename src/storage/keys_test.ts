import assert from "node:assert/strict";
import { keys } from "./keys.ts";

Deno.test("keys: every key starts with its collection name", () => {
  assert.deepEqual(keys.object("12"), ["obj", "12"]);
  assert.deepEqual(keys.playerByName("alice"), ["player_by_name", "alice"]);
  assert.deepEqual(keys.contents("1", "12"), ["obj_by_loc", "1", "12"]);
  assert.deepEqual(keys.contentsOf("1"), ["obj_by_loc", "1"]);
  assert.deepEqual(keys.byFlag("room", "1"), ["obj_by_flag", "room", "1"]);
  assert.deepEqual(keys.credentials("2"), ["auth", "2"]);
  assert.deepEqual(keys.online("2"), ["online", "2"]);
  assert.deepEqual(keys.counter("dbref"), ["counter", "dbref"]);
  assert.deepEqual(keys.plugin("notes", "note", "x"), ["plugin", "notes", "note", "x"]);
});

Deno.test("keys: index prefixes are prefixes of their entries", () => {
  const pairs: [Deno.KvKey, Deno.KvKey][] = [
    [keys.contentsOf("5"), keys.contents("5", "9")],
    [keys.withFlag("room"), keys.byFlag("room", "9")],
    [keys.ownedBy("3"), keys.byOwner("3", "9")],
    [keys.objectsByName("box"), keys.objectByName("box", "9")],
    [keys.onlineAll(), keys.online("9")],
    [keys.exitsTo("5"), keys.exitTo("5", "9")],
    [keys.attributesOf("5"), keys.attribute("5", "FINGER")],
    [keys.attributes(), keys.attributesOf("5")],
    [keys.attributeBytesAll(), keys.attributeBytes("5")],
  ];
  for (const [prefix, key] of pairs) assert.deepEqual(key.slice(0, prefix.length), prefix);
});
