/** Tests of the sidecar link: its wire format, and the hub's end carrying many sessions. */
import { setImmediate } from "node:timers";
import assert from "node:assert/strict";
import {
  decodeRecords,
  encodeRecord,
  MAX_UNREAD_LINES,
  readUnread,
  unreadPayload,
} from "./mux_wire.ts";
import { MuxLink } from "./mux_link.ts";
import { EncodedFrame } from "../protocol.ts";
import type { Session, SessionEnd, SessionHub, SessionOpening } from "../session.ts";

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

/**
 * Lets the link flush: a timer, then an immediate. The link flushes in an immediate; on a busy
 * machine a loop turn can run a due timer before the immediates queued ahead of it, so the
 * immediate queued last runs after the link's.
 */
const tick = () =>
  new Promise((r) => setTimeout(r, 5)).then(() => new Promise((r) => setImmediate(r)));

/** One session as the hub sees it: what arrived for it, and how often it ended. */
class Opened implements SessionEnd {
  readonly id = "c1";
  readonly ip = "127.0.0.1";
  closed = false;
  readonly got: string[] = [];
  ends = 0;
  constructor(readonly session: Session, readonly opening: SessionOpening) {}
  received(data: unknown): void {
    this.got.push(String(data));
  }
  line(): boolean {
    return true;
  }
  report(): void {}
  gmcp(): void {}
  ended(): void {
    this.ends++;
  }
  /** Sends a message to this session (as a telnet session reads it: JSON). */
  send(text: string): void {
    this.session.deliver(new EncodedFrame({ msg: text }), true);
  }
}

/** What the hub sends a telnet session for `text`. */
const json = (text: string) => JSON.stringify({ msg: text, data: {} });

function linkWithSessions() {
  const ws = new FakeLinkSocket();
  const opened = new Map<number, Opened>();
  let n = 0;
  const stops: (() => void)[] = [];
  const hub: SessionHub = {
    stopping: false,
    connect(session, opening) {
      const s = new Opened(session, opening);
      // Sessions open in the order of their open records.
      opened.set(++n, s);
      return s;
    },
    onStop(close) {
      stops.push(close);
      return () => void stops.splice(stops.indexOf(close), 1);
    },
  };
  const logged: string[] = [];
  const link = new MuxLink(
    ws as unknown as WebSocket,
    hub,
    { ip: "127.0.0.1", trusted: true },
    (line) => logged.push(line),
  );
  return { ws, link, sessions: opened, logged, stops };
}

Deno.test("mux link: opens are acked in one record; a room's text crosses once with its sessions, each session's order kept", async () => {
  const { ws, sessions, link } = linkWithSessions();
  ws.push([1, 2, 3].map((i) => encodeRecord("o", [i], "client=telnet&token=t&resume=1")).join(""));
  await tick();
  assert.deepEqual(ws.records(), [{ type: "a", ids: [1, 2, 3], payload: "" }]);
  assert.deepEqual(sessions.get(1)!.opening, {
    kind: "telnet",
    ip: "127.0.0.1",
    trusted: true,
    token: "t",
    resume: true,
  });
  ws.sent.length = 0;
  const a = new EncodedFrame({ msg: "A" });
  for (const sid of [1, 2, 3]) sessions.get(sid)!.session.deliver(a, true);
  sessions.get(1)!.send("B");
  sessions.get(1)!.session.deliver(a, true);
  sessions.get(2)!.session.deliver(a, true);
  await tick();
  assert.equal(ws.sent.length, 1, "one link message");
  assert.deepEqual(ws.records().map((r) => [r.ids, r.payload]), [
    [[1, 2, 3], json("A")],
    [[1], json("B")],
    [[1, 2], json("A")],
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
  assert.equal(sessions.size, 1);
  assert.deepEqual(ws.records().map((r) => [r.type, r.ids, r.payload]), [
    ["c", [77], "1008 unknown session"],
  ]);
  // A second open of a session id in use is refused; the first session goes on.
  ws.push(encodeRecord("o", [1], "client=telnet"));
  ws.push(encodeRecord("d", [1], "still mine"));
  await tick();
  assert.deepEqual(sessions.get(1)!.got, ["mine", "still mine"]);
  assert.equal(sessions.get(1)!.ends, 0);
  assert.equal(sessions.size, 1);
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
  sessions.get(1)!.send("bye");
  sessions.get(1)!.session.close(1000, "quit");
  ws.push(encodeRecord("c", [2], "1000 telnet client left"));
  await tick();
  assert.equal(sessions.get(1)!.ends, 1);
  assert.equal(sessions.get(2)!.ends, 1);
  // Its last line before its close.
  assert.deepEqual(ws.records().map((r) => [r.type, r.ids, r.payload]), [
    ["d", [1], json("bye")],
    ["c", [1], "1000 quit"],
  ]);
  ws.onclose?.(new Event("close"));
  assert.equal(sessions.get(3)!.ends, 1);
  assert.equal(sessions.get(1)!.ends, 1, "an ended session is not ended again");
});

Deno.test("mux link: a stopping hub closes its sessions, then the link, their last records in its last message", async () => {
  const { ws, sessions, stops } = linkWithSessions();
  ws.push(encodeRecord("o", [1], "client=telnet"));
  await tick();
  ws.sent.length = 0;
  sessions.get(1)!.send("The server is restarting.");
  sessions.get(1)!.session.close(1012, "");
  for (const stop of [...stops]) stop();
  assert.deepEqual(ws.records().map((r) => [r.type, r.ids]), [["d", [1]], ["c", [1]]]);
  assert.equal(ws.readyState, 3);
  ws.onclose?.(new Event("close"));
  assert.equal(stops.length, 0, "a closed link leaves the hub's stop list");
});

Deno.test("mux link: a restart hands a session's read and unrun lines back before its close", async () => {
  const { ws, sessions } = linkWithSessions();
  ws.push(encodeRecord("o", [1], "client=telnet") + encodeRecord("o", [2], "client=telnet"));
  await tick();
  ws.sent.length = 0;
  sessions.get(1)!.send("The server is restarting.");
  sessions.get(1)!.session.unread?.(["say one", 'say "two"']);
  sessions.get(1)!.session.close(1012, "");
  sessions.get(2)!.session.close(1012, "");
  // After a close nothing more is handed back.
  sessions.get(1)!.session.unread?.(["late"]);
  await tick();
  assert.deepEqual(ws.records().map((r) => [r.type, r.ids, r.payload]), [
    ["d", [1], json("The server is restarting.")],
    ["u", [1], JSON.stringify(["say one", 'say "two"'])],
    ["c", [1], "1012 "],
    ["c", [2], "1012 "],
  ]);
});

Deno.test("mux wire: handed-back lines are a bounded list of strings, else refused whole", () => {
  assert.deepEqual(readUnread(unreadPayload(["a", "b\nc"])), ["a", "b\nc"]);
  assert.deepEqual(readUnread("[]"), []);
  for (
    const bad of [
      "",
      "{}",
      '"say"',
      "[1]",
      '["a", null]',
      JSON.stringify(Array(MAX_UNREAD_LINES + 1).fill("x")),
      JSON.stringify(["x".repeat(8193)]),
    ]
  ) {
    assert.equal(readUnread(bad), null, bad.slice(0, 40));
  }
  const { records, error } = decodeRecords(encodeRecord("u", [1], "[]"));
  assert.equal(error, null);
  assert.equal(records[0].type, "u");
});
