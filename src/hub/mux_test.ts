import assert from "node:assert/strict";
import { decodeRecords, encodeRecord } from "./mux_wire.ts";
import { MuxLink, type MuxSocket } from "./mux_link.ts";

Deno.test("mux wire: records round trip; payloads carry newlines and JSON as they are", () => {
  const text = encodeRecord("o", [1], "client=telnet&token=abc") +
    encodeRecord("d", [1, 2, 3], '{"msg":"a\\nb"}\nsecond line') + encodeRecord("a", [4, 5]) +
    encodeRecord("c", [9], "1012 restart");
  const { records, error } = decodeRecords(text);
  assert.equal(error, null);
  assert.deepEqual(records.map((r) => [r.type, r.ids, r.payload]), [
    ["o", [1], "client=telnet&token=abc"],
    ["d", [1, 2, 3], '{"msg":"a\\nb"}\nsecond line'],
    ["a", [4, 5], ""],
    ["c", [9], "1012 restart"],
  ]);
});

Deno.test("mux wire: a half-written or malformed record ends the message, earlier ones stand", () => {
  const good = encodeRecord("d", [1], "hello");
  for (
    const bad of [
      encodeRecord("d", [2], "cut short").slice(0, -3),
      "d 2 5",
      "x 2 1\nz",
      "d 0 1\nz",
      "d 1,,2 1\nz",
      "d 99999999999 1\nz",
      "d 1 -1\nz",
      "d 1 1 1\nz",
      "d 1,02 1\nz",
      "d ,1 1\nz",
      "d 1,x 1\nz",
      "d 12345678901 1\nz",
      "d 4294967296,1,2,3,4,5,6,7,8,9,1, 1\nz",
    ]
  ) {
    // A WebSocket message arrives whole, so a record cut short can only be its last.
    const { records, error } = decodeRecords(good + bad);
    assert.equal(records.length, 1, JSON.stringify(bad));
    assert.equal(records[0].payload, "hello");
    assert.ok(error, JSON.stringify(bad));
  }
});

Deno.test("mux wire: a record to a thousand sessions lists them all, in order", () => {
  const ids = Array.from({ length: 1000 }, (_, i) => (i * 7919) % 9_999_999_999 + 1);
  ids.push(9_999_999_999);
  const { records, error } = decodeRecords(encodeRecord("d", ids, "x") + encodeRecord("a", []));
  assert.equal(error, null);
  assert.deepEqual(records[0].ids, ids);
  assert.deepEqual(records[1], { type: "a", ids: [], payload: "" });
});

/** Just enough of a WebSocket for a link: records what the hub sends. */
class FakeLinkSocket {
  readyState = 1;
  readonly sent: string[] = [];
  onmessage: ((e: MessageEvent) => void) | null = null;
  onclose: ((e: Event) => void) | null = null;
  onerror: ((e: Event) => void) | null = null;
  send(text: string) {
    this.sent.push(text);
  }
  close() {
    this.readyState = 3;
  }
  /** A message from the sidecar. */
  push(text: string) {
    this.onmessage?.(new MessageEvent("message", { data: text }));
  }
  /** Every record the hub sent so far, flattened. */
  records() {
    return this.sent.flatMap((t) => decodeRecords(t).records);
  }
}

const tick = () => new Promise((r) => setTimeout(r, 5));

function linkWithSessions() {
  const ws = new FakeLinkSocket();
  const sessions = new Map<number, { socket: MuxSocket; got: string[]; closed: number | null }>();
  const logged: string[] = [];
  const link = new MuxLink(ws as unknown as WebSocket, (socket) => {
    const s = { socket, got: [] as string[], closed: null as number | null };
    socket.addEventListener("message", (e) => s.got.push((e as MessageEvent).data));
    socket.addEventListener("close", (e) => s.closed = (e as CloseEvent).code);
    sessions.set(socket.sid, s);
  }, (line) => logged.push(line));
  return { ws, link, sessions, logged };
}

Deno.test("mux link: opens are acked in one record; a room's text crosses once with its sessions, each session's order kept", async () => {
  const { ws, sessions, link } = linkWithSessions();
  ws.push([1, 2, 3].map((i) => encodeRecord("o", [i], "client=telnet")).join(""));
  await tick();
  assert.deepEqual(ws.records(), [{ type: "a", ids: [1, 2, 3], payload: "" }]);
  ws.sent.length = 0;
  for (const sid of [1, 2, 3]) sessions.get(sid)!.socket.send("A");
  sessions.get(1)!.socket.send("B");
  sessions.get(1)!.socket.send("A");
  sessions.get(2)!.socket.send("A");
  await tick();
  assert.equal(ws.sent.length, 1, "one link message");
  assert.deepEqual(ws.records().map((r) => [r.ids, r.payload]), [
    [[1, 2, 3], "A"],
    [[1], "B"],
    [[1, 2], "A"],
  ]);
  assert.equal(link.stats().sessions, 3);
});

Deno.test("mux link: an unknown session id is answered with its close and harms nobody", async () => {
  const { ws, sessions } = linkWithSessions();
  ws.push(encodeRecord("o", [1], "client=telnet"));
  await tick();
  ws.sent.length = 0;
  ws.push(encodeRecord("d", [77], "hello") + encodeRecord("d", [1], "mine"));
  await tick();
  assert.deepEqual(sessions.get(1)!.got, ["mine"]);
  assert.equal(sessions.has(77), false);
  assert.deepEqual(ws.records().map((r) => [r.type, r.ids, r.payload]), [
    ["c", [77], "1008 unknown session"],
  ]);
  // A second open of a session id in use is refused; the first session goes on.
  ws.push(encodeRecord("o", [1], "client=telnet"));
  ws.push(encodeRecord("d", [1], "still mine"));
  await tick();
  assert.deepEqual(sessions.get(1)!.got, ["mine", "still mine"]);
  assert.equal(sessions.get(1)!.closed, null);
});

Deno.test("mux link: a half-written message drops only its own tail; the link and sessions go on", async () => {
  const { ws, sessions, logged } = linkWithSessions();
  ws.push(encodeRecord("o", [1], "client=telnet") + encodeRecord("o", [2], "client=telnet"));
  await tick();
  ws.push(encodeRecord("d", [1], "first") + encodeRecord("d", [2], "cut in the midd").slice(0, -4));
  ws.push(encodeRecord("d", [2], "whole"));
  await tick();
  assert.deepEqual(sessions.get(1)!.got, ["first"]);
  assert.deepEqual(sessions.get(2)!.got, ["whole"]);
  assert.equal(logged.length, 1);
  assert.match(logged[0], /cut short/);
});

Deno.test("mux link: closes cross both ways; a lost link ends every session", async () => {
  const { ws, sessions } = linkWithSessions();
  ws.push([1, 2, 3].map((i) => encodeRecord("o", [i], "client=telnet")).join(""));
  await tick();
  ws.sent.length = 0;
  sessions.get(1)!.socket.send("bye");
  sessions.get(1)!.socket.close(1000, "quit");
  ws.push(encodeRecord("c", [2], "1000 telnet client left"));
  await tick();
  assert.equal(sessions.get(1)!.closed, 1000);
  assert.equal(sessions.get(2)!.closed, 1000);
  // Its last line before its close.
  assert.deepEqual(ws.records().map((r) => [r.type, r.ids, r.payload]), [
    ["d", [1], "bye"],
    ["c", [1], "1000 quit"],
  ]);
  ws.onclose?.(new Event("close"));
  assert.equal(sessions.get(3)!.closed, 1006);
});
