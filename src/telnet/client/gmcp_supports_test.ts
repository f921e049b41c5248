/** Core.Supports: module lists read bounded, set/add/remove, and which packages a client gets. */
import assert from "node:assert/strict";
import { applySupports, MAX_SUPPORTED, supportedModules, supportsOp } from "./gmcp_supports.ts";
import { gmcpWanted } from "../../text/gmcp_package.ts";

Deno.test("gmcp supports: the operation of each Core.Supports package, any case", () => {
  assert.equal(supportsOp("Core.Supports.Set"), "set");
  assert.equal(supportsOp("core.supports.add"), "add");
  assert.equal(supportsOp("CORE.SUPPORTS.REMOVE"), "remove");
  assert.equal(supportsOp("Core.Hello"), null);
  assert.equal(supportsOp("Core.Supports"), null);
});

Deno.test("gmcp supports: module lists are read bounded; junk entries are skipped", () => {
  assert.deepEqual(supportedModules(["Room 1", "Comm.Channel 1", "Char"]), [
    "room",
    "comm.channel",
    "char",
  ]);
  assert.deepEqual(supportedModules([7, null, "", "  ", "bad name!", "Room 1"]), ["bad", "room"]);
  assert.equal(supportedModules({ Room: 1 }), null);
  assert.equal(supportedModules("Room 1"), null);
  assert.equal(supportedModules(undefined), null);
  const huge = Array.from({ length: 1_000_000 }, (_, i) => `Pkg${i} 1`);
  assert.equal(supportedModules(huge)?.length, MAX_SUPPORTED);
  assert.deepEqual(supportedModules(["x".repeat(200) + " 1"]), []);
});

Deno.test("gmcp supports: set replaces, add adds (bounded), remove removes", () => {
  assert.deepEqual(applySupports(null, "set", ["room", "room"]), ["room"]);
  assert.deepEqual(applySupports(["room"], "add", ["char"]), ["room", "char"]);
  assert.deepEqual(applySupports(null, "add", ["char"]), ["char"]);
  assert.deepEqual(applySupports(["room", "char"], "remove", ["room"]), ["char"]);
  assert.deepEqual(applySupports(null, "remove", ["room"]), []);
  const full = Array.from({ length: MAX_SUPPORTED }, (_, i) => `p${i}`);
  assert.equal(applySupports(full, "add", ["more"]).length, MAX_SUPPORTED);
});

Deno.test("gmcp supports: a package goes when it or a parent was announced; Core always", () => {
  const room = new Set(["room"]);
  assert.equal(gmcpWanted(null, "Comm.Channel.Text"), true, "never announced: everything");
  assert.equal(gmcpWanted(room, "Room.Info"), true);
  assert.equal(gmcpWanted(room, "room.wrongdir"), true);
  assert.equal(gmcpWanted(room, "Comm.Channel.Text"), false);
  assert.equal(gmcpWanted(room, "Roomy.Info"), false, "a parent is a whole dotted word");
  assert.equal(gmcpWanted(room, "Core.Goodbye"), true);
  const channel = new Set(["comm.channel"]);
  assert.equal(gmcpWanted(channel, "Comm.Channel.List"), true);
  assert.equal(gmcpWanted(channel, "Comm.Tell"), false, "a child does not cover its parent");
  assert.equal(gmcpWanted(new Set(), "Room.Info"), false, "an empty list asks for nothing");
});
