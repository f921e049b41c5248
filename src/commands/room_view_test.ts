/** A room's COORDS attribute as Room.Info carries it. */
import assert from "node:assert/strict";
import { parseCoords, roomPlace, UNKNOWN_PLACE } from "./room_view.ts";

Deno.test("parseCoords: x y z or x,y,z integers (z optional); anything else is none", () => {
  assert.deepEqual(parseCoords("1 2 3"), { x: 1, y: 2, z: 3 });
  assert.deepEqual(parseCoords(" -4, 5 "), { x: -4, y: 5, z: 0 });
  assert.deepEqual(parseCoords("7,8,-9"), { x: 7, y: 8, z: -9 });
  for (const bad of ["", "1", "1 2 3 4", "a b", "1.5 2", "1 2 3x", "1".repeat(12) + " 2"]) {
    assert.equal(parseCoords(bad), null, bad);
  }
});

Deno.test("roomPlace: the room's attributes, else its parents', else Unknown", async () => {
  const rooms: Record<string, { id: string; data: Record<string, unknown> }> = {
    "1": { id: "1", data: { parent: "2" } },
    "2": { id: "2", data: { parent: "3" } },
    "3": { id: "3", data: { parent: "1" } },
    "9": { id: "9", data: {} },
  };
  const attrs: Record<string, string> = {
    "1/AREA": "Old Town",
    "2/ENVIRONMENT": "Road",
    "3/COORDS": "4 5 6",
    "3/AREA": "Not this",
  };
  const s = {
    attributes: {
      get: (id: string, name: string) =>
        Promise.resolve(attrs[`${id}/${name}`] ? { value: attrs[`${id}/${name}`] } : null),
    },
    objects: { get: (id: string) => Promise.resolve(rooms[id] ?? null) },
  } as unknown as Parameters<typeof roomPlace>[0];
  const room = (id: string) => rooms[id] as unknown as Parameters<typeof roomPlace>[1];
  assert.deepEqual(await roomPlace(s, room("1")), {
    area: "Old Town",
    environment: "Road",
    coords: { x: 4, y: 5, z: 6 },
  });
  // A parent loop ends at the bound; nothing set is the default.
  assert.deepEqual(await roomPlace(s, room("9")), {
    area: UNKNOWN_PLACE,
    environment: UNKNOWN_PLACE,
    coords: null,
  });
});
