import { assertEquals } from "../../tests/assert.ts";
import { puppetRelay, relayPuppets } from "./hearing.ts";
import type { DbObject } from "./types.ts";

function obj(id: string, flags: string[], location: string, owner = id): DbObject {
  return { id, name: `O${id}`, flags, location, owner, data: {} } as unknown as DbObject;
}

Deno.test("puppetRelay: the owner elsewhere hears, not when there or carrying it", () => {
  const place = (where: string) => () => where;
  const pup = obj("5", ["thing", "puppet"], "9", "2");
  assertEquals(puppetRelay(pup, place("1")), { player: "2", prefix: "O5> " });
  // The owner in the same place, or holding it.
  assertEquals(puppetRelay(pup, place("9")), null);
  assertEquals(puppetRelay(obj("5", ["thing", "puppet"], "2", "2"), place("1")), null);
  // Not a puppet; a puppet that is its own owner.
  assertEquals(puppetRelay(obj("5", ["thing"], "9", "2"), place("1")), null);
  assertEquals(puppetRelay(obj("5", ["thing", "puppet"], "9"), place("1")), null);
});

Deno.test("relayPuppets: each puppet not excluded relays the text to its owner", () => {
  const objects = new Map<string, DbObject>([
    ["2", obj("2", ["player"], "1")],
    ["3", obj("3", ["player"], "9")],
    ["5", obj("5", ["thing", "puppet"], "9", "2")],
    ["6", obj("6", ["thing", "puppet"], "9", "3")],
    ["7", obj("7", ["thing", "puppet"], "9", "2")],
  ]);
  const world = { object: (id: string) => objects.get(id) ?? null };
  const sent: [string, string][] = [];
  const deliver = { toPlayer: (p: string, out: { msg: string }) => void sent.push([p, out.msg]) };
  relayPuppets(world, ["5", "6", "7"], "Bob waves.", ["7"], deliver);
  // #6's owner is in the room; #7 is excluded (it said it).
  assertEquals(sent, [["2", "O5> Bob waves."]]);
});
