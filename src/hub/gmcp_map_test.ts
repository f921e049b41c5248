import assert from "node:assert/strict";
import { GmcpMap } from "./gmcp_map.ts";

Deno.test("gmcp handlers: one owner per package, any case; Core is not for plugins", () => {
  const map = new GmcpMap();
  const got: unknown[] = [];
  map.handle("Comm.Channel.Players", ({ player }, data) => void got.push([player, data]), "chan");
  map.receive({ player: "7" }, "comm.channel.players", "");
  map.receive({ player: "7" }, "Nobody.Handles", 1);
  assert.deepEqual(got, [["7", ""]]);
  assert.throws(() => map.handle("COMM.CHANNEL.PLAYERS", () => {}, "other"), /already handled/);
  assert.throws(() => map.handle("Core.Ping", () => {}, "chan"), /Core/);
  assert.throws(() => map.handle("bad name", () => {}, "chan"), /not a GMCP package/);
  map.removeOwner("chan");
  map.receive({ player: "7" }, "Comm.Channel.Players", "");
  assert.equal(got.length, 1, "released with its plugin");
});

Deno.test("gmcp handlers: a throwing or rejecting handler is logged and isolated", async () => {
  const map = new GmcpMap();
  const errors: string[] = [];
  const original = console.error;
  console.error = (m: string) => errors.push(m);
  try {
    map.handle("A.Throws", () => {
      throw new Error("boom");
    }, "p");
    map.handle("A.Rejects", () => Promise.reject(new Error("later")), "p");
    map.receive({ player: "1" }, "A.Throws", null);
    map.receive({ player: "1" }, "A.Rejects", null);
    await new Promise((r) => setTimeout(r, 0));
  } finally {
    console.error = original;
  }
  assert.equal(errors.length, 2, errors.join("\n"));
  assert.match(errors[0], /p's handler of 'A.Throws' failed: Error: boom/);
});

Deno.test("gmcp wants: true when one of the player's connections wants the package", () => {
  const conns = new Map([["7", new Set([{ gmcpWants: (p: string) => p === "Room.Info" }])]]);
  const map = new GmcpMap({ connectionsOf: (id) => conns.get(id) });
  assert.equal(map.wants("7", "Room.Info"), true);
  assert.equal(map.wants("7", "Comm.Channel.Players"), false);
  assert.equal(map.wants("8", "Room.Info"), false, "not connected");
  assert.equal(new GmcpMap().wants("7", "Room.Info"), false);
});
