/** Tests of the GMCP a hub session turns into (Char.Name, Room.Info, a plugin's forms). */
import assert from "node:assert/strict";
import { charName, forwardedGmcp, helloClient, roomInfo } from "./gmcp_relay.ts";

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
    { num: 12, name: "The Hall", exits: { North: 13, Out: "", Door: "abc" } },
  );
  assert.deepEqual(roomInfo({}), { num: "", name: "", exits: {} });
  const many = Array.from({ length: 150 }, (_, i) => ({ name: `e${i}`, to: String(i) }));
  assert.equal(Object.keys(roomInfo({ id: 1, exits: many }).exits).length, 100);
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

Deno.test("helloClient and charName", () => {
  assert.equal(helloClient("Core.Hello", { client: "Mudlet", version: "4" }), "Mudlet");
  assert.equal(helloClient("core.hello", { client: "m".repeat(100) }), "m".repeat(64));
  assert.equal(helloClient("Core.Hello", { client: "" }), null);
  assert.equal(helloClient("Core.Hello", null), null);
  assert.equal(helloClient("Core.Supports.Set", { client: "x" }), null);
  assert.deepEqual(charName("Ann"), { name: "Ann", fullname: "Ann" });
});
