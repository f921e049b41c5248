/** Tests of the one delivery: to players, lists, rooms and everyone; GMCP forms made once. */
import assert from "node:assert/strict";
import { Connection } from "./connection.ts";
import { FakeSession, idleHooks } from "./_test_session.ts";
import { Delivery } from "./delivery.ts";
import { GmcpMap } from "./gmcp_map.ts";
import { SessionRegistry } from "./registry.ts";
import type { ClientKind } from "./types.ts";
import type { DbObject } from "../world/types.ts";

const hooks = idleHooks();

function player(id: string, location = "1"): DbObject {
  return {
    id,
    name: `P${id}`,
    flags: ["player"],
    location,
    owner: id,
    data: {},
    createdAt: 0,
    updatedAt: 0,
  };
}

function setup() {
  const registry = new SessionRegistry();
  const gmcp = new GmcpMap();
  const delivery = new Delivery(registry, gmcp);
  let seq = 0;
  const join = (id: string, kind: ClientKind, location = "1") => {
    const socket = new FakeSession(kind);
    const conn = new Connection(`c${++seq}`, kind, "127.0.0.1", socket, hooks, 0);
    registry.open(conn);
    registry.attach(conn, player(id, location));
    return socket;
  };
  return { registry, gmcp, delivery, join };
}

Deno.test("delivery: a message is mapped to GMCP once, and only telnet frames carry it", () => {
  const { gmcp, delivery, join } = setup();
  let calls = 0;
  gmcp.set("note", "Test.Note", (data, msg) => {
    calls++;
    return { text: msg, n: data.n };
  }, "test");
  const telnet = [join("2", "telnet"), join("3", "telnet"), join("4", "telnet")];
  const web = join("5", "web");
  const plain = join("6", "plain");
  delivery.toRoom("1", { msg: "hi %chthere", data: { type: "note", n: 1 } });
  assert.equal(calls, 1, "the mapping ran once for three telnet clients");
  const frame = JSON.parse(telnet[0].sent[0]);
  assert.deepEqual(frame.gmcp, ["Test.Note", { text: "hi %chthere", n: 1 }]);
  for (const s of telnet) assert.equal(s.sent[0], telnet[0].sent[0]);
  assert.equal(JSON.parse(web.sent[0]).gmcp, undefined);
  assert.equal(plain.sent[0], "hi \x1b[1mthere\x1b[0m\r\n");

  // Unmapped types, and a mapping that gives nothing or throws, send the plain JSON frame.
  gmcp.set("quiet", "Test.Quiet", () => undefined, "test");
  delivery.toPlayer("2", { msg: "x", data: { type: "quiet" } });
  delivery.toPlayer("2", { msg: "y", data: { type: "other" } });
  assert.deepEqual(telnet[0].sent.slice(1).map((t) => JSON.parse(t).gmcp), [undefined, undefined]);
  gmcp.removeOwner("test");
  delivery.toPlayer("2", { msg: "z", data: { type: "note", n: 2 } });
  assert.equal(JSON.parse(telnet[0].sent[3]).gmcp, undefined, "released with its owner");
});

Deno.test("delivery: a list reaches each connected player once; rooms exclude", () => {
  const { delivery, join } = setup();
  const a = join("2", "web");
  const b = join("3", "web");
  const elsewhere = join("4", "web", "9");
  delivery.toPlayers(["3", "3", "2", "404"], { msg: "list" });
  delivery.toPlayers(new Map([["3", 1], ["404", 2], ["405", 3], ["406", 4]]), { msg: "map" });
  delivery.toPlayers(new Set(["4"]), { msg: "set" });
  delivery.toRoom("1", { msg: "room" }, ["2"]);
  delivery.toAll({ msg: "all" });
  const msgs = (s: FakeSession) => s.sent.map((t) => JSON.parse(t).msg);
  assert.deepEqual(msgs(a), ["list", "all"]);
  assert.deepEqual(msgs(b), ["list", "map", "room", "all"]);
  assert.deepEqual(msgs(elsewhere), ["set", "all"]);
});

Deno.test("delivery: a room's list of connections follows logins, moves, second connections and logouts", () => {
  const { registry, delivery, join } = setup();
  const a = join("2", "web");
  const b = join("3", "web");
  const msgs = (s: FakeSession) => s.sent.map((t) => JSON.parse(t).msg);
  delivery.toRoom("1", { msg: "one" });
  // Asked once, the room's list is kept: each change below must make it anew.
  const c = join("4", "web");
  const b2 = join("3", "web");
  delivery.toRoom("1", { msg: "two" });
  const moved = player("2", "9");
  registry.changed({ before: player("2"), after: moved });
  delivery.toRoom("1", { msg: "three" });
  delivery.toRoom("9", { msg: "nine" });
  const conn = [...registry.connectionsOf("4")!][0];
  registry.detach(conn);
  delivery.toRoom("1", { msg: "four" });
  assert.deepEqual(msgs(a), ["one", "two", "nine"]);
  assert.deepEqual(msgs(b), ["one", "two", "three", "four"]);
  assert.deepEqual(msgs(b2), ["two", "three", "four"]);
  assert.deepEqual(msgs(c), ["two", "three"]);
  // A change that moves nobody keeps the list; each connection still hears the room once.
  const before = registry.roomConnections("1");
  registry.changed({ before: player("3"), after: player("3") });
  assert.equal(registry.roomConnections("1"), before);
  delivery.toRoom("1", { msg: "five" });
  delivery.toRoom("9", { msg: "none" }, ["2"]);
  assert.deepEqual(msgs(b).slice(-2), ["four", "five"]);
  assert.deepEqual(msgs(b2).slice(-2), ["four", "five"]);
  assert.equal(msgs(a).at(-1), "nine");
  assert.equal(registry.roomConnections("404"), undefined);
});

Deno.test("gmcp map: a type belongs to one plugin; package names are checked", () => {
  const gmcp = new GmcpMap();
  gmcp.set("channel", "Comm.Channel.Text", () => ({}), "channels");
  gmcp.set("channel", "Comm.Channel.Text", () => ({ again: true }), "channels");
  assert.throws(
    () => gmcp.set("channel", "X.Y", () => ({}), "other"),
    /already mapped by channels/,
  );
  assert.throws(() => gmcp.set("t", "bad name", () => ({}), "p"), /not a GMCP package/);
  assert.deepEqual(gmcp.apply({ type: "channel" }, ""), ["Comm.Channel.Text", { again: true }]);
});
