/** Tests of the GMCP a hub session turns into (Char.Name, Room.Info, a plugin's forms). */
import assert from "node:assert/strict";
import { charInfo, forwardedGmcp, helloClient, roomInfo, wrongDir } from "./gmcp_relay.ts";

Deno.test("roomInfo: numbers where ids are numbers, colour stripped, exits bounded", () => {
  assert.deepEqual(
    roomInfo({
      id: "12",
      name: "%chThe %crHall%cn",
      exits: [
        { name: "%cgNorth", to: "13" },
        { name: "Out", to: "" },
        { name: "Door", to: "abc" },
        "junk",
        null,
        { to: "5" },
      ],
    }),
    {
      num: 12,
      name: "The Hall",
      area: "",
      environment: "",
      exits: { n: 13, out: "", Door: "abc" },
    },
  );
  assert.deepEqual(roomInfo({}), { num: "", name: "", area: "", environment: "", exits: {} });
  const many = Array.from({ length: 150 }, (_, i) => ({ name: `e${i}`, to: String(i) }));
  assert.equal(Object.keys(roomInfo({ id: 1, exits: many }).exits).length, 100);
});

Deno.test("roomInfo: area, environment, coords; compass exits under their short direction", () => {
  const info = roomInfo({
    id: "4",
    name: "Gate",
    area: "Old Town",
    environment: "Road",
    coords: { x: 1, y: -2, z: 0 },
    exits: [
      { name: "Gate Road", to: "5", aliases: ["gr", "north"] },
      { name: "Up the stairs", to: "6", aliases: ["stairs", "u"] },
      { name: "Northeast", to: "7", aliases: [] },
      { name: "N", to: "8", aliases: [] },
      { name: "Tavern", to: "9", aliases: ["t"] },
      { name: "Rope", to: "10", aliases: "u" },
    ],
  });
  assert.deepEqual(info, {
    num: 4,
    name: "Gate",
    area: "Old Town",
    environment: "Road",
    coords: { x: 1, y: -2, z: 0 },
    exits: { n: 5, u: 6, ne: 7, Tavern: 9, Rope: 10 },
  });
  assert.equal(roomInfo({ coords: { x: 1.5, y: 0, z: 0 } }).coords, undefined);
  assert.equal(roomInfo({ coords: null }).coords, undefined);
});

Deno.test("wrongDir: the failed way from an error frame, bounded; nothing without one", () => {
  assert.equal(wrongDir({ type: "error", msg: "Huh?", wrongDir: "ne" }), "ne");
  assert.equal(wrongDir({ type: "error", wrongDir: "x".repeat(500) })?.length, 64);
  assert.equal(wrongDir({ type: "error", msg: "Huh?" }), null);
  assert.equal(wrongDir({ type: "error", wrongDir: 5 }), null);
});

Deno.test("forwardedGmcp: strings rendered with or without colour; bad forms refused", () => {
  const gmcp = ["Comm.Channel.Text", { channel: "Public", text: "%crhi%cn", n: 3, list: ["%ch!"] }];
  assert.deepEqual(forwardedGmcp(gmcp, false), [
    "Comm.Channel.Text",
    { channel: "Public", text: "hi", n: 3, list: ["!"] },
  ]);
  const [, coloured] = forwardedGmcp(gmcp, true)!;
  assert.ok((coloured as { text: string }).text.includes("\x1b[31mhi"));
  assert.equal(forwardedGmcp("Comm.Channel.Text", false), null);
  assert.equal(forwardedGmcp([5, {}], false), null);
  assert.equal(forwardedGmcp(["bad name!", {}], false), null);
});

Deno.test("forwardedGmcp: nesting past eight levels is passed on unrendered", () => {
  let deep: unknown = "%crx";
  for (let i = 0; i < 10; i++) deep = [deep];
  let out = forwardedGmcp(["A.B", deep], false)![1];
  for (let i = 0; i < 8; i++) out = (out as unknown[])[0];
  assert.deepEqual(out, [["%crx"]]);
});

Deno.test("helloClient and charInfo", () => {
  assert.equal(helloClient("Core.Hello", { client: "Mudlet", version: "4" }), "Mudlet");
  assert.equal(helloClient("core.hello", { client: "m".repeat(100) }), "m".repeat(64));
  assert.equal(helloClient("Core.Hello", { client: "" }), null);
  assert.equal(helloClient("Core.Hello", null), null);
  assert.equal(helloClient("Core.Supports.Set", { client: "x" }), null);
  assert.deepEqual(charInfo({ type: "char", name: "Ann", level: "player" }), {
    name: { name: "Ann", fullname: "Ann" },
    status: { name: "Ann", fullname: "Ann", level: "player" },
  });
  assert.deepEqual(
    charInfo({ name: "Ann", fullname: "%chLady%cn Ann", level: "wizard" })?.status,
    { name: "Ann", fullname: "Lady Ann", level: "wizard" },
  );
  assert.equal(charInfo({ name: 5 }), null);
  assert.equal(charInfo({}), null);
});
